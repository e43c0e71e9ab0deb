"""The protocol row: what a port answers that the scenario cells never ask of it.

A scenario cell asks one thing, a run of the scene's own steps in a process that ran other
scenes before; a dump is asked only after a divergence.  So a port that ignores a run's
``steps``, dumps one step late, dumps the previous step's preferred velocities, keeps state
from one run to the next or dies on a command it does not know passes every scenario cell
(or sends the diagnosis of a real divergence the wrong way).  This row asks each of those once.

Contract: ``protocol_cell(runner)`` runs the checks below on one runner and returns the
row's ``Cell`` (``protocol_checks.cell_of``: PASS when every applicable check passes, else ERROR
when one errs, else DIVERGED, the brief naming the first failed check); it never raises for a
misbehaving runner.  The scene checks are protocol_checks.py's; the scenes are the row's own
(protocol_scenes.py), not the suite's files, and the hashes they are compared with the
reference's, which are their committed goldens.

- ``hello`` (exec ports): in a process of its own, a hello of protocol 0 (no suite speaks it) gets
  an error reply, and the handshake every process gets follows its schema (protocol 2 or 1, a
  port name, known ``provides``).
- ``run-steps``: runs of 0 and of half the steps of MAIN_SCENE, and of half the steps of
  EMPTY_SCENE, give exactly steps + 1 hashes, the reference's (the golden's) first ones (clause ``hash.states``;
  past the state where the port's own run of all the steps leaves the golden, that run's).
- ``dumps``: the dumps of steps 0, 1, the middle and the last of MAIN_SCENE equal the
  reference's, field by field (position, velocity, preferred velocity); a difference names the
  step, the agent and the field, and says when the dump is the state or the preferred
  velocities of the step before or after (clause ``dump.preferred``).
- ``two-runs``: MAIN_SCENE, then BETWEEN_SCENE, then MAIN_SCENE again, each whole, in one process
  (a fresh one, for an exec port) give identical hashes: nothing leaks from one run into the next.
- ``unknown-command`` (exec ports): a request of an unknown ``cmd`` gets an error reply, and the
  same process then answers a run of EMPTY_SCENE.

A port that answers step 1 of MAIN_SCENE with an error reply (the skeleton, whose preferred
velocity is not written yet) cannot step it: its scenario cells are ERROR already, its half run
and its dumps are not applicable, and its two-runs check runs EMPTY_SCENE twice with a 0-step run
of MAIN_SCENE between.  A port whose own run of MAIN_SCENE leaves the golden is compared with
itself past that state (protocol_checks.py): the row checks the protocol, the scenario cell the
solver.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..runners.base import Runner, RunnerError
from ..runners.exec_runner import ExecRunner
from .cell import DIVERGED, ERROR, PASS, Cell
from .protocol_checks import NOT_APPLICABLE, Check, RowScene, cell_of, collect, prefix_problem, reason_of, scene_checks
from .protocol_scenes import BETWEEN_SCENE, EMPTY_SCENE, MAIN_SCENE, row_scene

PROTOCOL_ROW = "protocol"
UNSPOKEN_PROTOCOL = 0
UNKNOWN_COMMAND = {"cmd": "orca-conformance-unknown-command"}
IN_PROCESS = "in-process"
"""Why the hello and unknown-command checks do not apply to a column that runs in the harness's process."""

__all__ = ["BETWEEN_SCENE", "EMPTY_SCENE", "MAIN_SCENE", "PROTOCOL_ROW", "RowScenes", "protocol_cell", "row_scenes"]


@dataclass(frozen=True)
class RowScenes:
    """The row's three scenes: MAIN_SCENE, BETWEEN_SCENE, EMPTY_SCENE."""

    main: RowScene
    between: RowScene
    empty: RowScene


def row_scenes() -> RowScenes:
    """The row's own scenes (``protocol_scenes``: held in the package, hashed by the reference),
    never the suite's files, so that no scenario file the run does not ask for can break the row."""
    return RowScenes(row_scene(MAIN_SCENE), row_scene(BETWEEN_SCENE), row_scene(EMPTY_SCENE))


def protocol_cell(runner: Runner) -> Cell:
    """The protocol row of one runner (the module doc); never raises for a misbehaving runner."""
    started = time.perf_counter()
    scenes = row_scenes()
    exec_port = isinstance(runner, ExecRunner)
    checks = [hello_check(runner) if exec_port else Check("hello", NOT_APPLICABLE, IN_PROCESS)]
    checks += scene_checks(runner, scenes.main, scenes.between, scenes.empty)
    checks.append(unknown_command_check(runner, scenes.empty) if exec_port
                  else Check("unknown-command", NOT_APPLICABLE, IN_PROCESS))
    cell = cell_of(checks, PROTOCOL_ROW, runner.id)
    cell.seconds = time.perf_counter() - started
    return cell


def hello_check(runner: ExecRunner) -> Check:
    """A hello of a protocol no suite speaks gets an error; the handshake follows its schema."""
    try:
        first, hello = runner.probe_hello(UNSPOKEN_PROTOCOL)
    except RunnerError as err:
        return Check("hello", ERROR, f"in a process of its own: {reason_of(err)}")
    if "error" not in first:
        return Check("hello", DIVERGED, f"a hello of protocol {UNSPOKEN_PROTOCOL} (no suite speaks it) got a "
                     f"protocol-{first['protocol']} reply, not an error (docs/protocol.md#hello)")
    name = hello["port"]["name"].strip()
    if not name:
        return Check("hello", DIVERGED, "the hello reply's port name is empty (docs/protocol.md#hello)")
    provides = hello.get("provides")
    families = "every family" if provides is None else f"{len(provides)} families"
    return Check("hello", PASS, f"protocol {UNSPOKEN_PROTOCOL} refused, protocol {hello['protocol']} answered by "
                 f"{name[:60]!r} ({families})")


def unknown_command_check(runner: ExecRunner, empty: RowScene) -> Check:
    """An unknown command gets an error reply; the same process then answers a run of ``empty``
    (which any port can step, and which no slip of the other checks changes)."""
    what = f"the unknown command {UNKNOWN_COMMAND['cmd']!r}"
    steps = empty.scene.steps
    try:
        reply = runner.exchange(UNKNOWN_COMMAND, "an unknown command")
        pid = runner.process_id()
        got, err = collect(runner, empty.scene, steps)
    except RunnerError as failed:
        return Check("unknown-command", ERROR, f"{what}: {reason_of(failed)}")
    if err is not None:
        return Check("unknown-command", ERROR, f"a run of {empty.id} after {what}: {reason_of(err)}")
    if pid is None or runner.process_id() != pid:
        return Check("unknown-command", DIVERGED, f"the port's process ended after answering {what} (a fresh "
                     "process answered the next run)")
    problem = prefix_problem(got, empty.hashes, steps)
    if problem:
        return Check("unknown-command", DIVERGED, f"a run of {empty.id} after {what} {problem}")
    return Check("unknown-command", PASS, f"{what} got an error reply ({str(reply['error'])[:80]!r}); the same "
                 f"process then answered a run of {empty.id}", compared=len(got))
