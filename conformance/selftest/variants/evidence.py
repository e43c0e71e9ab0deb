"""The evidence behind the reviewed equivalent mutants (``orca-conformance mutate --evidence``).

Contract: ``refresh_evidence(root, jobs, say)`` runs, in parallel, every entry of
``docs/mutation/equivalent.json`` whose evidence is missing or was taken on other C sources,
and writes each result into that file as soon as it is in (an interrupted run keeps what it
gathered).  It says one STALE line per entry that names no mutant of the current sources and
one NOT EQUIVALENT line per mutant the fresh inputs tell apart, then the summary; the run
fails on either.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from ...progress import Progress
from .equivalents import evidence_cases, gather_evidence, load_equivalent, save_equivalent
from .mutate import generate_mutants


@dataclass(frozen=True)
class EvidenceRun:
    gathered: int
    contradicted: int
    stale: int
    seconds: float

    @property
    def failed(self) -> bool:
        """A mutant the fresh inputs tell apart, or a reviewed entry naming no mutant."""
        return bool(self.contradicted or self.stale)

    def summary(self) -> str:
        return (f"mutate --evidence: {self.gathered} gathered, {self.contradicted} contradicted, "
                f"{self.stale} stale; {self.seconds:.0f} s")


def refresh_evidence(root: Path, jobs: int | None, say: Callable[[str], None]) -> EvidenceRun:
    """Gathers the missing or outdated evidence into root/docs/mutation/equivalent.json."""
    path = root / "docs" / "mutation" / "equivalent.json"
    entries = load_equivalent(path)
    by_id = {m.id: m for m in generate_mutants()}
    unknown = sorted(set(entries) - set(by_id))
    for mutant_id in unknown:
        say(f"STALE     {mutant_id}: no such mutant of the current sources (review it again)")
    todo = [by_id[i] for i in entries if i in by_id and not (entries[i].evidence and entries[i].evidence.holds())]
    started = time.perf_counter()
    cases = evidence_cases()
    contradicted = 0
    with Progress(len(todo), "mutants") as bar, ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
        for mutant, ev in zip(todo, pool.map(lambda m: gather_evidence(m, cases, root), todo)):
            entries[mutant.id] = replace(entries[mutant.id], evidence=ev)
            save_equivalent(path, entries)
            bar.advance(1, label=mutant.id)
            if not ev.holds():
                contradicted += 1
                say(f"NOT EQUIVALENT {mutant.id}: {ev.differ} of {ev.compared} cases differ ({ev.first})")
    run = EvidenceRun(len(todo), contradicted, len(unknown), time.perf_counter() - started)
    say(run.summary())
    return run
