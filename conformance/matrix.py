"""The hash matrix: scenarios x runners -> cells, with a diagnosis for every red cell.

Contract: ``run_matrix`` runs every selected scenario on every runner and compares per-step
hashes with the goldens (never re-running the reference, except to dump the state at a
divergence).  Every cell ends as PASS, DIVERGED (first step, diagnosis), ERROR (reason) or
SKIPPED (reason); a runner that raises never stops the matrix.  Each runner also gets a
``vectors`` row: the primitive vectors, bit for bit.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from . import vectors
from .diagnosis import Diagnosis, diagnose, first_failing_family
from .goldens import golden_path, read_golden
from .progress import Progress
from .runners import resolve
from .runners.base import Runner, RunnerError, RunnerInfo, RunnerUnavailable
from .runners.reference import ReferenceRunner
from .scenario import Scenario

PASS, DIVERGED, ERROR, SKIPPED = "PASS", "DIVERGED", "ERROR", "SKIPPED"
VECTORS_ROW = "vectors"


@dataclass
class Cell:
    """One scenario (or the vectors row) on one runner."""

    row: str
    runner: str
    status: str
    step: int | None = None
    reason: str = ""
    diagnosis: Diagnosis | None = None
    compared: int = 0
    seconds: float = 0.0

    def short(self) -> str:
        if self.status == DIVERGED and self.step is not None:
            return f"DIVERGED@{self.step}"
        return self.status

    def to_json(self) -> dict:
        return {"row": self.row, "runner": self.runner, "status": self.status, "step": self.step,
                "reason": self.reason, "compared": self.compared, "seconds": round(self.seconds, 3),
                "diagnosis": self.diagnosis.to_json() if self.diagnosis else None}


@dataclass
class MatrixResult:
    rows: list[str]
    runners: list[str]
    cells: dict[tuple[str, str], Cell] = field(default_factory=dict)
    infos: dict[str, RunnerInfo | None] = field(default_factory=dict)
    seconds: float = 0.0

    def failed(self) -> list[Cell]:
        return [c for c in self.cells.values() if c.status in (DIVERGED, ERROR)]

    def compared(self) -> int:
        return sum(c.compared for c in self.cells.values())


def compare_scenario(scenario: Scenario, runner: Runner, goldens: Path, reference: Runner,
                     vector_failure: tuple[str, int] | None, on_step=None) -> Cell:
    """One cell: stream the runner's hashes against the golden, diagnose the first divergence."""
    started = time.perf_counter()
    golden = read_golden(golden_path(goldens, scenario.id))
    cell = Cell(scenario.id, runner.id, PASS)
    if golden.fingerprint != scenario.fingerprint:
        cell.status, cell.reason = ERROR, "stale golden (regenerate it from the reference)"
        return cell
    count = 0
    stream = runner.hashes(scenario.scene)
    try:
        for step, got in enumerate(stream):
            if step >= len(golden.hashes):
                cell.status, cell.reason = ERROR, f"returned more than the {len(golden.hashes)} states expected"
                break
            if got != golden.hashes[step]:
                cell.status, cell.step = DIVERGED, step
                break
            count += 1
            if on_step is not None:
                on_step()
        else:
            if count != len(golden.hashes):
                cell.status = ERROR
                cell.reason = f"returned {count} states, expected {len(golden.hashes)}"
    except RunnerError as err:
        cell.status, cell.reason = ERROR, err.reason + (f" | stderr: {err.stderr_tail[-300:]}" if err.stderr_tail else "")
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()
    cell.compared = count
    if cell.status == DIVERGED:
        cell.diagnosis = diagnose(scenario.scene, cell.step, runner, reference)
        if vector_failure is not None:
            cell.diagnosis.vector_family, cell.diagnosis.vector_case = vector_failure
        cell.reason = cell.diagnosis.summary()
    cell.seconds = time.perf_counter() - started
    return cell


def vector_cell(runner: Runner, folder: Path) -> tuple[Cell, tuple[str, int] | None]:
    """The vectors row of one runner."""
    started = time.perf_counter()
    cell = Cell(VECTORS_ROW, runner.id, PASS)
    total = 0
    failure = None
    try:
        for name, cases in vectors.load_all(folder).items():
            results = runner.vectors(name, [c["args"] for c in cases])
            bad = vectors.compare(cases, results)
            total += len(cases) - len(bad)
            if bad and failure is None:
                failure = (name, bad[0])
                got = results[bad[0]] if len(results) == len(cases) else "(wrong number of results)"
                cell.status = DIVERGED
                cell.reason = (f"first failing primitive: {name}, case {bad[0]} of {len(cases)} "
                               f"({len(bad)} bad): expected {cases[bad[0]]['result']}, got {got}")
    except RunnerError as err:
        cell.status, cell.reason = ERROR, err.reason
        failure = failure or ("(vectors)", 0)
    cell.compared = total
    cell.seconds = time.perf_counter() - started
    return cell, failure


def run_matrix(scenarios: list[Scenario], runners: list[str | Runner], goldens: Path,
               with_vectors: bool = True) -> MatrixResult:
    """Every scenario on every runner (ids or Runner objects); never raises for a misbehaving runner."""
    started = time.perf_counter()
    rows = ([VECTORS_ROW] if with_vectors else []) + [s.id for s in scenarios]
    runner_ids = [r if isinstance(r, str) else r.id for r in runners]
    result = MatrixResult(rows, runner_ids)
    reference = ReferenceRunner()
    total = sum(len(s.scene.agents) * (s.scene.steps + 1) + 1 for s in scenarios) * len(runner_ids)
    with Progress(total, "matrix") as bar:
        for runner_id, given in zip(runner_ids, runners):
            runner = resolve(given) if isinstance(given, str) else given
            try:
                result.infos[runner_id] = runner.info()
            except RunnerUnavailable as err:
                result.infos[runner_id] = None
                for row in rows:
                    result.cells[(row, runner_id)] = Cell(row, runner_id, SKIPPED, reason=str(err))
                bar.advance(sum(len(s.scene.agents) * (s.scene.steps + 1) + 1 for s in scenarios))
                continue
            except RunnerError as err:
                result.infos[runner_id] = None
                for row in rows:
                    result.cells[(row, runner_id)] = Cell(row, runner_id, ERROR, reason=err.reason)
                bar.advance(sum(len(s.scene.agents) * (s.scene.steps + 1) + 1 for s in scenarios))
                continue
            failure = None
            try:
                if with_vectors:
                    cell, failure = vector_cell(runner, goldens / "vectors")
                    result.cells[(VECTORS_ROW, runner_id)] = cell
                for s in scenarios:
                    bar.advance(1, label=f"{runner_id} {s.id}")
                    weight = max(1, len(s.scene.agents))
                    result.cells[(s.id, runner_id)] = compare_scenario(
                        s, runner, goldens, reference, failure, on_step=lambda: bar.advance(weight))
            finally:
                runner.close()
    result.seconds = time.perf_counter() - started
    return result


def format_table(result: MatrixResult) -> str:
    """Rows scenarios, columns runners, one status per cell; then one line per red cell."""
    first = max([len("scenario")] + [len(r) for r in result.rows])
    widths = [max(len(r), 11) for r in result.runners]
    lines = ["  ".join(["scenario".ljust(first)] + [r.ljust(w) for r, w in zip(result.runners, widths)])]
    lines.append("  ".join(["-" * first] + ["-" * w for w in widths]))
    for row in result.rows:
        cells = [result.cells[(row, r)].short().ljust(w) for r, w in zip(result.runners, widths)]
        lines.append("  ".join([row.ljust(first)] + cells))
    details = [c for c in result.cells.values() if c.status != PASS]
    skipped_runners = {c.runner: c.reason for c in details if c.status == SKIPPED}
    if details:
        lines.append("")
    for runner, reason in skipped_runners.items():
        lines.append(f"SKIPPED  {runner}: {reason}")
    for c in details:
        if c.status != SKIPPED:
            lines.append(f"{c.status:<8} {c.row} [{c.runner}]: {c.reason}")
            if c.diagnosis is not None:
                for note in c.diagnosis.notes:
                    lines.append(f"         {note}")
    return "\n".join(lines)
