"""``orca-conformance operators``: the operator run as a command (judging is operator_run, the
report operator_report).

Contract: ``run_operators`` judges the chosen variants with one progress bar, says each failing
one (its diff and its red cell's headline) and the counts, writes the committed report when
asked (only for the whole set), and returns True when the run fails: a gap, a miscaused kill, a
build failure or a timeout, or nothing judged.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from ...errors import InputError
from ...progress import Progress
from .operator_report import REPORT_DIR, counts, write_report
from .operator_run import FAILING, STATUSES, judge_variants, run_digest, select_variants
from .operators import load_operators


def run_operators(root: Path, patterns: list[str] | None, sample: int | None, seed: int, jobs: int | None,
                  timeout: float, write: bool, sanitizer: str | None, say: Callable[[str], None]) -> bool:
    """``orca-conformance operators``: judge the chosen variants (one progress bar), say each one
    that fails and the counts, write the report when asked (the whole set only); True when the
    run fails (a gap, a miscaused kill, a build failure or a timeout)."""
    operators = load_operators()
    variants = select_variants(patterns, sample, seed, operators)
    if patterns is not None and not variants:
        raise InputError("command line", "--only", f"no variant id matches {', '.join(map(repr, patterns))}")
    if write and (patterns is not None or sample):
        raise InputError("command line", "--write", "writes the report of every variant: not with --only or --sample")
    started = time.perf_counter()
    with Progress(len(variants), "variants") as bar:
        judged = judge_variants(variants, root, jobs, timeout, sanitizer=sanitizer,
                                progress=lambda j: bar.advance(1, label=f"{j.status} {j.variant.id}"))
    seconds = time.perf_counter() - started
    for j in judged:
        if j.status in FAILING:
            say(f"{j.status.upper():<13}{j.variant.id}: {j.detail}")
            say("             " + j.variant.diff().replace("\n", "\n             "))
            if j.headline:
                say(f"             cell: {j.headline}")
    if write:
        for path in write_report(judged, operators, root / REPORT_DIR, run_digest(root), seconds):
            say(f"report: {path}")
    c = counts(judged)
    say(f"operators: {len(judged)} variants of {len(operators)} operators: " + ", ".join(f"{c[s]} {s}" for s in STATUSES)
        + f"; {seconds:.0f} s")
    return sum(c[s] for s in FAILING) > 0 or not judged
