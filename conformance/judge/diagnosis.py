"""Divergence localization: from "hash differs at step k" to agent, field, bits and the true cause.

Contract: ``diagnose(scene, step, runner, reference, reported_hash)`` compares the runner's dump
with the reference's at the first divergent step ``k`` and names the first agent and field that
differ (both values as hex bits, their ULP distance).  Then it names the cause, in this order:

* the dumps are bit-equal: the **state hash encoding** is wrong; the canonical hash of the dump
  is recomputed, and the usual wrong encodings (big-endian doubles, another field order, -0.0
  written as +0.0, positions only, one field after the other) are tried against the hash the
  port reported, to say which one it used;
* ``k == 0``: the initial state differs, the scene was not loaded exactly;
* the preferred velocities computed from the (equal) state ``k - 1`` differ: **driver bug**;
* every new velocity of step ``k`` is equal, a position is not: the **position update**
  ``p = p + v*dt`` (moving with the old velocity is recognised);
* otherwise the port's ``agent_step`` primitive is asked for the divergent agent with the
  reference's state ``k - 1``: a different **constraint list** is named by its first differing
  constraint (obstacle or agent neighbour, which value) and, when one reproduces it, the
  misreading behind it (swapped horizons, a reach without the radius, ...); an equal list with a
  different velocity is the **linear program or fallback**; an equal list and velocity while the
  port's step differs is the **step composition** (an in-place, sequential update is
  recognised); a port without the primitive gets the plain "solver bug" and a note.

``diagnose`` also serves a run that stopped on a non-finite state (``non_finite``, the step is
the first bad one): the bad step's dump is used when the port can give it, else the last good
step alone.  ``describe_case`` names a failing primitive case with
its decoded arguments, expected and actual results.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import re
import struct
from dataclasses import dataclass, field
from typing import Iterator, Sequence

from ..data import vectors
from ..contract.float_bits import bits, ulp_distance
from ..runners.base import DUMP_FIELDS, Runner, RunnerError, StateDump
from ..contract.scenario import Scene
from ..contract.state_hash import FIELDS as HASH_FIELDS
from ..contract.state_hash import NonFiniteState, canonical_bytes, state_hash


def hex_bits(value: float) -> str:
    return f"0x{bits(value):016X}"


@dataclass
class Difference:
    """One differing value of a dump."""

    agent: int
    field: str
    expected: float
    got: float

    @property
    def ulps(self) -> int | None:
        return ulp_distance(self.expected, self.got)

    def distance_text(self) -> str:
        ulps = self.ulps
        if ulps is None:
            return "NaN involved"
        if ulps == 0:
            return "zeros of opposite sign"
        return f"{ulps} ulp"

    def describe(self) -> str:
        distance = self.distance_text()
        return (f"agent {self.agent} {self.field}: expected {hex_bits(self.expected)} ({self.expected!r}), "
                f"got {hex_bits(self.got)} ({self.got!r}), {distance}")


STATE_FIELDS = (2, 3, 0, 1)
"""Velocity before position: the velocity of a step is computed first and moves the position."""
PREFERRED_FIELDS = (4, 5)
VELOCITY_FIELDS = (2, 3)
POSITION_FIELDS = (0, 1)


def first_difference(expected: StateDump, got: StateDump, fields: tuple[int, ...] = STATE_FIELDS) -> Difference | None:
    """First agent (then field, in the given order) whose bits differ, or None."""
    if len(expected.agents) != len(got.agents):
        return Difference(-1, f"agent count {len(got.agents)} vs {len(expected.agents)}", 0.0, 0.0)
    for i, (row_e, row_g) in enumerate(zip(expected.agents, got.agents)):
        for f in fields:
            if bits(row_e[f]) != bits(row_g[f]):
                return Difference(i, DUMP_FIELDS[f], row_e[f], row_g[f])
    return None


# Causes, as ``Diagnosis.kind`` (the cause text says the same in words).
ENCODING, LOAD, DRIVER, POSITION_UPDATE = "hash-encoding", "load", "driver", "position-update"
CONSTRAINTS, VELOCITY, COMPOSITION, SOLVER = "constraints", "velocity", "composition", "solver"


@dataclass
class ConstraintDifference:
    """The first difference between the port's and the reference's ``agent_step`` of one agent."""

    agent: int
    index: int | None
    """Index of the first differing constraint in the list; None when only the velocity differs."""
    neighbour: str = ""
    """"obstacle: segment s" or "agent neighbour j" (the reference's, else the port's)."""
    field: str = ""
    """P.x, P.y, N.x, N.y, "missing", "extra", velocity.x or velocity.y ("step result" for a
    composition: the list and velocity agree, the port's step does not)."""
    expected: str = ""
    got: str = ""
    reading: str = ""
    """The misreading of the constraint assembly that reproduces the port's list, if one does."""
    primitive: str = ""
    """What the port's own constraint primitive answers for this constraint's inputs, if asked."""

    def describe(self) -> str:
        if self.index is None:
            return f"{self.field}: expected {self.expected}, got {self.got}"
        what = f"constraint {self.index} ({self.neighbour})" if self.neighbour else f"constraint {self.index}"
        if self.field in ("missing", "extra"):
            return f"{what} is {self.field} in the port's list ({self.got})"
        return f"{what} differs in {self.field}: expected {self.expected}, got {self.got}"


@dataclass
class Diagnosis:
    """What a diverged (or non-finite) cell reports."""

    step: int
    state: Difference | None = None
    cause: str = ""
    kind: str = ""
    """The cause as a key: hash-encoding, load, driver, position-update, constraints, velocity,
    composition, solver (or empty when nothing could be said)."""
    preferred: Difference | None = None
    constraint: ConstraintDifference | None = None
    encoding: str = ""
    """The wrong hash encoding that reproduces the port's hash (kind hash-encoding)."""
    non_finite: str = ""
    """"agent i field is value" when the run stopped on a NaN or an infinity."""
    vector_family: str | None = None
    vector_case: int | None = None
    vector_detail: str = ""
    """The failing case's decoded arguments, expected and actual results."""
    notes: list[str] = field(default_factory=list)
    picture: dict | None = None
    """The neighbourhood of the divergent agent at the divergent step, for the HTML report."""

    def summary(self) -> str:
        parts = [f"step {self.step}"]
        if self.non_finite:
            parts.append(f"non-finite: {self.non_finite}")
        if self.state is not None:
            d = self.state
            parts.append(f"agent {d.agent}, {d.field}, {hex_bits(d.expected)} vs {hex_bits(d.got)}, "
                         f"{d.distance_text()}")
        if self.cause:
            parts.append(self.cause)
        if self.vector_family:
            case = f"first failing primitive: {self.vector_family} (case {self.vector_case})"
            parts.append(case + (f": {self.vector_detail}" if self.vector_detail else ""))
        return "; ".join(parts)

    def informative(self) -> bool:
        """Whether it says more than the step (worth attaching to an ERROR cell's reason)."""
        return bool(self.cause or self.state is not None or self.non_finite)

    def to_json(self) -> dict:
        def diff(d: Difference | None):
            if d is None:
                return None
            return {"agent": d.agent, "field": d.field, "expected": hex_bits(d.expected), "got": hex_bits(d.got),
                    "expected_value": repr(d.expected), "got_value": repr(d.got), "ulps": d.ulps}
        constraint = None
        if self.constraint is not None:
            c = self.constraint
            constraint = {"agent": c.agent, "index": c.index, "neighbour": c.neighbour, "field": c.field,
                          "expected": c.expected, "got": c.got, "reading": c.reading}
        return {"step": self.step, "state": diff(self.state), "cause": self.cause, "kind": self.kind,
                "preferred": diff(self.preferred), "constraint": constraint, "encoding": self.encoding,
                "non_finite": self.non_finite, "vector_family": self.vector_family, "vector_case": self.vector_case,
                "vector_detail": self.vector_detail, "notes": list(self.notes), "summary": self.summary(),
                "picture": self.picture}


NON_FINITE = re.compile(r"non-finite state at step (\d+)(?::? ?\(?agent (\d+),? ([a-z]+\.[xy]))?")
"""The protocol's error for a NaN or an infinity, with the agent and field when the port names them."""


def parse_non_finite(reason: str) -> tuple[int, int | None, str] | None:
    """(step, agent or None, field or "") of a non-finite error message, or None."""
    match = NON_FINITE.search(reason)
    if match is None:
        return None
    agent = int(match.group(2)) if match.group(2) is not None else None
    return int(match.group(1)), agent, match.group(3) or ""


def _dump(runner: Runner, scene: Scene, step: int, result: Diagnosis, who: str) -> StateDump | None:
    """A dump, or None with a note naming what failed."""
    try:
        return runner.dump(scene, step)
    except RunnerError as err:
        result.notes.append(f"dump of step {step} by the {who} failed: {err.reason}")
        return None


def diagnose(scene: Scene, step: int, runner: Runner, reference: Runner, reported_hash: str | None = None,
             non_finite: str = "") -> Diagnosis:
    """Localize a divergence first seen in the hash of state ``step`` (``reported_hash`` is the
    port's hash of that state, when it sent one), or a run that stopped there on a non-finite
    state (``non_finite`` as "agent i field is value", or "" when the port did not say)."""
    result = Diagnosis(step, non_finite=non_finite)
    got = _dump(runner, scene, step, result, "port")
    expected = _dump(reference, scene, step, result, "reference")
    if got is not None and expected is not None:
        result.state = first_difference(expected, got)
        if result.state is not None and result.state.agent >= 0 and _finite(got):
            result.picture = neighbourhood(scene, result.state.agent, expected, got)
        if result.state is None and reported_hash is not None:
            _encoding_cause(result, got, reported_hash)
            return result
        if result.state is None:
            result.notes.append(f"the port's dump of step {step} equals the reference's bit for bit")
            return result
        if result.state.agent < 0:
            result.kind = LOAD
            result.cause = f"the port's dump of step {step} has {len(got.agents)} agents, the scene {len(expected.agents)}"
            return result
        _check_consistency(result, got, reported_hash)
    elif expected is None:
        return result
    if step == 0:
        if result.state is not None:
            result.kind = LOAD
            result.cause = "the initial state differs: the scene was not loaded exactly"
        return result
    got_prev = _dump(runner, scene, step - 1, result, "port")
    expected_prev = _dump(reference, scene, step - 1, result, "reference")
    if got_prev is None or expected_prev is None:
        return result
    _step_cause(result, scene, runner, expected, got, expected_prev, got_prev)
    return result


def first_failing_dump(runner: Runner, scene: Scene, low: int, high: int) -> int | None:
    """The first step in low..high whose dump the port cannot give (it fails there, as its run
    did), by bisection; None when it dumps ``high``, or cannot dump ``low - 1`` (its last good
    step) either."""
    def fails(step: int) -> bool:
        try:
            runner.dump(scene, step)
        except RunnerError:
            return True
        return False

    if low > high or (low > 0 and fails(low - 1)) or not fails(high):
        return None
    while low < high:
        middle = (low + high) // 2
        if fails(middle):
            high = middle
        else:
            low = middle + 1
    return low


def _finite(state: StateDump) -> bool:
    """Whether every position and velocity of a dump is finite (pictures and JSON need that)."""
    return all(math.isfinite(v) for row in state.agents for v in row[:4])


def _check_consistency(result: Diagnosis, got: StateDump, reported_hash: str | None) -> None:
    """Note a port whose reported hash is not the canonical hash of its own dump."""
    if reported_hash is None:
        return
    own = _canonical_hash(got.agents)
    if own is not None and own != reported_hash:
        result.notes.append(f"the port's hash of step {result.step} ({reported_hash[:16]}...) is not the canonical "
                            f"hash of its own dump ({own[:16]}...): its state hash encoding is wrong too, or its "
                            "run and its dump compute different states")


def _step_cause(result: Diagnosis, scene: Scene, runner: Runner, expected: StateDump | None,
                got: StateDump | None, expected_prev: StateDump, got_prev: StateDump) -> None:
    """The cause of a divergence at step k > 0, from the dumps of k (when there are) and k - 1."""
    k = result.step
    before = first_difference(expected_prev, got_prev)
    if before is not None:
        result.notes.append(f"the dump of step {k - 1} already differs ({before.describe()}) although its "
                            "hash matched: the port's hash or dump is inconsistent")
    result.preferred = first_difference(expected_prev, got_prev, PREFERRED_FIELDS)
    if result.preferred is not None:
        result.kind = DRIVER
        result.cause = (f"driver bug: the preferred velocities computed from step {k - 1} already differ "
                        f"({result.preferred.describe()})")
        return
    if expected is not None and got is not None:
        if first_difference(expected, got, VELOCITY_FIELDS) is None:
            _position_cause(result, scene, expected_prev, got)
            return
        agent = first_difference(expected, got, VELOCITY_FIELDS).agent
    else:
        agent = _agent_of(result.non_finite)
    if agent is None or agent < 0:
        result.kind = SOLVER
        result.cause = (f"the port's step {k} failed before giving a state to compare, from the reference's state "
                        f"and preferred velocities of step {k - 1}: the failure is in its step, not in the state it "
                        "started from")
        return
    _solver_cause(result, scene, runner, agent, expected_prev, got)


def _agent_of(non_finite: str) -> int | None:
    match = re.match(r"agent (\d+)", non_finite)
    return int(match.group(1)) if match else None


# ----------------------------------------------------------------------------- hash encoding

def _canonical_hash(rows: Sequence[Sequence[float]]) -> str | None:
    """Canonical hash of a dump's px, py, vx, vy (None when a value is not finite)."""
    try:
        data = canonical_bytes([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], [r[3] for r in rows])
    except NonFiniteState:
        return None
    return state_hash(data)


def _layouts(rows: Sequence[Sequence[float]]) -> Iterator[tuple[str, list[float]]]:
    """(description, values in writing order) of the field layouts a port may use by mistake, the
    likelier first (velocity before position, per axis, y before x)."""
    plausible = [(2, 3, 0, 1), (0, 2, 1, 3), (1, 0, 3, 2), (2, 0, 3, 1)]
    for order in [(0, 1, 2, 3)] + plausible + [o for o in itertools.permutations(range(4))
                                              if o not in plausible and o != (0, 1, 2, 3)]:
        what = "" if order == (0, 1, 2, 3) else "the fields in the order " + ", ".join(HASH_FIELDS[f] for f in order)
        yield what, [row[f] for row in rows for f in order]
    yield "positions only", [row[f] for row in rows for f in (0, 1)]
    yield ("every agent's position, then every agent's velocity",
           [row[f] for f in (0, 1) for row in rows] + [row[f] for f in (2, 3) for row in rows])
    yield "one field after the other (all position.x, then all position.y, ...)", [row[f] for f in range(4) for row in rows]


def wrong_encodings(rows: Sequence[Sequence[float]]) -> Iterator[tuple[str, str]]:
    """(description, hash) of every plausible wrong encoding of a state: the layouts above, each
    little- and big-endian, with -0.0 kept and (when the state has one) written as +0.0."""
    has_negative_zero = any(v == 0.0 and bits(v) >> 63 for row in rows for v in row[:4])
    for layout, values in _layouts(rows):
        for zero in ((False, True) if has_negative_zero else (False,)):
            data = [0.0 if zero and v == 0.0 else v for v in values]
            for order in ("<", ">"):
                parts = [p for p in ("big-endian doubles" if order == ">" else "", layout,
                                     "-0.0 written as +0.0" if zero else "") if p]
                if parts:
                    yield ", ".join(parts), hashlib.sha256(struct.pack(f"{order}{len(data)}d", *data)).hexdigest()


def _encoding_cause(result: Diagnosis, got: StateDump, reported_hash: str) -> None:
    """The dumps are bit-equal although the hashes differ: say which encoding the port used."""
    result.kind = ENCODING
    k = result.step
    canonical = _canonical_hash(got.agents)
    if canonical is None:
        result.cause = (f"the state hash encoding is wrong: the dumped state of step {k} equals the reference's "
                        "bit for bit, but the hashes differ")
        return
    text = (f"the state hash encoding is wrong: the dumped state of step {k} equals the reference's bit for bit "
            f"and its canonical hash is {canonical[:16]}..., but the port reported {reported_hash[:16]}...")
    matches = [description for description, digest in wrong_encodings(got.agents) if digest == reported_hash]
    if matches:
        result.encoding = matches[0]
        result.cause = f"{text}; that is the hash of the state written with {matches[0]}"
        if len(matches) > 1:
            result.cause += f" (or {len(matches) - 1} other layouts that give the same bytes for this state)"
        return
    result.cause = (f"{text}; no usual mistake (byte order, field order, signed zero, positions only) reproduces "
                    "it, or the port's run and dump compute different states (docs/porting.md section 3)")


# ----------------------------------------------------------------------------- position update

def _position_cause(result: Diagnosis, scene: Scene, expected_prev: StateDump, got: StateDump) -> None:
    """Every new velocity is equal, a position is not: the update p = p + v*dt is wrong."""
    k = result.step
    diff = first_difference(_expected_positions(expected_prev, got, scene.dt), got, POSITION_FIELDS)
    result.kind = POSITION_UPDATE
    result.cause = (f"position update (p = p + v*dt) is wrong: same state and preferred velocities at step {k - 1} "
                    f"and every new velocity of step {k} equals the reference's, but the positions differ")
    if diff is None:
        return
    i = diff.agent
    prev = expected_prev.agents[i]
    f = 0 if diff.field.endswith(".x") else 1
    if bits(diff.got) == bits(prev[f] + prev[2 + f] * scene.dt):
        result.cause += (f" (agent {i}: it equals p + v*dt with the velocity of step {k - 1}: the port moved with "
                         "the old velocity, before storing the new one)")
    elif bits(diff.got) == bits(prev[f]):
        result.cause += f" (agent {i}: the position was not updated)"


def _expected_positions(expected_prev: StateDump, got: StateDump, dt: float) -> StateDump:
    """The positions p + v*dt of the port's new velocities from the reference's step k - 1."""
    rows = [(p[0] + g[2] * dt, p[1] + g[3] * dt, g[2], g[3], g[4], g[5])
            for p, g in zip(expected_prev.agents, got.agents)]
    return StateDump(got.step, tuple(rows))


# ----------------------------------------------------------------------------- agent_step

@dataclass(frozen=True)
class StepResult:
    """One agent's agent_step: constraint list, hard count, new velocity."""

    lines: tuple[tuple[float, float, float, float], ...]
    hard: int
    vx: float
    vy: float


def agent_step_args(scene: Scene, state: StateDump, agent: int) -> list:
    """The agent_step arguments (decoded) of one agent of a scene in a dumped state."""
    rows, agents = state.agents, scene.agents
    return [agent, *[[r[f] for r in rows] for f in range(6)],
            [a.params.radius for a in agents], [a.params.max_speed for a in agents],
            [a.params.neighbor_distance for a in agents], [a.params.max_neighbors for a in agents],
            [a.params.time_horizon for a in agents], [a.params.time_horizon_obst for a in agents],
            list(scene.segments), scene.dt]


def _step_result(values: Sequence) -> StepResult:
    lines, hard, vx, vy = values
    return StepResult(tuple(tuple(line) for line in lines), int(hard), vx, vy)


def _runner_agent_step(runner: Runner, args: list) -> StepResult:
    """The port's agent_step; RunnerError (reason) when it fails or answers nonsense."""
    family = vectors.FAMILY_BY_NAME["agent_step"]
    encoded = [vectors.encode(c, v) for c, v in zip(family.args, args)]
    results = runner.vectors("agent_step", [encoded])
    try:
        return _step_result([vectors.decode(c, v) for c, v in zip(family.result, results[0])])
    except (TypeError, ValueError, IndexError) as err:
        raise RunnerError(f"malformed agent_step result: {err}") from None


def _constraints(step: StepResult) -> str:
    """"3 constraints (1 from obstacles)"."""
    return f"{len(step.lines)} constraint{'' if len(step.lines) == 1 else 's'} ({step.hard} from obstacles)"


def _hex_value(value: float) -> str:
    return f"{hex_bits(value)} ({value!r})"


def _solver_cause(result: Diagnosis, scene: Scene, runner: Runner, agent: int, expected_prev: StateDump,
                  got: StateDump | None) -> None:
    """Ask the port's agent_step for the divergent agent from the reference's state k - 1."""
    k = result.step
    plain = f"solver bug: same state and preferred velocities at step {k - 1}, different new velocities"
    args = agent_step_args(scene, expected_prev, agent)
    reference = _step_result(vectors.FAMILY_BY_NAME["agent_step"].reference(*args))
    try:
        port = _runner_agent_step(runner, args)
    except RunnerError as err:
        result.kind, result.cause = SOLVER, plain
        result.notes.append(f"the port's agent_step primitive failed ({err.reason[:200]}), so its constraint "
                            "assembly and programs could not be told from the composition of its step")
        return
    difference = compare_steps(scene, expected_prev, agent, reference, port)
    where = f"from the reference's state of step {k - 1} (same state and preferred velocities)"
    if difference is not None and difference.index is not None:
        result.kind, result.constraint = CONSTRAINTS, difference
        if not difference.reading:
            _ask_primitive(difference, scene, expected_prev, runner)
        if difference.reading:
            reading = f"; {difference.reading} reproduces the port's list"
        elif difference.primitive:
            reading = f"; {difference.primitive}"
        else:
            reading = ("; where the primitives it is built from pass their vectors, suspect what is fed to them: "
                       "a horizon or parameter mix-up (time_horizon against agents, time_horizon_obst against "
                       "segments and in the reach, the radius sum), the neighbour selection or its order")
        result.cause = (f"solver bug in the constraint list of agent {agent}: {where}, the port's agent_step gives "
                        f"{_constraints(port)}, the reference {_constraints(reference)}; "
                        f"{difference.describe()}{reading}")
    elif difference is not None:
        result.kind, result.constraint = VELOCITY, difference
        result.cause = (f"solver bug in the linear program or its fallback: {where}, the port's agent_step gives "
                        f"agent {agent} the reference's {_constraints(reference)} but another new velocity "
                        f"({difference.describe()})")
    else:
        _composition_cause(result, scene, agent, reference, expected_prev, got)


def _ask_primitive(difference: ConstraintDifference, scene: Scene, state: StateDump, runner: Runner) -> None:
    """Ask the port's own agent_constraint or segment_constraint primitive for the differing
    constraint, with the inputs the reference's step gives it: if it answers the port's plane,
    the primitive is wrong for these inputs; if it answers the reference's plane, what the
    port's step feeds it differs.  Says nothing when the port cannot answer."""
    if difference.field not in PLANE_FIELDS:
        return
    sim = _simulator(scene, state)
    i, prm = difference.agent, sim.params[difference.agent]
    x, y = sim.px[i], sim.py[i]
    if difference.neighbour.startswith("agent neighbour "):
        j = int(difference.neighbour.rsplit(" ", 1)[1])
        family = "agent_constraint"
        args = [sim.px[j] - x, sim.py[j] - y, prm.radius + sim.params[j].radius, prm.time_horizon, scene.dt,
                sim.vx[i], sim.vy[i], sim.vx[j], sim.vy[j]]
    elif difference.neighbour.startswith("obstacle: segment "):
        ax, ay, bx, by = sim.segments[int(difference.neighbour.rsplit(" ", 1)[1])]
        family = "segment_constraint"
        args = [ax - x, ay - y, bx - x, by - y, prm.radius, prm.time_horizon_obst, scene.dt]
    else:
        return
    fam = vectors.FAMILY_BY_NAME[family]
    try:
        answer = runner.vectors(family, [[vectors.encode(c, v) for c, v in zip(fam.args, args)]])
        plane = [vectors.decode(c, v) for c, v in zip(fam.result, answer[0])]
    except (RunnerError, LookupError, TypeError, ValueError):
        return
    expected = fam.reference(*args)
    shown = ", ".join(f"{name}={_hex_value(v)}" for name, v in zip(("ax", "ay", "r" if family == "agent_constraint"
                                                                     else "bx"), args[:3]))
    if [bits(v) for v in plane] == [bits(v) for v in expected]:
        difference.primitive = (f"the port's {family} primitive gives the reference's plane for the inputs the "
                                "reference's step feeds it, so the port's step feeds it something else: a horizon "
                                "or parameter mix-up, the relative position or velocities, the neighbour order")
    else:
        difference.primitive = (f"the port's own {family} primitive gives a wrong plane for the inputs of this "
                                f"constraint ({shown}, ...): the primitive is wrong, not what is fed to it")


def _composition_cause(result: Diagnosis, scene: Scene, agent: int, reference: StepResult,
                       expected_prev: StateDump, got: StateDump | None) -> None:
    """agent_step agrees with the reference, the port's step does not: the composition is wrong."""
    k = result.step
    result.kind = COMPOSITION
    result.constraint = ConstraintDifference(agent, None, field="step result")
    result.cause = (f"step composition is wrong: from the reference's state of step {k - 1} the port's agent_step "
                    f"gives agent {agent} the reference's {_constraints(reference)} and new velocity, but "
                    f"its step gives agent {agent} another velocity: the step does not compose them as the text "
                    "does (agents updated in place, one after the other, instead of every new velocity from the "
                    "start-of-step state; or another time step, preferred velocity or parameter fed to the step)")
    if got is not None and _sequential_reproduces(scene, expected_prev, got, agent):
        result.cause += f"; an in-place sequential update reproduces the port's velocity of agent {agent}"


def _sequential_reproduces(scene: Scene, expected_prev: StateDump, got: StateDump, agent: int) -> bool:
    """Whether updating agents one after the other, in place, gives the port's velocity of ``agent``."""
    from ..solver.neighbors import AgentGrid
    sim = _simulator(scene, expected_prev)
    widest = max((a.params.neighbor_distance for a in scene.agents), default=0.0)
    grid = AgentGrid(list(sim.px), list(sim.py), widest)
    dt = scene.dt
    for i in range(agent + 1):
        vx, vy = sim.new_velocity(i, dt, grid)
        sim.vx[i], sim.vy[i] = vx, vy
        sim.px[i], sim.py[i] = sim.px[i] + vx * dt, sim.py[i] + vy * dt
    row = got.agents[agent]
    return bits(sim.vx[agent]) == bits(row[2]) and bits(sim.vy[agent]) == bits(row[3])


def _simulator(scene: Scene, state: StateDump):
    """A reference Simulator holding the scene's agents in a dumped state (preferred velocities too)."""
    from ..solver import Simulator
    sim = Simulator(scene.segments)
    for a, row in zip(scene.agents, state.agents):
        i = sim.add_agent((row[0], row[1]), a.params, (row[2], row[3]))
        sim.pref_x[i], sim.pref_y[i] = row[4], row[5]
    return sim


PLANE_FIELDS = ("P.x", "P.y", "N.x", "N.y")


def compare_steps(scene: Scene, state: StateDump, agent: int, reference: StepResult,
                  port: StepResult) -> ConstraintDifference | None:
    """The first difference of two agent_step results: in the obstacle constraints, then in the
    agent constraints (each part compared on its own, so that a missing obstacle is named as
    such), then the velocity."""
    names = _neighbour_names(scene, state, agent, reference)
    parts = ((reference.lines[:reference.hard], port.lines[:port.hard], 0, "obstacle"),
             (reference.lines[reference.hard:], port.lines[port.hard:], reference.hard, "agent neighbour"))
    for want_part, have_part, offset, kind in parts:
        for j, (want, have) in enumerate(zip(want_part, have_part)):
            for f in range(4):
                if bits(want[f]) != bits(have[f]):
                    found = ConstraintDifference(agent, offset + j, names[offset + j], PLANE_FIELDS[f],
                                                 _hex_value(want[f]), _hex_value(have[f]))
                    return _with_reading(found, scene, state, port)
        if len(want_part) != len(have_part):
            j = min(len(want_part), len(have_part))
            missing = len(want_part) > len(have_part)
            line = want_part[j] if missing else have_part[j]
            found = ConstraintDifference(
                agent, offset + j, names[offset + j] if missing else kind, "missing" if missing else "extra",
                got=f"{len(have_part)} {kind} constraints, not {len(want_part)}; "
                    f"{'the reference' if missing else 'the port'} has ({', '.join(repr(v) for v in line)})")
            return _with_reading(found, scene, state, port)
    for name, want, have in (("velocity.x", reference.vx, port.vx), ("velocity.y", reference.vy, port.vy)):
        if bits(want) != bits(have):
            return ConstraintDifference(agent, None, "", name, _hex_value(want), _hex_value(have))
    return None


def _neighbour_names(scene: Scene, state: StateDump, agent: int, reference: StepResult) -> list[str]:
    """"obstacle: segment s" / "agent neighbour j" for every constraint of the reference's list."""
    sim = _simulator(scene, state)
    prm = sim.params[agent]
    from ..solver.neighbors import obstacle_neighbors
    names = []
    if sim.segments:
        reach = prm.time_horizon_obst * prm.max_speed + prm.radius
        names += [f"obstacle: segment {s}" for _, s in obstacle_neighbors(sim.px[agent], sim.py[agent], reach,
                                                                          sim.segments)]
    names += [f"agent neighbour {j}" for _, j in sim.grid().neighbors(agent, prm.neighbor_distance, prm.max_neighbors)]
    return names + [""] * max(0, len(reference.lines) - len(names))


def _assembly(sim, i: int, dt: float, reach_of, segment_tau, agent_tau, agent_radius,
              agents_first: bool = False, by_index: bool = False) -> tuple[list, int]:
    """The reference's constraint assembly with its inputs swappable (for naming a misreading)."""
    from ..solver.constraint import agent_constraint, segment_constraint
    from ..solver.neighbors import obstacle_neighbors
    prm = sim.params[i]
    x, y = sim.px[i], sim.py[i]
    obstacles = []
    if sim.segments:
        for _, s in obstacle_neighbors(x, y, reach_of(prm), sim.segments):
            ax, ay, bx, by = sim.segments[s]
            obstacles.append(segment_constraint(ax - x, ay - y, bx - x, by - y, prm.radius, segment_tau(prm), dt))
    found = sim.grid().neighbors(i, prm.neighbor_distance, prm.max_neighbors)
    if by_index:
        found = sorted(found, key=lambda n: n[1])
    agents = [agent_constraint(sim.px[j] - x, sim.py[j] - y, agent_radius(prm, sim.params[j]), agent_tau(prm), dt,
                               sim.vx[i], sim.vy[i], sim.vx[j], sim.vy[j]) for _, j in found]
    if agents_first:
        return agents + obstacles, len(agents)
    return obstacles + agents, len(obstacles)


def _reach(p) -> float:
    return p.time_horizon_obst * p.max_speed + p.radius


def _sum(p, q) -> float:
    return p.radius + q.radius


READINGS: tuple[tuple[str, dict], ...] = (
    ("swapping the two time horizons (time_horizon against segments and in the reach, time_horizon_obst "
     "against agents)", dict(reach_of=lambda p: p.time_horizon * p.max_speed + p.radius,
                             segment_tau=lambda p: p.time_horizon, agent_tau=lambda p: p.time_horizon_obst)),
    ("time_horizon_obst against agents (a horizon mix-up)", dict(agent_tau=lambda p: p.time_horizon_obst)),
    ("time_horizon against segments (a horizon mix-up)", dict(segment_tau=lambda p: p.time_horizon)),
    ("time_horizon in the obstacle reach", dict(reach_of=lambda p: p.time_horizon * p.max_speed + p.radius)),
    ("the obstacle reach without the radius (time_horizon_obst * max_speed)",
     dict(reach_of=lambda p: p.time_horizon_obst * p.max_speed)),
    ("the agent's own radius instead of the radius sum rA + rB", dict(agent_radius=lambda p, q: p.radius)),
    ("agent constraints listed before the obstacle constraints", dict(agents_first=True)),
    ("agent neighbours listed by index instead of by distance", dict(by_index=True)),
)
"""Misreadings of the constraint assembly that ``compare_steps`` tries, in this order, to name
the one that reproduces a port's list."""


def _with_reading(difference: ConstraintDifference, scene: Scene, state: StateDump,
                  port: StepResult) -> ConstraintDifference:
    """The difference, with the first reading of READINGS that gives the port's list exactly."""
    sim = _simulator(scene, state)
    want = [tuple(bits(v) for v in line) for line in port.lines]
    for text, knobs in READINGS:
        options = dict(reach_of=_reach, segment_tau=lambda p: p.time_horizon_obst, agent_tau=lambda p: p.time_horizon,
                       agent_radius=_sum)
        options.update(knobs)
        try:
            lines, hard = _assembly(sim, difference.agent, scene.dt, **options)
        except (ArithmeticError, ValueError):
            continue
        if hard == port.hard and [tuple(bits(v) for v in line) for line in lines] == want:
            difference.reading = text
            break
    return difference


# ----------------------------------------------------------------------------- pictures

PICTURE_RADIUS = 8.0
PICTURE_AGENTS = 60


def neighbourhood(scene: Scene, agent: int, expected: StateDump, got: StateDump) -> dict:
    """Positions and velocities (reference and runner) of the agents near ``agent``."""
    cx, cy = expected.agents[agent][0], expected.agents[agent][1]
    near = sorted(range(len(expected.agents)),
                  key=lambda i: (expected.agents[i][0] - cx) ** 2 + (expected.agents[i][1] - cy) ** 2)
    chosen = [i for i in near[:PICTURE_AGENTS]
              if (expected.agents[i][0] - cx) ** 2 + (expected.agents[i][1] - cy) ** 2 <= PICTURE_RADIUS ** 2]
    segments = [list(s) for s in scene.segments
                if min(abs(s[0] - cx), abs(s[2] - cx)) <= 4 * PICTURE_RADIUS
                and min(abs(s[1] - cy), abs(s[3] - cy)) <= 4 * PICTURE_RADIUS]
    return {
        "step": expected.step, "agent": agent, "center": [cx, cy], "indices": chosen,
        "radii": [scene.agents[i].params.radius for i in chosen],
        "reference": [list(expected.agents[i][:4]) for i in chosen],
        "runner": [list(got.agents[i][:4]) for i in chosen],
        "segments": segments,
    }


# ----------------------------------------------------------------------------- primitive vectors

ROUNDING_ULPS = 4
ROUNDING_SCALE = 2.0 ** -30
"""A primitive result within ROUNDING_ULPS of the expected one, or within ROUNDING_SCALE of the
larger of 1 and its size (where a subtraction cancelled, a last-bit difference of the operands
is many ulps of the result), from the same arguments, differs by the rounding of its
arithmetic, not by a branch or a formula: those move results by far more."""


def rounding_only(family: str, expected: list, got) -> int | None:
    """The largest ulp distance between the expected and the actual result of one case when
    every integer and list shape agrees and every double is as close as rounding makes it
    (ROUNDING_ULPS, ROUNDING_SCALE): the same decisions, other rounding; None otherwise."""
    fam = vectors.FAMILY_BY_NAME.get(family)
    if fam is None or not isinstance(got, list) or len(got) != len(expected):
        return None
    worst = 0
    try:
        for code, want, have in zip(fam.result, expected, got):
            a, b = vectors.decode(code, want), vectors.decode(code, have)
            if code in ("i", "s", "i*"):
                if a != b:
                    return None
                continue
            flat_a = [a] if code == "d" else [x for row in a for x in (row if isinstance(row, tuple) else (row,))]
            flat_b = [b] if code == "d" else [x for row in b for x in (row if isinstance(row, tuple) else (row,))]
            if len(flat_a) != len(flat_b):
                return None
            for x, y in zip(flat_a, flat_b):
                distance = ulp_distance(x, y)
                if distance is None:
                    return None
                if distance > ROUNDING_ULPS and abs(x - y) > ROUNDING_SCALE * max(1.0, abs(x), abs(y)):
                    return None
                worst = max(worst, distance)
    except (TypeError, ValueError, IndexError):
        return None
    return worst


class VectorFailure(tuple):
    """``(family, case)`` of the first failing primitive case (it unpacks as that pair), with
    ``detail``: the case's decoded arguments, expected and actual results, and ``rounding``:
    set by the vectors row when the port's arithmetic itself differs (matrix.ROUNDING_SHARE),
    e.g. "2276 of the 2352 bad cases of the formula primitives (...)"."""

    detail: str
    rounding: str

    def __new__(cls, family: str, case: int, detail: str = "", rounding: str = "") -> "VectorFailure":
        self = super().__new__(cls, (family, case))
        self.detail = detail
        self.rounding = rounding
        return self

    @property
    def family(self) -> str:
        return self[0]

    @property
    def case(self) -> int:
        return self[1]


ARG_NAMES: dict[str, tuple[str, ...]] = {
    "segment_distance_squared": ("ax", "ay", "bx", "by"),
    "support_distance": ("ax", "ay", "bx", "by", "r", "tau", "xx", "xy", "overlap"),
    "agent_case_form": ("ax", "ay", "r", "tau", "xx", "xy"),
    "agent_constraint": ("ax", "ay", "r", "tau", "dt", "vax", "vay", "vbx", "vby"),
    "segment_constraint": ("ax", "ay", "bx", "by", "r", "tau", "dt"),
    "for_boundary": ("ax", "ay", "bx", "by", "clearance", "tau"),
    "solve_closest": ("lines", "R", "px", "py"),
    "solve_direction": ("lines", "R", "ox", "oy"),
    "relax": ("lines", "hardCount", "R", "failed"),
    "obstacle_neighbors": ("x", "y", "reach", "segments"),
    "agent_neighbors": ("i", "xs", "ys", "nd", "maxNeighbors"),
    "splitmix64": ("seed", "n"),
    "uniform": ("seed", "n"),
    "preferred_velocity": ("px", "py", "waypoints", "k", "goalRadius", "maxSpeed", "dt", "seed", "magnitude", "step",
                           "agent", "agentCount"),
    "agent_step": ("i", "xs", "ys", "vxs", "vys", "prefxs", "prefys", "radii", "max_speeds", "neighbor_distances",
                   "max_neighbors", "time_horizons", "time_horizon_obsts", "segments", "dt"),
}
RESULT_NAMES: dict[str, tuple[str, ...]] = {
    "segment_distance_squared": ("d2",), "support_distance": ("d", "nx", "ny"),
    "agent_case_form": ("ux", "uy", "nx", "ny"), "agent_constraint": ("Px", "Py", "Nx", "Ny"),
    "segment_constraint": ("Px", "Py", "Nx", "Ny"), "for_boundary": ("plane",),
    "solve_closest": ("vx", "vy", "failed"), "solve_direction": ("vx", "vy", "failed"), "relax": ("vx", "vy"),
    "obstacle_neighbors": ("indices",), "agent_neighbors": ("indices",), "splitmix64": ("z",), "uniform": ("u",),
    "preferred_velocity": ("prefx", "prefy", "k"), "agent_step": ("lines", "hardCount", "vx", "vy"),
}
LIST_ITEMS = 8
"""Items of a list argument shown before "..."."""


def _readable(code: str, value) -> str:
    """A decoded value: a double as repr and hex bits, a list as reprs (shortened)."""
    if code == "d":
        return _hex_value(value)
    if code in ("i", "s"):
        return repr(value)
    items = [repr(tuple(v)) if isinstance(v, (tuple, list)) else repr(v) for v in value]
    more = f", ... ({len(items)} items)" if len(items) > LIST_ITEMS else ""
    return "[" + ", ".join(items[:LIST_ITEMS]) + more + "]"


def _readable_values(codes: Sequence[str], names: Sequence[str], encoded) -> str:
    """name=value for each entry of an encoded argument or result list (raw when malformed)."""
    try:
        if not isinstance(encoded, list) or len(encoded) != len(codes):
            raise ValueError("shape")
        values = [vectors.decode(c, v) for c, v in zip(codes, encoded)]
    except (TypeError, ValueError, IndexError):
        return repr(encoded)[:300]
    return ", ".join(f"{n}={_readable(c, v)}" for n, c, v in zip(names, codes, values))


def describe_case(family: str, args: list, expected: list, got) -> str:
    """One failing case, readable: its decoded arguments, the expected and the actual result."""
    fam = vectors.FAMILY_BY_NAME.get(family)
    if fam is None:
        return f"args {args!r}; expected {expected!r}, got {got!r}"
    arg_names = ARG_NAMES.get(family, tuple(f"arg{k}" for k in range(len(fam.args))))
    result_names = RESULT_NAMES.get(family, tuple(f"result{k}" for k in range(len(fam.result))))
    return (f"args {_readable_values(fam.args, arg_names, args)}; "
            f"expected {_readable_values(fam.result, result_names, expected)}; "
            f"got {_readable_values(fam.result, result_names, got)}")
