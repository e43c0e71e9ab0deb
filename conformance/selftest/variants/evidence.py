"""The evidence behind the reviewed survivors (``orca-conformance mutate --evidence`` and
``operators --evidence``).

Contract: ``refresh_evidence(root, jobs, say)`` runs, in parallel, every entry of
``docs/mutation/equivalent.json`` whose evidence is missing or was taken on other C sources,
and writes each result into that file as soon as it is in (an interrupted run keeps what it
gathered).  It says one STALE line per entry that names no mutant of the current sources and
one NOT EQUIVALENT line per mutant the fresh inputs tell apart, then the summary; the run
fails on either.  ``refresh_operator_evidence(root, jobs, say)`` does the same for the
entries of docs/operators/equivalent.json without a proof (a record only: a band search or a
proof makes an operator variant equivalent) and returns how many it contradicted or found stale.
Both gather through ``review.gather`` (the variant engine's worker, ``--evidence``).
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

from ...progress import Progress
from .mutate import generate_mutants
from .review import (MUTATION_REVIEWED, Evidence, Reviewed, evidence_cases, gather, load_equivalent, load_reviewed,
                     save_equivalent, save_reviewed)
from .tree import variant_tree
from .variant import Variant


def gather_evidence(mutant: Variant, cases: Path, root: Path, timeout: float = 300.0) -> Evidence:
    """One variant on the fresh cases and the slow scenarios, in its own process."""
    return Evidence(**gather(variant_tree(mutant), cases, root, timeout))


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
    path = root / MUTATION_REVIEWED
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


def refresh_operator_evidence(root: Path, jobs: int | None, say: Callable[[str], None]) -> int:
    """Evidence for every reviewed operator entry without a proof whose evidence is missing or
    stale; the number of entries the fresh inputs tell apart or that name no current variant."""
    from .operators import find_variants, load_operators
    by_id = {v.id: v for v in find_variants(load_operators())}
    entries = load_reviewed(root)
    bad = 0
    for stale in sorted(set(entries) - set(by_id)):
        say(f"STALE     {stale}: no such variant of the current sources (review it again)")
        bad += 1
    todo = [i for i, e in entries.items() if i in by_id and e.proof is None and not e.holds()]
    cases = evidence_cases()
    with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
        for i, ev in zip(todo, pool.map(lambda i: gather(variant_tree(by_id[i]), cases, root), todo)):
            entries[i] = Reviewed(i, entries[i].reason, ev, None, entries[i].search)
            save_reviewed(root, entries)
            if ev["differ"]:
                bad += 1
                say(f"NOT EQUIVALENT {i}: {ev['differ']} of {ev['compared']} cases differ ({ev['first']})")
            else:
                say(f"evidence  {i}: {ev['compared']:,} cases, {ev['scenarios']} slow scenario(s), none differ")
    say(f"operators --evidence: {len(todo)} gathered, {bad} contradicted or stale")
    return bad
