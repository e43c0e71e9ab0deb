"""The verdict of one matrix run, as ``orca-conformance matrix`` prints it and exits on it.

Contract: ``judge_matrix(result, scenarios, runners, strict)`` reads a finished
``MatrixResult`` and never runs anything: its summary line (cells passed, failed, not
provided, skipped; states and vectors compared), and whether the run fails the gate: on any
DIVERGED or ERROR cell; on a run that compared nothing (with the line saying why); and with
``strict`` on any SKIPPED cell, since a gate must not pass on columns that did not run, and on
any NOT PROVIDED vectors row, since a gate requires every family (judge/provided.py).  Without
``strict`` neither fails a run.
"""

from __future__ import annotations

from dataclasses import dataclass

from .matrix import NOT_PROVIDED, SKIPPED, MatrixResult


@dataclass(frozen=True)
class MatrixVerdict:
    summary: str
    reason: str
    """The line saying why the run fails although no cell may have failed; empty otherwise."""
    failed: bool


def judge_matrix(result: MatrixResult, scenarios: int, runners: int, strict: bool) -> MatrixVerdict:
    failed = result.failed()
    skipped = sum(1 for c in result.cells.values() if c.status == SKIPPED)
    passed = sum(1 for c in result.cells.values() if c.status == "PASS")
    lacking = [c for c in result.cells.values() if c.status == NOT_PROVIDED]
    summary = (f"\nmatrix: {_plural(scenarios, 'scenario')} x {_plural(runners, 'runner')}: "
               f"{passed} passed, {len(failed)} failed, " + (f"{len(lacking)} not provided, " if lacking else "")
               + f"{skipped} skipped; {result.compared()} states and vectors compared in {result.seconds:.1f} s")
    if result.compared() == 0:
        if not result.cells:
            cause = "no scenario selected and no vectors row"
        elif failed:
            cause = "every cell that ran ended in ERROR (see the ERROR lines above)"
        else:
            cause = "every runner was skipped (see the SKIPPED lines above)"
        return MatrixVerdict(summary, f"matrix: nothing was compared: {cause}", True)
    if strict and skipped:
        return MatrixVerdict(summary, f"matrix: --strict: {_plural(skipped, 'skipped cell')} fail the gate (a gate "
                             "must not pass on columns that did not run)", True)
    if strict and lacking:
        names = ", ".join(c.runner for c in lacking)
        rows = f"the vectors row of {names} is" if len(lacking) == 1 else f"the vectors rows of {names} are"
        return MatrixVerdict(summary, f"matrix: --strict: {rows} NOT PROVIDED: a gate requires every family", True)
    return MatrixVerdict(summary, "", bool(failed))


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")
