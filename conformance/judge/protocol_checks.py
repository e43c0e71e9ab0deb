"""The protocol row's checks of one scene (judge/protocol_row.py says what the row is for).

Contract: ``scene_checks(runner, main, between, empty)`` runs, on one runner, the checks that
depend on a scene and returns their ``Check`` records, listed run-steps, dumps, two-runs; it never
raises for a misbehaving runner.  Each ends PASS, DIVERGED (the port answered, and something
differs: its words name what), ERROR (a request failed as a scenario cell's would: a crash, a hang,
an error reply, a reply off its schema; a wrong number of states too, except in run-steps, where
that is what differs) or NOT_APPLICABLE (its words say why).  ``cell_of`` makes a row's ``Cell``
of any checks: PASS when every applicable one passes, else ERROR when one errs, else DIVERGED;
its ``brief`` is a headline naming the first failed check and what differed, then at most two
lines; its ``reason`` lists every check, the failed ones first.

Two-runs runs first: its first run, in a fresh process, is the port's own run of all of
``main``'s steps (``Probe.own``); run-steps then starts a fresh process of its own (an exec port's),
so that a leak shows in two-runs alone.  Run-steps and dumps compare with the golden and the reference
up to the state where that run leaves the golden; past it, run-steps compares with the port's own
run and the dumps are not compared (a divergence is its scenario cell's to report; this row
checks the protocol).  A port that answers ``main``'s step 1 with an error reply cannot step it
(``Probe.cannot_step``): its half run and its dumps are NOT_APPLICABLE, and two-runs runs
``empty``, a 0-step run of ``main``, ``empty``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..contract.clauses import Citation
from ..contract.scenario import Scene
from ..runners.base import DUMP_FIELDS, Refused, Runner, RunnerError, StateDump, WrongCount
from ..runners.exec_runner import ExecRunner
from ..runners.reference import ReferenceRunner
from .cell import DIVERGED, ERROR, PASS, Cell
from .protocol_finding import ProtocolFinding, Slip
from .state_difference import PREFERRED_FIELDS, first_state_difference, hex_bits

NOT_APPLICABLE = "not applicable"
ALL_FIELDS = tuple(range(len(DUMP_FIELDS)))
"""Position, velocity and preferred velocity, in the order a dump holds them."""
STATE_FIELDS = (0, 1, 2, 3)


@dataclass
class Check:
    """One check's verdict: ``words`` say what it did or what differed, ``detail`` the values."""

    name: str
    verdict: str
    words: str
    detail: str = ""
    clause: str | None = None
    found: bool = True
    """False when ``clause`` is the nearest one rather than the one broken."""
    compared: int = 0
    slip: Slip | None = None
    """The slip that misleads a scenario cell's diagnosis, when this check saw one (protocol_finding.py)."""

    def text(self) -> str:
        """``name: PASS: words``, or ``name: not applicable (why)``."""
        if self.verdict == NOT_APPLICABLE:
            return f"{self.name}: {NOT_APPLICABLE} ({self.words})"
        return f"{self.name}: {self.verdict}: {self.words}"


@dataclass(frozen=True)
class RowScene:
    """A scene the row runs, with its id and expected hashes (the golden's)."""

    id: str
    scene: Scene
    hashes: tuple[str, ...]


@dataclass
class Probe:
    """What the scene checks learn on the way: the port's own run of all the main scene's steps
    (the first run of two-runs, in a fresh process) and, when the port answers its step 1 with an
    error, that error (``cannot_step``)."""

    own: list[str] = field(default_factory=list)
    cannot_step: str = ""

    def agreeing(self, golden: tuple[str, ...]) -> int:
        """How many of the port's own first states are the golden's (all: the length of both)."""
        pairs = list(zip(self.own, golden))
        return next((k for k, (a, b) in enumerate(pairs) if a != b), len(pairs))


def scene_checks(runner: Runner, main: RowScene, between: RowScene, empty: RowScene | None = None) -> list[Check]:
    """The checks that depend on a scene, listed run-steps (``main``, and ``empty`` when given),
    dumps, two-runs (``main``, ``between``, ``main``).  Two-runs runs first: its first run, in a
    fresh process, is the port's own run of all of main's steps, which the other two read."""
    probe = Probe()
    two_runs = two_runs_check(runner, main, between, empty, probe)
    return [run_steps_check(runner, main, empty, probe), dumps_check(runner, main, probe), two_runs]


def cell_of(checks: list[Check], row: str, runner_id: str) -> Cell:
    """The row's cell from its checks: the status, the reason listing every check (the failed
    ones first: a report's truncated message shows them), the brief, led by the failed check that
    saw a slip (a leak also fails the later runs of run-steps: the leak is what to fix), else by
    the first failed one."""
    failed = [c for c in checks if c.verdict in (DIVERGED, ERROR)]
    status = ERROR if any(c.verdict == ERROR for c in failed) else DIVERGED if failed else PASS
    listed = failed + [c for c in checks if c not in failed]
    cell = Cell(row, runner_id, status, reason="; ".join(c.text() for c in listed),
                compared=sum(c.compared for c in checks))
    # a leak explains a dump that differs too (the dump's run starts from the leaked state): it leads
    slipped = min((c for c in failed if c.slip is not None), key=lambda c: c.slip is not Slip.LEAK, default=None)
    if slipped is not None:
        cell.finding = ProtocolFinding(slipped.slip, slipped.name, slipped.words)
    if not failed:
        return cell
    first = slipped if slipped is not None else failed[0]  # the slip that explains the other failures leads
    failed = [first] + [c for c in failed if c is not first]
    tally = "checks: " + ", ".join(f"{c.name} {c.verdict}" for c in checks)
    head = f"the {first.name} check failed: {first.words}"
    if first.clause is not None:
        cell.citation = Citation(first.clause, found=first.found)
        head += f" (breaks {first.clause})" if first.found else ""
    if len(failed) > 1:
        head += f"; {len(failed) - 1} more failed: {', '.join(c.name for c in failed[1:])}"
    cell.brief = [head] + ([first.detail] if first.detail else []) + ([tally] if not (first.detail and first.clause)
                                                                     else [])
    return cell


def reason_of(err: RunnerError) -> str:
    """A failed request's reason, with the last lines of the port's stderr when it left any."""
    tail = " | ".join(line for line in err.stderr_tail.strip().splitlines()[-3:] if line.strip())
    return err.reason + (f" | stderr: {tail[-300:]}" if tail else "")


def collect(runner: Runner, scene: Scene, steps: int) -> tuple[list[str], RunnerError | None]:
    """The hashes a run of ``steps`` gave, and the error that stopped it (None when it ended)."""
    got: list[str] = []
    stream = runner.hashes(scene, steps)
    try:
        for digest in stream:
            got.append(digest)
            if len(got) > steps + 1:
                break
    except RunnerError as err:
        return got, err
    finally:
        getattr(stream, "close", lambda: None)()
    return got, None


def prefix_problem(got: list[str], expected: tuple[str, ...], steps: int, whose: str = "the golden's") -> str:
    """What is wrong with a run of ``steps`` that gave ``got``: the count, or the first hash that
    is not the expected one (``whose``); empty when it is right."""
    if len(got) > steps + 1:
        return f"gave more than the {steps + 1} states asked for"
    if len(got) < steps + 1:
        return f"gave {len(got)} states, not the {steps + 1} asked for"
    for k, (want, have) in enumerate(zip(expected, got)):
        if want != have:
            return f"gave another hash of state {k} than {whose} ({want[:12]}... expected, {have[:12]}... got)"
    return ""


def _refused_step_one(got: list[str], err: RunnerError, expected: tuple[str, ...]) -> bool:
    """The port answered state 0 right, then its step 1 with an error reply that is no
    non-finite state: it cannot step the scene (its solver or driver is not written yet)."""
    return len(got) == 1 and got[0] == expected[0] and isinstance(err, Refused) and err.request == "run (step 1)"


def run_steps_check(runner: Runner, main: RowScene, empty: RowScene | None, probe: Probe) -> Check:
    """Runs of 0 and of half the steps of ``main`` (and of half of ``empty``): exactly steps + 1
    hashes, the golden's first ones, or, past the state where the port's own run of all of main's
    steps (``probe.own``) leaves the golden, that run's: the divergence is its scenario cell's to
    report, the row checks that the steps asked are the steps run.  The half run of ``main`` is
    not applicable when the port cannot step it (``probe.cannot_step``).  A fresh process for an
    exec port."""
    runs = [(main, 0), (main, main.scene.steps // 2)] + ([(empty, empty.scene.steps // 2)] if empty else [])
    agree, compared, said = probe.agreeing(main.hashes), 0, []
    _fresh(runner)  # what two-runs left in a leaky process is that check's to report
    for row_scene, steps in runs:
        what = f"a run of {steps} of the {row_scene.scene.steps} steps of {row_scene.id}"
        if row_scene is main and steps > 0 and probe.cannot_step:
            said.append(f"{what}: not applicable (step 1 got the error {probe.cannot_step!r})")
            continue
        got, err = collect(runner, row_scene.scene, steps)
        if isinstance(err, WrongCount):  # answered, with another count: what differs, not a crash
            return Check("run-steps", DIVERGED, f"{what}: {err.reason}", clause="hash.states", compared=compared)
        if err is not None:
            return Check("run-steps", ERROR, f"{what}: {reason_of(err)}", compared=compared)
        expected, whose = row_scene.hashes, "the golden's"
        if row_scene is main and agree <= steps < len(probe.own):
            expected, whose = tuple(probe.own), f"its own run of all {main.scene.steps} steps"
            what += (f" (compared with {whose}, which leaves the golden's at state {agree}: its scenario cell "
                     "reports that)")
        problem = prefix_problem(got, expected, steps, whose)
        if problem:
            return Check("run-steps", DIVERGED, f"{what} {problem}", clause="hash.states", compared=compared)
        compared += len(got)
        said.append(what)
    return Check("run-steps", PASS, "; ".join(said) + ": each exactly the states asked for", compared=compared)


def dump_steps(scene: Scene) -> list[int]:
    """The steps dumped: 0, 1, the middle and the last (those the scene has)."""
    return sorted({k for k in (0, 1, scene.steps // 2, scene.steps) if k <= scene.steps})


def _dump_words(reference: ReferenceRunner, scene: Scene, step: int, got: StateDump, state: bool) -> str:
    """What the dump holds instead, when it is the state (``state``) or the preferred velocities
    of the step before or after: "" when it is neither."""
    fields = STATE_FIELDS if state else (4, 5)
    for other in (step - 1, step + 1):
        if other < 0:
            continue
        near = reference.dump(scene, other)
        if first_state_difference(near, got, fields) is None:
            late = "late" if other > step else "early"
            return (f": it is the state of step {other} (one step {late})" if state else
                    f": they are the preferred velocities of step {other} (the {'next' if late == 'late' else 'previous'}"
                    " step's)")
    return ""


def dumps_check(runner: Runner, main: RowScene, probe: Probe) -> Check:
    """The dumps of ``dump_steps`` equal the reference's, field by field.  When the port's own run
    leaves the golden at state j (``probe.own``), only the dumps of steps before j are compared,
    and only their states: a preferred velocity that differs there is a driver bug, which the
    scenario cell's diagnosis names, not a dump that misreports."""
    if probe.cannot_step:
        return Check("dumps", NOT_APPLICABLE, f"the port answers step 1 of {main.id} with an error (run-steps), "
                     "and a dump needs the driver's preferred velocities")
    agree = probe.agreeing(main.hashes)
    steps = [k for k in dump_steps(main.scene) if k < agree]
    fields, left = ALL_FIELDS, [str(k) for k in dump_steps(main.scene) if k >= agree]
    unequal = (f"the port's states of {main.id} leave the golden's at state {agree} (its scenario cell says why), "
               "so its dumps from there cannot be the reference's")
    if not steps:
        return Check("dumps", NOT_APPLICABLE, unequal)
    if agree < len(main.hashes):
        fields, unequal = STATE_FIELDS, unequal + " and its preferred velocities are its scenario cell's to judge"
    reference, compared = ReferenceRunner(), 0
    for step in steps:
        what = f"the dump of step {step} of {main.id}"
        try:
            got = runner.dump(main.scene, step)
        except RunnerError as err:
            return Check("dumps", ERROR, f"{what}: {reason_of(err)}", compared=compared)
        want = reference.dump(main.scene, step)
        diff = first_state_difference(want, got, fields)
        if diff is not None and diff.agent < 0:
            return Check("dumps", DIVERGED, f"{what} has {diff.field}", clause="dump.preferred", found=False,
                         compared=compared, slip=Slip.DUMP)
        if diff is not None:
            preferred = diff.column in PREFERRED_FIELDS
            words = _dump_words(reference, main.scene, step, got, not preferred)
            return Check("dumps", DIVERGED, f"{what}: agent {diff.agent} {diff.field} is not the reference's{words}",
                         detail=f"{hex_bits(diff.expected)} expected, {hex_bits(diff.got)} got "
                         f"({diff.distance_text()})", clause="dump.preferred", found=preferred, compared=compared,
                         slip=Slip.DUMP)
        compared += len(got.agents) * len(fields)
    listed = ", ".join(map(str, steps))
    how = "field by field" if fields == ALL_FIELDS else "in positions and velocities"
    return Check("dumps", PASS, f"the dumps of steps {listed} of {main.id} equal the reference's, {how}"
                 + (f"; steps {', '.join(left)} not compared: {unequal}" if left else ""), compared=compared)


def _pid(runner: Runner) -> int | None:
    return runner.process_id() if isinstance(runner, ExecRunner) else None


def _fresh(runner: Runner) -> None:
    """A new process for an exec port's next request (nothing ran in it before)."""
    if isinstance(runner, ExecRunner):
        runner.close()


def two_runs_check(runner: Runner, main: RowScene, between: RowScene, empty: RowScene | None,
                   probe: Probe) -> Check:
    """``main`` (all its steps: ``probe.own``), ``between``, ``main`` again, in one fresh process,
    give identical hashes for ``main``.  A port that answers main's step 1 with an error cannot
    step it (``probe.cannot_step``): then ``empty``, a 0-step run of ``main``, ``empty``."""
    _fresh(runner)
    own, err = collect(runner, main.scene, main.scene.steps)
    probe.own = own
    if err is not None and empty is not None and _refused_step_one(own, err, main.hashes):
        probe.cannot_step = err.message[:160]
        _fresh(runner)
        return _same_twice(runner, (empty, empty.scene.steps), (main, 0), [], [])
    if err is not None:
        return Check("two-runs", ERROR, f"run 1 of 3 ({main.scene.steps} steps of {main.id}): {reason_of(err)}")
    return _same_twice(runner, (main, main.scene.steps), (between, between.scene.steps), [own], [_pid(runner)])


def _same_twice(runner: Runner, first: tuple[RowScene, int], other: tuple[RowScene, int], runs: list[list[str]],
                pids: list[int | None]) -> Check:
    """The runs of ``first``, ``other``, ``first`` not in ``runs`` yet, in the live process: the
    two of ``first`` identical, and one process (``pids``) throughout."""
    for n, (row_scene, steps) in enumerate((first, other, first)[len(runs):], len(runs) + 1):
        got, err = collect(runner, row_scene.scene, steps)
        if err is not None:
            return Check("two-runs", ERROR, f"run {n} of 3 ({steps} steps of {row_scene.id}): {reason_of(err)}")
        runs.append(got)
        pids.append(_pid(runner))
    scene_id, other_id = first[0].id, other[0].id
    if len(set(pids)) > 1 or (None in pids and isinstance(runner, ExecRunner)):
        return Check("two-runs", DIVERGED, f"the port's process ended between the runs of {scene_id}, {other_id} "
                     f"and {scene_id} (a fresh process answered the next one): a port exits only after bye "
                     "or at the end of its input")
    if runs[0] != runs[2]:
        k = next((k for k, (a, b) in enumerate(zip(runs[0], runs[2])) if a != b), min(len(runs[0]), len(runs[2])))
        return Check("two-runs", DIVERGED, f"the second run of {scene_id}, after a run of {other_id} in the same "
                     f"process, differs from the first at state {k}: state leaks from one run into the next",
                     detail=f"{runs[0][k][:16] if k < len(runs[0]) else '(none)'}... first, "
                     f"{runs[2][k][:16] if k < len(runs[2]) else '(none)'}... second", compared=len(runs[0]),
                     slip=Slip.LEAK)
    return Check("two-runs", PASS, f"{scene_id}, {other_id}, {scene_id} in one process: {scene_id} the same twice",
                 compared=len(runs[0]))
