"""One mutant's verdict, in its own process: ``python -m conformance.mutate_worker TREE SUITE``.

Builds the mutated tree through the build layer, runs every primitive vector family and then
the non-slow scenarios cheapest first, and prints one JSON line: killed (by what, at which
step), survived, or build-failed.  A crash of the mutant kills this process, which the parent
reports as a kill by crash.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from . import vectors
from .build import DETERMINISM_FLAGS, BuildFailed, system_cc
from .controls import by_cost
from .goldens import golden_path, read_golden
from .runners.base import RunnerError
from .runners.cffi_runner import CffiRunner, CVariant
from .suite import Suite


def verdict(tree: Path, root: Path) -> dict:
    runner = CffiRunner(CVariant("mutant", system_cc(), DETERMINISM_FLAGS + ("-O2",), tree))
    try:
        runner.info()
    except (RunnerError, BuildFailed) as err:
        return {"status": "build-failed", "detail": str(err)[-300:]}
    suite = Suite(root)
    for name, cases in vectors.load_all(suite.goldens_dir / "vectors").items():
        try:
            results = runner.vectors(name, [c["args"] for c in cases])
        except RunnerError as err:
            return {"status": "killed", "killed_by": f"vector:{name}", "detail": err.reason}
        bad = vectors.compare(cases, results)
        if bad:
            return {"status": "killed", "killed_by": f"vector:{name}#{bad[0]}", "detail": f"{len(bad)} cases"}
    for scenario in by_cost(suite.select(None, False)):
        golden = read_golden(golden_path(suite.goldens_dir, scenario.id))
        try:
            for step, got in enumerate(runner.hashes(scenario.scene)):
                if got != golden.hashes[step]:
                    return {"status": "killed", "killed_by": f"scenario:{scenario.id}", "step": step}
        except RunnerError as err:
            return {"status": "killed", "killed_by": f"scenario:{scenario.id}", "detail": err.reason}
    return {"status": "survived"}


def evidence(tree: Path, seeds: int) -> dict:
    """Fresh random primitive inputs (``seeds`` new seeds per family): cases on which the mutant
    differs from the reference.  Zero on a large set is the evidence an equivalence claim needs."""
    runner = CffiRunner(CVariant("mutant", system_cc(), DETERMINISM_FLAGS + ("-O2",), tree))
    compared = differ = 0
    for family in vectors.FAMILIES:
        for seed in range(1, seeds + 1):
            cases = vectors.generate(family.name, seed)
            results = runner.vectors(family.name, [c["args"] for c in cases])
            compared += len(cases)
            differ += len(vectors.compare(cases, results))
    return {"compared": compared, "differ": differ}


def main() -> int:
    tree, root = Path(sys.argv[1]), Path(sys.argv[2])
    if len(sys.argv) > 3:
        print(json.dumps(evidence(tree, int(sys.argv[3]))), flush=True)
        return 0
    print(json.dumps(verdict(tree, root)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
