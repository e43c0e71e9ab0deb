"""Compare the per-variant verdicts of two runs: ``python tools/compare_verdicts.py BEFORE AFTER``.

Each file is a mutation report (docs/mutation/report.json: ``outcomes``), an operator report
(docs/operators/report.json: ``variants``) or any JSON object holding one of those lists of
rows with ``id`` and ``status``.  A verdict is compared by its outcome: ``kill`` (killed,
scene, vectors, crash, miscaused), ``survive`` (survived, gap), ``equivalent`` (equivalent,
searched, proved), or the status itself (build-failed, timeout, no-verdict); with
``--exact`` the status and the killer's kind (vector, scenario, crash, sanitizer) too.  Only
ids in both files are compared; prints each difference and a summary, exit status 1 on any.
"""

from __future__ import annotations

import argparse
import json
import sys

OUTCOME = {"killed": "kill", "scene": "kill", "vectors": "kill", "crash": "kill", "miscaused": "kill",
           "survived": "survive", "gap": "survive", "equivalent": "equivalent", "searched": "equivalent",
           "proved": "equivalent"}


def rows(path: str) -> dict[str, dict]:
    data = json.load(open(path))
    listed = data.get("outcomes", data.get("variants", []))
    return {row["id"]: row for row in listed}


def verdict(row: dict, exact: bool) -> str:
    word = OUTCOME.get(row["status"], row["status"])
    if not exact:
        return word
    killer = (row.get("killed_by") or "").split(":")[0]
    return f"{row['status']} {killer}".strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--exact", action="store_true", help="compare the status and the killer's kind too")
    args = parser.parse_args()
    before, after = rows(args.before), rows(args.after)
    common = sorted(set(before) & set(after))
    differ = [i for i in common if verdict(before[i], args.exact) != verdict(after[i], args.exact)]
    for i in differ:
        print(f"DIFFERS {i}: {verdict(before[i], args.exact)} -> {verdict(after[i], args.exact)}")
    print(f"{len(common)} variants in both ({len(before)} before, {len(after)} after): {len(differ)} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
