"""``orca-conformance fuzz``: differential testing of ports against the reference on random scenes.

Contract: ``run_fuzz`` makes the scenes ``scenes.make_scene(seed, index)`` for index 0, 1,
... (skipping the kinds not chosen) until ``count`` scenes were made or ``seconds`` passed,
takes each scene's expected hashes from ``Expected`` (the reference, or a column first shown
identical to the reference on the whole committed suite: ``column_expected``), and runs it on
every runner.  Each (scene, runner) is a matrix ``Cell`` (``cell.compare``): PASS,
DIVERGED (with the diagnosis of ``diagnosis.diagnose``, plus the runner's first failing
primitive) or ERROR (the runner's reason; the run goes on).  A scene on which the reference
itself reaches a non-finite state is rejected and counted, never compared.  With
``shrink_to``, the first divergence of each scene is shrunk (``shrink.shrink``, same runner, the
reference as oracle) and written there as a scenario file with its golden.
``FuzzResult.matrix()`` gives the matrix of the failing scenes plus one summary row
(``fuzz/passed``: the scenes that passed), so ``report.write_reports`` and ``merge`` take it
unchanged.  With ``protocol``, a scene that passed also gets the protocol row's scene checks
(``cell.with_protocol``); a check that fails is a finding too (never shrunk: it has no
step).  With ``jobs`` > 1, worker processes compute the reference's hashes ahead
(``expected.ReferencePool``); everything else stays here, in index order, so the run is the
same as a serial one.  With ``frames``, a scene that passed on every runner is run again in its
frame (``frames.scene_frame``: rotated, translated, mirrored, reordered; the expected hashes
from the reference in this process), as one more scene (``FuzzResult.framed`` counts them); a
framed finding shrinks through its base scene and keeps its frame (``frames.shrink_framed``).
``fuzz_controls`` runs every control under fuzz.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ... import __version__
from ...judge.cell_text import cell_lines
from ...judge.cell_engine import compare_hashes
from ...judge.diagnosis import diagnose
from ...judge.protocol_finding import ProtocolFinding
from ...judge.vector_failure import VectorFailure
from ...errors import InputError
from .cell import compare, protocol_between, protocol_findings, with_protocol
from .expected import Expected, column_expected, expected_source, reference_hashes, scene_indices
from .frames import FramedScene, framed, scene_frame, shrink_framed
from .scenes import KINDS, FuzzScene, make_scene
from ...judge.matrix import DIVERGED, ERROR, PASS, SKIPPED, Cell, MatrixResult, vector_cell
from ...runners import resolve
from ...runners.base import Runner, RunnerError, RunnerInfo, RunnerUnavailable
from ...runners.reference import ReferenceRunner
from ...contract.scenario import Scene
from .shrink import Shrunk, shrink, write_scenario

SUMMARY_ROW = "fuzz/passed"
DEFAULT_COUNT = 100
MAX_ERRORS_IN_A_ROW = 3
"""A runner that errs on this many scenes in a row (a hang, a crash at start) is not asked again."""


def parse_duration(text: str) -> float:
    """Seconds of ``90``, ``90s``, ``10m`` or ``1h``; InputError otherwise."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smh]?)\s*", text or "")
    if match is None or float(match.group(1)) <= 0:
        raise InputError("command line", "--time", f"not a duration: {text!r} (e.g. 90s, 10m, 1h)")
    return float(match.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600}[match.group(2)]


def parse_kinds(values: list[str] | None) -> tuple[str, ...]:
    """The chosen kinds (comma-separated, repeatable); all when none."""
    chosen = [k for v in values or [] for k in v.split(",") if k]
    unknown = [k for k in chosen if k not in KINDS]
    if unknown:
        raise InputError("command line", "--kinds", f"unknown kind {unknown[0]!r}; known: {', '.join(KINDS)}")
    return tuple(k for k in KINDS if k in chosen) if chosen else KINDS


def divergence_oracle(runner: Runner) -> Callable[[Scene], int | None]:
    """For shrinking: the first step where the runner differs from the reference, else None
    (a scene the reference rejects, or on which the runner errors, does not count)."""
    def diverges(scene: Scene) -> int | None:
        expected = reference_hashes(scene)
        if expected is None:
            return None
        return compare_hashes(runner.hashes(scene), expected).first_difference()
    return diverges


@dataclass
class Finding:
    """A failing (scene, runner), and the shrunk scenario when one was written."""

    scene: FuzzScene
    cell: Cell
    shrunk: Shrunk | None = None
    files: tuple[Path, ...] = ()


@dataclass
class FuzzResult:
    runners: list[str]
    expected: str
    kinds: tuple[str, ...]
    seed: int
    scenes: int = 0
    framed: int = 0
    """Framed scenes run besides the ``scenes`` (``frames``), each once a scene passed."""
    rejected: int = 0
    passed: dict[str, int] = field(default_factory=dict)
    compared: dict[str, int] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    infos: dict[str, RunnerInfo | None] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    broken: dict[str, str] = field(default_factory=dict)
    """Runners that failed to start, or were dropped after ``MAX_ERRORS_IN_A_ROW`` ERROR cells."""
    seconds: float = 0.0
    workers: int = 0
    """Worker processes that computed the reference's hashes ahead (0: in this process)."""

    def matrix(self) -> MatrixResult:
        """Rows: every failing scene, then ``fuzz/passed`` (one PASS cell per runner holding the
        count of scenes and states that passed); SKIPPED runners are SKIPPED everywhere."""
        rows = list(dict.fromkeys(f.scene.id for f in self.findings)) + [SUMMARY_ROW]
        result = MatrixResult(rows, list(self.runners), infos=dict(self.infos), seconds=self.seconds)
        failed = {(f.scene.id, f.cell.runner): f.cell for f in self.findings}
        for runner in self.runners:
            for row in rows:
                if runner in self.skipped:
                    cell = Cell(row, runner, SKIPPED, reason=self.skipped[runner])
                elif runner in self.broken and (row == SUMMARY_ROW or (row, runner) not in failed):
                    cell = Cell(row, runner, ERROR, reason=self.broken[runner], compared=self.compared.get(runner, 0))
                elif row == SUMMARY_ROW:
                    cell = Cell(row, runner, PASS, compared=self.compared.get(runner, 0),
                                reason=f"{self.passed.get(runner, 0)} of {self.scenes + self.framed} scenes passed "
                                       f"(seed {self.seed}, suite {__version__}, expected from {self.expected})")
                else:
                    cell = failed.get((row, runner)) or Cell(row, runner, PASS)
                result.cells[(row, runner)] = cell
        return result


def run_fuzz(runners: list[str | Runner], seed: int, count: int | None, seconds: float | None,
             kinds: tuple[str, ...], expected: Expected, vector_folder: Path, shrink_to: Path | None = None,
             on_cell: Callable[[Finding], None] | None = None, on_scene: Callable[[FuzzScene], None] | None = None,
             shrink_seconds: float = 60.0, id_suffix: str = "", stop_at_divergence: bool = False,
             with_vectors: bool = True, protocol: bool = False, jobs: int = 1, frames: bool = False) -> FuzzResult:
    """The fuzz loop of the module doc; never raises for a misbehaving runner.  With
    ``stop_at_divergence`` it ends at the first DIVERGED cell (the controls: caught or not);
    ``with_vectors`` False leaves the first failing primitive out (a port without vectors);
    ``protocol`` adds the protocol row's scene checks to every scene that passes (``with_protocol``);
    ``jobs`` > 1 computes the reference's hashes ahead in that many worker processes
    (``expected.ReferencePool``: the same run, faster); ``frames`` runs each scene that passed
    again in its frame."""
    started = time.perf_counter()
    if count is None and seconds is None:
        count = DEFAULT_COUNT
    ids = [r if isinstance(r, str) else r.id for r in runners]
    result = FuzzResult(ids, expected.name, kinds, seed)
    source = expected_source(expected, seed, kinds, jobs, count)  # before the runners: no pipe is forked
    result.workers = getattr(source, "jobs", 0)
    live: list[Runner] = []
    try:
        live = _start_runners(ids, runners, result)
        judge = _SceneJudge(result, live, _vector_failures(vector_folder, with_vectors), on_cell,
                            protocol_between() if protocol else None,
                            shrink_to, shrink_seconds, id_suffix, frames)
        for index in scene_indices(kinds):
            if _done(result, live, count, seconds, started, stop_at_divergence):
                break
            fs = make_scene(seed, index)
            if on_scene is not None:
                on_scene(fs)
            hashes = source.hashes(fs)
            if hashes is None:
                result.rejected += 1
                continue
            result.scenes += 1
            judge.scene(fs, hashes)
            judge.in_frame(fs)
    finally:
        source.close()
        for runner in live:
            runner.close()
    result.seconds = time.perf_counter() - started
    return result


@dataclass
class _SceneJudge:
    """Every live runner on one scene: cells counted, findings kept (and shrunk) in runner order."""

    result: FuzzResult
    live: list[Runner]
    vector_failure: Callable[[Runner], Callable[[], VectorFailure | None]]
    on_cell: Callable[[Finding], None] | None
    between: object
    shrink_to: Path | None
    shrink_seconds: float
    id_suffix: str
    frames: bool = False
    reference: Runner = field(default_factory=ReferenceRunner)
    protocol: Callable[[Runner], Callable[[], ProtocolFinding | None]] = field(default_factory=protocol_findings)
    errors_in_a_row: dict[str, int] = field(default_factory=dict)

    def scene(self, fs: FuzzScene, hashes: list[str]) -> None:
        result = self.result
        shrunk_once = False
        for runner in list(self.live):
            cell = compare(fs, runner, hashes, self.reference, self.vector_failure(runner), self.protocol(runner))
            if self.between is not None:
                cell = with_protocol(cell, fs, runner, hashes, self.between)
            _count_errors(runner, cell, self.errors_in_a_row, self.live, result)
            if cell.status == PASS:
                result.passed[runner.id] = result.passed.get(runner.id, 0) + 1
                result.compared[runner.id] = result.compared.get(runner.id, 0) + cell.compared
                continue
            finding = Finding(fs, cell)
            if self.shrink_to is not None and cell.status == DIVERGED and cell.step is not None and not shrunk_once:
                shrunk_once = True
                _shrink_finding(finding, runner, self.shrink_to, self.shrink_seconds, self.id_suffix)
            result.findings.append(finding)
            if self.on_cell is not None:
                self.on_cell(finding)

    def in_frame(self, fs: FuzzScene) -> None:
        """With ``frames``, ``fs`` once more in its frame, when it passed on every runner."""
        if not self.frames or not self.live or any(f.scene is fs for f in self.result.findings):
            return
        moved = framed(fs, scene_frame(fs.seed, fs.index, fs.scene))
        hashes = reference_hashes(moved.scene)
        if hashes is None:
            self.result.rejected += 1
            return
        self.result.framed += 1
        self.scene(moved, hashes)


def _start_runners(ids: list[str], runners: list[str | Runner], result: FuzzResult) -> list[Runner]:
    """The runners that started; the others are SKIPPED (unavailable) or broken in ``result``."""
    live: list[Runner] = []
    for runner_id, given in zip(ids, runners):
        runner = resolve(given) if isinstance(given, str) else given
        try:
            result.infos[runner_id] = runner.info()
            live.append(runner)
        except RunnerUnavailable as err:
            result.infos[runner_id] = None
            result.skipped[runner_id] = str(err)
            runner.close()
        except RunnerError as err:
            result.infos[runner_id] = None
            result.broken[runner_id] = f"failed to start: {err.reason}"
            runner.close()
    return live


def _vector_failures(vector_folder: Path,
                     with_vectors: bool) -> Callable[[Runner], Callable[[], VectorFailure | None]]:
    """Per runner, a lazy lookup of its first failing primitive, asked once per run."""
    failures: dict[str, VectorFailure | None] = {}

    def vector_failure(runner: Runner) -> Callable[[], VectorFailure | None]:
        def get() -> VectorFailure | None:
            if runner.id not in failures and not with_vectors:
                failures[runner.id] = None
            if runner.id not in failures:
                row, found = vector_cell(runner, vector_folder)
                failures[runner.id] = found if row.status == DIVERGED else None  # ERROR: no primitive API
            return failures[runner.id]
        return get
    return vector_failure


def _done(result: FuzzResult, live: list[Runner], count: int | None, seconds: float | None, started: float,
          stop_at_divergence: bool) -> bool:
    """Whether the loop ends before the next scene: enough scenes, time up, caught, or no runner left."""
    if count is not None and result.scenes >= count:
        return True
    if seconds is not None and time.perf_counter() - started >= seconds:
        return True
    if stop_at_divergence and any(f.cell.status == DIVERGED for f in result.findings):
        return True
    return not live


def _count_errors(runner: Runner, cell: Cell, errors_in_a_row: dict[str, int], live: list[Runner],
                  result: FuzzResult) -> None:
    """Drops (and closes) a runner after ``MAX_ERRORS_IN_A_ROW`` ERROR cells in a row."""
    errors_in_a_row[runner.id] = errors_in_a_row.get(runner.id, 0) + 1 if cell.status == ERROR else 0
    if errors_in_a_row[runner.id] >= MAX_ERRORS_IN_A_ROW:
        result.broken[runner.id] = (f"dropped after {MAX_ERRORS_IN_A_ROW} ERROR scenes in a row: "
                                    f"{cell.reason}")
        live.remove(runner)
        runner.close()


def _shrink_finding(finding: Finding, runner: Runner, folder: Path, budget: float, id_suffix: str) -> None:
    fs, cell = finding.scene, finding.cell
    frame_note = ""
    if isinstance(fs, FramedScene):
        finding.shrunk, without = shrink_framed(fs, cell.step or 0, divergence_oracle(runner), budget)
        frame_note = f" Frame {fs.frame.name}, kept: the base scene " + ("fails without it too." if without else
                                                                        "passes without it.")
    else:
        finding.shrunk = shrink(fs.scene, cell.step or 0, divergence_oracle(runner), budget)
    small = finding.shrunk.scene
    try:
        diagnosis = diagnose(small, finding.shrunk.step, runner, ReferenceRunner()).summary()
    except RunnerError as err:
        diagnosis = f"(diagnosis failed: {err.reason})"
    scenario_id = fs.id.replace("~", "-") + id_suffix  # a file's id names no frame: its scene is the framed one
    header = [f"Found by orca-conformance fuzz (suite {__version__}, seed {fs.seed}, index {fs.index}, kind {fs.kind})",
              f"and shrunk from {len(fs.scene.agents)} agents, {len(fs.scene.segments)} segments, "
              f"{fs.scene.steps} steps.{frame_note}",
              f"Runner {runner.id} diverges: {diagnosis}"]
    description = (f"Shrunk fuzz scene ({fs.kind}): {finding.shrunk.size()}; "
                   f"{runner.id} diverged at step {finding.shrunk.step}.")[:200]
    comment = f"Runner {runner.id} diverged from the reference: {diagnosis}"
    finding.files = write_scenario(small, scenario_id, description, comment, header, folder)


def format_finding(f: Finding, verbose: bool = False) -> str:
    """A red fuzz cell as the matrix prints one (judge/cell_text.py), then what its shrinking wrote."""
    line = "\n".join(cell_lines(f.cell, verbose))
    if f.shrunk is not None:
        line += f"\n         shrunk to {f.shrunk.size()} ({f.shrunk.tries} tries, {f.shrunk.seconds:.1f} s)"
        line += "".join(f"\n         wrote {p}" for p in f.files)
    return line


def summary_line(result: FuzzResult) -> str:
    diverged = sum(f.cell.status == DIVERGED for f in result.findings)
    errors = sum(f.cell.status == ERROR for f in result.findings)
    per_minute = 60.0 * result.scenes / result.seconds if result.seconds else 0.0
    live = [r for r in result.runners if r not in result.skipped and r not in result.broken]
    workers = f", the reference in {result.workers} processes" if result.workers else ""
    framed_note = f" and {result.framed} framed" if result.framed else ""
    return (f"fuzz: {result.scenes} scenes{framed_note} (seed {result.seed}, kinds {','.join(result.kinds)}) "
            f"x {len(live)} runners, "
            f"expected hashes from {result.expected}: {sum(result.passed.values())} passed, {diverged} diverged, "
            f"{errors} errors, {len(result.skipped)} runners skipped, {len(result.broken)} broken, "
            f"{result.rejected} scenes rejected by the "
            f"reference (non-finite); {sum(result.compared.values())} states compared in {result.seconds:.1f} s "
            f"({per_minute:.0f} scenes/min{workers})")


# ----------------------------------------------------------------------------- the controls under fuzz

@dataclass
class ControlFuzz:
    """A control's verdict on the committed scenarios next to what fuzzing found."""

    fixed: object
    """controls.ControlResult on the committed scenarios."""
    fuzz: FuzzResult | None

    @property
    def caught(self) -> Finding | None:
        return next((f for f in self.fuzz.findings if f.cell.status == DIVERGED), None) if self.fuzz else None

    def points_at_scenario(self) -> bool:
        """The fixed scenarios miss it (or claim it equivalent or unreachable), fuzzing catches it."""
        from ..controls.catalogue import CAUGHT
        return self.caught is not None and self.fixed.status not in (CAUGHT, SKIPPED)


def fuzz_controls(controls, scenarios, goldens: Path, seed: int, count: int, kinds: tuple[str, ...],
                  shrink_to: Path | None, on_result: Callable[[ControlFuzz], None] | None = None) -> list[ControlFuzz]:
    """Each control: its verdict on the committed scenarios (``controls.run_control``), then up to
    ``count`` fuzz scenes until one diverges (shrunk into ``shrink_to`` as fuzz/<scene>-<control>)."""
    from ..controls.catalogue import run_control
    expected = Expected(memo=True)
    out = []
    for control in controls:
        fixed = run_control(control, scenarios, goldens)
        fuzz = None
        if fixed.status != SKIPPED:
            fuzz = run_fuzz([control.make()], seed, count, None, kinds, expected, goldens / "vectors", shrink_to,
                            id_suffix=f"-{control.name}", stop_at_divergence=True, with_vectors=control.has_vectors)
        out.append(ControlFuzz(fixed, fuzz))
        if on_result is not None:
            on_result(out[-1])
    return out


def format_control_fuzz(row: ControlFuzz) -> str:
    """One line: control, verdict on the committed scenarios, what fuzzing found."""
    caught = row.caught
    if row.fuzz is None:
        found = "-"
    elif caught is not None:
        found = f"CAUGHT in {caught.scene.id} at step {caught.cell.step} (scene {row.fuzz.scenes})"
        if caught.shrunk is not None:
            found += f", shrunk to {caught.shrunk.size()}"
    else:
        found = f"not caught in {row.fuzz.scenes} scenes"
    mark = "  <- add a scenario" if row.points_at_scenario() else ""
    return f"{row.fixed.control.name:<32} {row.fixed.status:<12} {found}{mark}"
