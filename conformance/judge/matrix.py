"""The hash matrix: scenarios x runners -> cells, with a diagnosis for every red cell.

Contract: ``run_matrix`` runs every selected scenario on every runner and compares per-step
hashes with the goldens (never re-running the reference, except to dump the state at a
divergence).  Every cell ends as PASS, DIVERGED (first step, diagnosis), ERROR (reason, and the
diagnosis of the failing step when a run stopped on a non-finite state or failed mid-run) or
SKIPPED (reason); a runner that raises never stops the matrix.  Each runner also gets a
``vectors`` row: the primitive vectors, bit for bit, of the families it provides (provided.py),
and a ``protocol`` row: how it answers what the scenarios never ask (protocol_row.py).
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from ..data import vectors
from ..runners.build.layer import announcing
from ..runners.build_estimate import pending_builds
from ..contract.clauses import clause_map
from .citation import cite_vector_cases
from .cell_engine import FailureSource, judge_stream, with_stderr
from .cell import DIVERGED, ERROR, PASS, SKIPPED, STATUSES, Cell, status_text  # noqa: F401 (re-exported)
from .matrix_meter import ColumnMeter
from .matrix_plan import Builds, first_run_lines, matrix_bar
from .protocol_finding import FindingSource, ProtocolFinding
from .protocol_row import PROTOCOL_ROW, protocol_cell
from .shared_causes import CachedReference, SharedCauses
from .provided import NOT_PROVIDED, asked, not_provided_reason, tally
from .line_fit import INDENT, WIDTH, fit_pieces
from .fingerprint import fingerprint
from .vector_failure import VectorFailure, describe_case, result_pieces, rounding_only
from ..data.goldens import OK as GOLDEN_OK
from ..data.goldens import golden_status
from ..progress import Progress
from ..runners import resolve
from ..runners.base import Runner, RunnerError, RunnerInfo, RunnerUnavailable
from ..contract.scenario import Scenario

VECTORS_ROW = "vectors"


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
                     vector_failure: FailureSource, on_step=None, protocol: FindingSource = None,
                     shared: SharedCauses | None = None) -> Cell:
    """One scenario cell: the runner's hashes against the scenario's golden, through the one
    cell engine (``cell_engine.judge_stream``, with what the vectors and protocol rows found and
    the column's ``shared`` searches); an ERROR cell when the golden is not usable."""
    status = golden_status(goldens, scenario)
    if status.kind != GOLDEN_OK:
        return Cell(scenario.id, runner.id, ERROR,
                    reason="the suite's golden is not usable: " + status.problem(scenario.id, status.path))
    return judge_stream(scenario.id, scenario.scene, status.golden.hashes, runner, reference, vector_failure, on_step,
                        protocol, shared)


FORMULA_FAMILIES = vectors.FAMILIES.names(lambda f: f.formula)
"""Primitives that are one formula of their arguments (few decisions): the family records'
``formula`` flag, a live view.  The composite ones (the linear program, the neighbor lists,
agent_step) amplify a rounding difference into other decisions, so their failures follow from
it and are not counted."""
ROUNDING_FAMILIES = 3
ROUNDING_SHARE = (9, 10)
"""The arithmetic itself differs (FMA contraction, x87, fast-math) when at least this many
formula primitives fail and at least this share (9 in 10, compared in integers: exactly 90 %
counts) of their bad cases differ by rounding only.
Measured on the catalogue: those three controls fail in 3 to 6 formula families, 97-99 % of
their bad cases rounding only; no misreading of a decision fails in more than 2 (near a
decision boundary both branches give nearly the same value, so one misread comparison can look
like rounding, but only in its own primitive)."""


def arithmetic_differs(rounding: dict[str, tuple[int, int]]) -> str:
    """From (bad cases that differ by rounding only, bad cases) per failing formula primitive:
    "r of the n bad cases of the formula primitives (a, b, c)" when the port's arithmetic is what
    differs (ROUNDING_FAMILIES, ROUNDING_SHARE), else ""."""
    rounded, bad = sum(r for r, _ in rounding.values()), sum(n for _, n in rounding.values())
    share, whole = ROUNDING_SHARE
    if len(rounding) < ROUNDING_FAMILIES or rounded * whole < bad * share:
        return ""
    return f"{rounded} of the {bad} bad cases of the formula primitives ({', '.join(rounding)})"


def _rounding_cases(name: str, cases: list, results: list, bad: list[int]) -> int:
    """How many bad cases differ by rounding only."""
    if len(results) != len(cases):
        return 0
    return sum(1 for i in bad if rounding_only(name, cases[i]["result"], results[i]) is not None)


@dataclass(frozen=True)
class FamilyRun:
    """One primitive family asked of a runner: its stored cases and either the results (with the
    indices of the bad ones) or the runner's error."""

    name: str
    cases: list[dict]
    results: list | None
    error: RunnerError | None
    bad: list[int]


def run_families(runner: Runner, families: dict[str, list[dict]]) -> Iterator[FamilyRun]:
    """Every family's cases (``vectors.load_all``: name -> cases) through ``runner``, in order
    (the caller may stop early: after the first failure, or when a port stops answering)."""
    for name, cases in families.items():
        try:
            results = runner.vectors(name, [c["args"] for c in cases])
        except RunnerError as err:
            yield FamilyRun(name, cases, None, err, [])
            continue
        yield FamilyRun(name, cases, results, None, vectors.compare(cases, results))


def vector_cell(runner: Runner, folder: Path) -> tuple[Cell, VectorFailure | None]:
    """The vectors row of one runner; the failure (it unpacks as ``(family, case)``) carries the
    first failing case's decoded arguments, expected and actual results, which the reason shows."""
    started = time.perf_counter()
    cell = Cell(VECTORS_ROW, runner.id, PASS)
    total = 0
    failure = None
    passed: list[str] = []
    diverged: list[str] = []
    errors: list[tuple[str, str]] = []
    rounding: dict[str, tuple[int, int]] = {}  # failing formula family: (bad cases that are rounding only, bad)
    formula_runs: list[FamilyRun] = []
    families, missing = asked(runner, vectors.load_all(folder))  # a family not provided is not asked
    for run in run_families(runner, families):
        name, cases, results, bad = run.name, run.cases, run.results, run.bad
        if run.error is not None:
            # A family the port answers with an error (not written yet, say) does not hide the
            # others; a port that hangs, runs away or dies is not asked again.
            errors.append((name, with_stderr(run.error)))
            if not run.error.diagnosable:
                break
            continue
        total += len(cases) - len(bad)
        if not bad:
            passed.append(name)
            continue
        diverged.append(name)
        if name in FORMULA_FAMILIES:
            rounding[name] = (_rounding_cases(name, cases, results, bad), len(bad))
            formula_runs.append(run)
        if failure is None:
            got = results[bad[0]] if len(results) == len(cases) else "(wrong number of results)"
            detail = describe_case(name, cases[bad[0]]["args"], cases[bad[0]]["result"], got)
            failure = VectorFailure(name, bad[0], detail)
            failure.results = result_pieces(name, cases[bad[0]]["result"], got)
            failure.citation = cite_vector_cases(name, cases, results, bad)
            failure.where = f"{name}, case {bad[0]} of {len(cases)} ({len(bad)} bad)"
            cell.reason = (f"first failing primitive: {failure.where}: {detail}; "
                           f"breaks {clause_map().cite(failure.citation.primary)}")
    if diverged:
        _name_the_arithmetic(cell, failure, rounding, formula_runs, runner)
    elif errors:
        cell.status = ERROR
        cell.reason = f"{errors[0][0]}: {errors[0][1]}"
        failure = VectorFailure("(vectors)", 0, errors[0][1][:200])
    elif missing:
        cell.status, cell.reason = NOT_PROVIDED, not_provided_reason(missing, len(passed), len(families) + len(missing))
    if diverged or errors:
        summary = tally(passed, diverged, errors, missing)
        head = cell.reason  # the first failing case or error, kept apart from the tally after it
        cell.reason += f" [{summary}]"
        cell.brief = _vector_brief(cell, failure, summary, head)
    cell.compared = total
    cell.seconds = time.perf_counter() - started
    return cell, failure


def _name_the_arithmetic(cell: Cell, failure: VectorFailure, rounding: dict[str, tuple[int, int]],
                         formula_runs: list[FamilyRun], runner: Runner) -> None:
    """A diverged vectors row: whether the port's arithmetic itself differs (``arithmetic_differs``)
    and, when some formula cases differ by rounding only, the evaluation model that reproduces
    them with its fix (judge/fingerprint.py)."""
    cell.status = DIVERGED
    cell.citation = failure.citation
    failure.rounding = arithmetic_differs(rounding)
    if any(r for r, _ in rounding.values()):
        failure.fingerprint = fingerprint(formula_runs, _hello(runner))
    if failure.rounding:
        cell.reason += f" [{failure.rounding} differ by rounding only]"
    if failure.fingerprint is not None:
        cell.reason += f" [{failure.fingerprint.text(whole=True)}]"


def _vector_brief(cell: Cell, failure: VectorFailure, families: str, error: str) -> list[str]:
    """The vectors row's short form: the first failing case (or ``error``, an ERROR's reason
    without the tally) and the families' tally, its expected and actual results, the clause."""
    if cell.status == ERROR:
        return [error, families]
    head = f"first failing primitive {failure.where}; {families}"
    if failure.rounding:
        head = f"the floating-point evaluation differs, not the logic ({failure.rounding} differ by rounding only); {head}"
    if failure.citation is not None:
        head += f" (breaks {failure.citation.primary})"
    values = fit_pieces(failure.results, WIDTH - len(INDENT)) if failure.results else failure.detail
    if failure.fingerprint is not None:  # the slip and its fix before the values
        return [head, failure.fingerprint.text(), values]
    return [head, values]


def _hello(runner: Runner) -> RunnerInfo | None:
    """The runner's self-description (its hello), or None when it cannot give one."""
    try:
        return runner.info()
    except (RunnerError, RunnerUnavailable):
        return None


def run_matrix(scenarios: list[Scenario], runners: list[str | Runner], goldens: Path,
               with_vectors: bool = True, jobs: int = 1, with_protocol: bool = True,
               builds: Builds = pending_builds, now: Callable[[], float] | None = None,
               share: bool = True) -> MatrixResult:
    """Every scenario on every runner (ids or Runner objects), after the vectors row and the
    protocol row (each unless left out); never raises for a misbehaving runner.

    ``jobs`` columns run at once, each in a thread of its own: the runners spend their time in
    native code that releases the GIL (cffi, wasmtime, Unicorn) or in child processes, so two
    columns use two cores.  Before anything runs, the plan (``matrix_plan``: ``builds`` says what
    each column compiles first) is printed when there are builds to make, and with ``jobs`` > 1
    the longest columns, builds included, start first, so that the cheap ones fill the other
    workers around them.  A column's cells do not depend on what else runs, and the result keeps
    the columns in the order given.  The bar counts cells and builds, its percentage and ETA are
    the ``MatrixClock``'s (``now``: its clock, default time.monotonic).  ``share``: a column's red
    cells search each cause once (judge/shared_causes.py; False, for --verbose: every cell in full)."""
    started = time.perf_counter()
    lead = [VECTORS_ROW] * with_vectors + [PROTOCOL_ROW] * with_protocol
    rows = lead + [s.id for s in scenarios]
    resolved = [resolve(r) if isinstance(r, str) else r for r in runners]  # the registry, in this thread
    result = MatrixResult(rows, [given if isinstance(given, str) else given.id for given in runners])
    bar, clock, plans = matrix_bar(result.runners, resolved, scenarios, lead, jobs, builds, now)
    with bar, announcing(bar.note):
        for line in first_run_lines(plans, clock.jobs):
            bar.note(line)
        work = [(p.column, p.runner, scenarios, goldens, with_vectors, result, bar, clock.meter(bar, p.column),
                 SharedCauses(enabled=share)) for p in plans]
        if clock.jobs == 1:
            for job in work:
                _column(*job)
        else:
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                for done in [pool.submit(_column, *job) for job in work]:
                    done.result()
    result.cells = {(row, r): result.cells[(row, r)] for r in result.runners for row in rows}  # a fixed order
    result.seconds = time.perf_counter() - started
    return result


def _column(runner_id: str, runner: Runner, scenarios: list[Scenario], goldens: Path, with_vectors: bool,
            result: MatrixResult, bar: Progress, meter: ColumnMeter, shared: SharedCauses) -> None:
    """One column's cells into ``result`` (each column writes only its own cells); ``meter``
    counts its cells on the bar and tells the clock when its build ends and each cell's time;
    ``shared`` keeps the column's dear searches, the reference keeps its dumps per scene."""
    column_started = time.perf_counter()
    reference = CachedReference()
    meter.clock.started(runner_id)
    try:
        result.infos[runner_id] = runner.info()  # builds the port on first use
        meter.clock.built(runner_id)
    except (RunnerUnavailable, RunnerError) as err:
        result.infos[runner_id] = None
        status = SKIPPED if isinstance(err, RunnerUnavailable) else ERROR
        reason = str(err) if status == SKIPPED else with_stderr(err)
        for row in result.rows:
            result.cells[(row, runner_id)] = Cell(row, runner_id, status, reason=reason,
                                                  failure="" if status == SKIPPED else err.reason)
        meter.finish()
        bar.note(_column_line(result, runner_id, time.perf_counter() - column_started))
        return
    failure = None
    finding: ProtocolFinding | None = None  # the rows run first: the scenario cells read what they found
    try:
        if with_vectors:
            with meter.cell(VECTORS_ROW):
                cell, failure = vector_cell(runner, goldens / "vectors")
            result.cells[(VECTORS_ROW, runner_id)] = cell
        if PROTOCOL_ROW in result.rows:
            with meter.cell(PROTOCOL_ROW):
                protocol = result.cells[(PROTOCOL_ROW, runner_id)] = protocol_cell(runner)
            finding = protocol.finding
        for s in scenarios:
            with meter.cell(s.id) as step:
                result.cells[(s.id, runner_id)] = compare_scenario(s, runner, goldens, reference, failure, step,
                                                                   finding, shared)
    finally:
        runner.close()
        meter.finish()
    bar.note(_column_line(result, runner_id, time.perf_counter() - column_started))


def _column_line(result: MatrixResult, runner_id: str, seconds: float) -> str:
    """One line per finished column: what a CI log shows while the matrix runs."""
    cells = [c for (_, r), c in result.cells.items() if r == runner_id]
    counts = {status: sum(c.status == status for c in cells) for status in STATUSES}
    text = ", ".join(f"{n} {status.lower()}" for status, n in counts.items() if n)
    return f"column {runner_id}: {text} ({seconds:.1f} s)"
