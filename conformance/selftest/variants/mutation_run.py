"""The scored mutation run of ``orca-conformance mutate`` (the evidence run is ``evidence.py``).

Contract: ``select_mutants(patterns, sample, seed)`` is the mutants of the current C sources
whose id matches any glob (all when ``patterns`` is None), then a fixed random sample of
``sample`` of them (the same for the same seed), in id order.  ``score_mutants`` runs them
(one progress bar; built with a sanitizer when one is named, ``mutate.run_mutants``), says a GAP or UNREVIEWED line with the diff of every survivor not
reviewed equivalent in ``docs/mutation/equivalent.json``, writes the reports when asked, says
the score, and returns the number of survivors nobody has reviewed (the run fails on any).
"""

from __future__ import annotations

import random
import time
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Callable

from ...progress import Progress
from .review import MUTATION_REVIEWED, is_equivalent, load_equivalent, load_gap_notes
from .mutate import SURVIVED, generate_mutants, run_mutants
from .variant import Variant
from .mutation_report import score, write_report


def select_mutants(patterns: list[str] | None, sample: int | None, seed: int) -> list[Variant]:
    mutants = generate_mutants()
    if patterns is not None:
        mutants = [m for m in mutants if any(fnmatchcase(m.id, p) for p in patterns)]
    if sample:
        mutants = sorted(random.Random(seed).sample(mutants, min(sample, len(mutants))), key=lambda m: m.id)
    return mutants


def score_mutants(mutants: list[Variant], root: Path, jobs: int | None, timeout: float, out: Path | None,
                  say: Callable[[str], None], *, sanitizer: str | None = None) -> int:
    """Runs the mutants against the scenarios and vectors (built with ``sanitizer`` when one is
    named); the number of unreviewed survivors."""
    reviewed_path = root / MUTATION_REVIEWED
    equivalent = load_equivalent(reviewed_path)
    started = time.perf_counter()
    with Progress(len(mutants), "mutants") as bar:
        outcomes = run_mutants(mutants, root, jobs, timeout, sanitizer=sanitizer,
                               progress=lambda o: bar.advance(1, label=f"{o.status} {o.mutant.id}"))
    seconds = time.perf_counter() - started
    summary = score(outcomes, equivalent)
    reviewed = load_gap_notes(reviewed_path)
    unreviewed = 0
    for o in outcomes:
        if o.status == SURVIVED and not is_equivalent(o.mutant.id, equivalent):
            tag = "GAP" if o.mutant.id in reviewed else "UNREVIEWED"
            unreviewed += o.mutant.id not in reviewed
            say(f"{tag:<10}{o.mutant.diff()}".replace("\n", "\n          "))
    if out is not None:
        for path in write_report(outcomes, equivalent, out, seconds, reviewed):
            say(f"report: {path}")
    by_sanitizer = sum(o.killed_by.startswith("sanitizer:") for o in outcomes)
    under = f" under the {sanitizer} sanitizer ({by_sanitizer} of the kills by its reports)" if sanitizer else ""
    say(f"mutate{under}: {summary['mutants']} mutants, {summary['killed']} killed, {summary['survived']} survived "
        f"({summary['equivalent']} reviewed equivalent, {summary['gaps']} gaps, {unreviewed} of them unreviewed), "
        f"{summary['build_failed']} build failures, {summary['timeout']} timeouts; score "
        f"{100 * summary['score']:.1f} %, on non-equivalent mutants {100 * summary['score_non_equivalent']:.1f} %; "
        f"{seconds:.0f} s")
    return unreviewed
