"""One (scene, runner) cell of the fuzz: the runner's hashes against the expected ones.

Contract: ``compare`` is the matrix's cell of a fuzz scene (``judge.cell_engine.judge_stream``:
PASS, DIVERGED with its diagnosis and the runner's first failing primitive from
``vector_failure``, or ERROR, diagnosed at its failing step where the matrix would); it never
raises for a misbehaving runner.  ``with_protocol`` runs the protocol row's scene checks
(judge/protocol_row.py: runs of fewer steps, dumps, two runs in one process) on a scene that
passed: ``fuzz --protocol``.
"""

from __future__ import annotations

import time
from typing import Callable

from ...judge.cell_engine import judge_stream
from ...judge.matrix import PASS, Cell
from ...judge.protocol_checks import RowScene, cell_of, scene_checks
from ...judge.protocol_finding import ProtocolFinding
from ...judge.protocol_row import protocol_cell, row_scenes
from ...judge.vector_failure import VectorFailure
from ...runners.base import Runner
from .scenes import FuzzScene


def compare(fs: FuzzScene, runner: Runner, expected: list[str], reference: Runner,
            vector_failure: Callable[[], VectorFailure | None],
            protocol: Callable[[], ProtocolFinding | None] | None = None) -> Cell:
    """One (scene, runner) cell, through the matrix's own cell engine (``judge_stream``): the
    same verdict, diagnosis and words as a matrix cell of the same port and scene (``protocol``:
    the runner's protocol finding, asked when a diagnosis is made, as the matrix's row before)."""
    return judge_stream(fs.id, fs.scene, expected, runner, reference, vector_failure, protocol=protocol)


def protocol_findings() -> Callable[[Runner], Callable[[], ProtocolFinding | None]]:
    """Per runner, a lazy lookup of what its protocol row finds (``protocol_cell``), run at most
    once per fuzz run, and only when one of its cells is diagnosed."""
    found: dict[str, ProtocolFinding | None] = {}

    def finding(runner: Runner) -> Callable[[], ProtocolFinding | None]:
        def get() -> ProtocolFinding | None:
            if runner.id not in found:
                found[runner.id] = protocol_cell(runner).finding
            return found[runner.id]
        return get
    return finding


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
