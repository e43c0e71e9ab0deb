"""The reviewed survivors of the operator run (docs/operators/equivalent.json).

Contract: ``load_reviewed(root)`` reads the list (valid against
``operator-equivalent.schema.json``; InputError naming the file, key path and reason otherwise;
empty when there is none).  An entry's ``status()`` is ``proved`` when it carries a solver's
unsat proof, ``searched`` when the band search aimed at it (selftest/variants/band_search.py: zeros of
both signs, subnormals, values an ulp apart, points on the radius, the off-axis candidates) ran
on the current C sources and generator and separated nothing, and ``gap`` otherwise: random
evidence (the variant on fresh random primitive inputs and the slow scenarios, the mutation
run's standard) is kept as a record but no longer makes a variant equivalent.
``refresh_evidence`` gathers that evidence when missing or stale, in parallel, writing each
result as soon as it is in.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ...contract import schema_files
from .mutate import sources_digest

REVIEWED = Path("docs") / "operators" / "equivalent.json"


@dataclass(frozen=True)
class Reviewed:
    id: str
    reason: str
    evidence: dict | None = None
    proof: dict | None = None
    search: dict | None = None
    """The band search's record (band_search.SearchResult.to_record)."""

    def searched(self) -> bool:
        """A band search of the current sources and generator that separated nothing."""
        from .band_cases import generator_digest
        s = self.search
        return (s is not None and s["cases"] > 0 and s["differ"] == 0 and s["sources"] == sources_digest()[:16]
                and s["generator"] == generator_digest()[:16])

    def holds(self) -> bool:
        ev = self.evidence
        return ev is not None and ev["compared"] > 0 and ev["differ"] == 0 and ev["sources"] == sources_digest()[:16]

    def status(self) -> str:
        if self.proof is not None:
            return "proved"
        return "searched" if self.searched() else "gap"

    def to_json(self) -> dict:
        out = {"id": self.id, "reason": self.reason}
        if self.evidence is not None:
            out["evidence"] = self.evidence
        if self.proof is not None:
            out["proof"] = self.proof
        if self.search is not None:
            out["search"] = self.search
        return out


def load_reviewed(root: Path) -> dict[str, Reviewed]:
    path = root / REVIEWED
    if not path.exists():
        return {}
    data = schema_files.read_valid(path, "operator-equivalent")
    return {e["id"]: Reviewed(e["id"], e["reason"], e.get("evidence"), e.get("proof"), e.get("search")) for e in data["equivalent"]}


def save_reviewed(root: Path, entries: dict[str, Reviewed]) -> None:
    from ...jsonfile import write_json_atomic
    path = root / REVIEWED
    comment = ("Reviewed survivors of the operator run (docs/boundaries.md, 'Rewrite operators'): each gives the "
               "reference's bits; evidence is the variant on fresh random primitive inputs and the slow scenarios "
               "(orca-conformance operators --evidence), taken on the C sources named by 'sources', is a record only; "
               "a variant counts as equivalent with a proof (a bit-precise solver query with no model) or a band "
               "search that separated nothing (orca-conformance operators --search: cases aimed at the bands "
               "random inputs miss, selftest/variants/band_cases.py).")
    write_json_atomic(path, {"comment": comment, "equivalent": [entries[k].to_json() for k in sorted(entries)]})


def gather(tree: Path, cases: Path, root: Path, timeout: float = 300.0) -> dict:
    """The variant tree on the fresh cases and the slow scenarios (mutate_worker --evidence)."""
    cmd = [sys.executable, "-m", "conformance.selftest.variants.mutate_worker", "--evidence", str(tree), str(cases), str(root)]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        data = json.loads(done.stdout.strip().splitlines()[-1])
    except subprocess.TimeoutExpired:
        data = {"compared": 0, "differ": 1, "first": f"no answer within {timeout:.0f} s"}
    except (IndexError, ValueError):
        data = {"compared": 0, "differ": 1, "first": f"the variant crashed (status {done.returncode})"}
    return {"compared": data["compared"], "differ": data["differ"], "first": data.get("first", ""),
            "sources": sources_digest()[:16], "scenarios": data.get("scenarios", 0)}


def refresh_evidence(root: Path, jobs: int | None, say: Callable[[str], None]) -> int:
    """Evidence for every reviewed entry without a proof whose evidence is missing or stale; the
    number of entries the fresh inputs tell apart or that name no current variant."""
    from .equivalents import evidence_cases
    from .operators import find_variants, load_operators, variant_tree
    operators = {o.name: o for o in load_operators()}
    by_id = {v.id: v for v in find_variants(list(operators.values()))}
    entries = load_reviewed(root)
    bad = 0
    for stale in sorted(set(entries) - set(by_id)):
        say(f"STALE     {stale}: no such variant of the current sources (review it again)")
        bad += 1
    todo = [i for i, e in entries.items() if i in by_id and e.proof is None and not e.holds()]
    cases = evidence_cases()

    def one(i: str) -> dict:
        v = by_id[i]
        return gather(variant_tree(v, operators[v.operator]), cases, root)

    with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
        for i, ev in zip(todo, pool.map(one, todo)):
            entries[i] = Reviewed(i, entries[i].reason, ev, None, entries[i].search)
            save_reviewed(root, entries)
            if ev["differ"]:
                bad += 1
                say(f"NOT EQUIVALENT {i}: {ev['differ']} of {ev['compared']} cases differ ({ev['first']})")
            else:
                say(f"evidence  {i}: {ev['compared']:,} cases, {ev['scenarios']} slow scenario(s), none differ")
    say(f"operators --evidence: {len(todo)} gathered, {bad} contradicted or stale")
    return bad
