"""One (scene, runner) cell of the fuzz: the runner's hashes against the expected ones.

Contract: ``compare`` streams the runner's state hashes for a fuzz scene and stops at the first
that differs from the expected list, at a surplus or a missing state, or at a ``RunnerError``;
the ``Cell`` it returns is PASS (with the states compared), DIVERGED (with the diagnosis of
``diagnosis.diagnose`` and the runner's first failing primitive from ``vector_failure``, like a
matrix cell) or ERROR (the runner's reason, diagnosed too when it names a non-finite state).
It never raises for a misbehaving runner.  ``with_protocol`` runs the protocol row's scene checks
(judge/protocol_row.py: runs of fewer steps, dumps, two runs in one process) on a scene that
passed: ``fuzz --protocol``.
"""

from __future__ import annotations

import time
from typing import Callable

from ..judge.diagnosis import diagnose
from ..judge.matrix import DIVERGED, ERROR, PASS, Cell
from ..judge.protocol_checks import RowScene, cell_of, scene_checks
from ..judge.protocol_row import row_scenes
from ..judge.vector_failure import VectorFailure
from ..runners.base import NonFinite, Runner, RunnerError
from .fuzz_scenes import FuzzScene


def compare(fs: FuzzScene, runner: Runner, expected: list[str], reference: Runner,
            vector_failure: Callable[[], VectorFailure | None]) -> Cell:
    """One (scene, runner) cell: stream the hashes, diagnose the first divergence like the matrix."""
    started = time.perf_counter()
    cell = Cell(fs.id, runner.id, PASS)
    reported = None
    stream = runner.hashes(fs.scene)
    try:
        for step, got in enumerate(stream):
            if step >= len(expected):
                cell.status, cell.reason = ERROR, f"returned more than the {len(expected)} states expected"
                break
            if got != expected[step]:
                cell.status, cell.step, reported = DIVERGED, step, got
                break
            cell.compared += 1
        else:
            if cell.compared != len(expected):
                cell.status, cell.reason = ERROR, f"returned {cell.compared} states, expected {len(expected)}"
    except RunnerError as err:
        tail = f" | stderr: {err.stderr_tail[-300:]}" if err.stderr_tail else ""
        cell.status, cell.reason = ERROR, err.reason + tail
        if isinstance(err, NonFinite) and err.step <= fs.scene.steps:
            cell.step = err.step
            what = err.what() or "agent not named"
    finally:
        getattr(stream, "close", lambda: None)()
    if cell.step is not None:
        try:
            cell.diagnosis = diagnose(fs.scene, cell.step, runner, reference, reported) if cell.status == DIVERGED \
                else diagnose(fs.scene, cell.step, runner, reference, non_finite=what)
        except RunnerError as err:
            cell.reason += f" | the diagnosis failed: {err.reason}"
        if cell.diagnosis is not None:
            failure = vector_failure()
            if failure is not None:
                cell.diagnosis.vector_family, cell.diagnosis.vector_case = failure
                cell.diagnosis.vector_detail = failure.detail
            cell.reason = cell.diagnosis.summary() if cell.status == DIVERGED else \
                cell.reason + f" | diagnosis: {cell.diagnosis.summary()}"
    cell.seconds = time.perf_counter() - started
    return cell


def protocol_between() -> RowScene:
    """The scene the two-runs check runs between two runs of a fuzz scene: the protocol row's own."""
    return row_scenes().between


def with_protocol(cell: Cell, fs: FuzzScene, runner: Runner, expected: list[str], between: RowScene) -> Cell:
    """A scene's cell after the protocol row's scene checks: ``cell`` itself (their states added
    to its count) when it was not PASS or they all pass, else their cell (DIVERGED or ERROR, with
    no step: its brief names the check that failed), the scene's states counted too."""
    if cell.status != PASS:
        return cell
    started = time.perf_counter()
    judged = cell_of(scene_checks(runner, RowScene(fs.id, fs.scene, tuple(expected)), between), fs.id, runner.id)
    judged.compared += cell.compared
    if judged.status == PASS:
        cell.compared = judged.compared
        judged = cell
    else:
        judged.reason = f"protocol checks: {judged.reason}"
    judged.seconds = cell.seconds + time.perf_counter() - started
    return judged
