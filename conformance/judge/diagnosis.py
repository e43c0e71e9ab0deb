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
  constraint (obstacle or agent neighbor, which value) and, when one reproduces it, the
  misreading behind it (swapped horizons, a reach without the radius, ...), or else the
  neighbour search when the port's own obstacle_neighbors or agent_neighbors primitive gives
  the agent other neighbours in that state; an equal list with a
  different velocity is the **linear program or fallback**; an equal list and velocity while the
  port's step differs is the **step composition** (an in-place, sequential update is
  recognised); a port without the primitive gets the plain "solver bug" and a note.

``diagnose`` also serves a run that stopped on a non-finite state (``non_finite``, the step is
the first bad one): the bad step's dump is used when the port can give it, else the last good
step alone.  The values are compared by state_difference.py, hash_encoding.py and
step_comparison.py, and each cause is worded by causes.py.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..runners.base import Runner, RunnerError, StateDump
from ..contract.scenario import Scene
from ..contract.clauses import Citation, clause_map
from .outcomes import CauseKind
from .causes import DRIVER, LOAD, SOLVER, encoding_cause, follow_rounding, position_cause, solver_cause
from .driver_citation import cite_driver
from .hash_encoding import canonical_hash
from .neighborhood import neighborhood
from ..contract.float_bits import to_float32
from .state_difference import (PREFERRED_FIELDS, VELOCITY_FIELDS, Difference, first_state_difference, hex_bits,
                               precision_finding, rounded_to_float32)
from .step_comparison import ConstraintDifference

if TYPE_CHECKING:  # protocol_finding.py fills it (cell_engine.py); the engine passes a column's SharedCauses
    from .protocol_finding import ProtocolFinding
    from .shared_causes import SharedCauses


@dataclass
class Diagnosis:
    """What a diverged (or non-finite) cell reports."""

    step: int
    state: Difference | None = None
    cause: str = ""
    headline: str = ""
    """The cause in one short sentence: what a red cell's first line says (``cause`` says it all)."""
    key: str = ""
    """The headline as every cell of the same mistake says it: no agent, step or count of this
    cell in it (``"an agent's constraint list differs: ..."``); cells are grouped by it, their
    ``kind`` and their clauses (judge/cell_groups.py), never by their words otherwise."""
    kind: CauseKind = CauseKind.UNKNOWN
    """The cause as a key: hash-encoding, load, driver, position-update, constraints, velocity,
    composition, solver (or empty when nothing could be said)."""
    preferred: Difference | None = None
    constraint: ConstraintDifference | None = None
    encoding: str = ""
    """The wrong hash encoding that reproduces the port's hash (kind hash-encoding)."""
    rounding: str = ""
    """Which formula primitives differ by rounding only, when the port's arithmetic is what
    differs (the vectors row says so; ``matrix.attach_vector_failure`` puts it first in the cause)."""
    non_finite: str = ""
    """"agent i field is value" when the run stopped on a NaN or an infinity."""
    vector_family: str | None = None
    vector_case: int | None = None
    vector_detail: str = ""
    """The failing case's decoded arguments, expected and actual results."""
    notes: list[str] = field(default_factory=list)
    picture: dict | None = None
    """The neighborhood of the divergent agent at the divergent step, for the HTML report."""
    citation: Citation | None = None
    """The clause of the text the cause breaks (judge/citation.py), when a cause was found."""
    decision: dict | None = None
    """The first different decision after a first difference of rounding (judge/first_decision.py)."""
    shared_from: str = ""
    """"row@step" of the cell whose full search this one's cause used (judge/shared_causes.py), or ""."""
    protocol: ProtocolFinding | None = None
    """What the protocol row found that this cell says first (judge/protocol_finding.py)."""

    def cites(self) -> str:
        """"breaks <id> (<where>: <paraphrase>)", or the nearest primitive's clauses when the
        clause could not be told; "" without a citation."""
        if self.citation is None:
            return ""
        clauses = clause_map()
        if not self.citation.found:
            return ("the clause could not be told; nearest: "
                    + ", ".join(clauses.cite(c) for c in self.citation.ids[:3]))
        text = f"breaks {clauses.cite(self.citation.primary)}"
        if self.citation.reading:
            text += f": {self.citation.reading}"
        if self.citation.others:
            text += f"; see also {', '.join(self.citation.others[:3])}"
        return text

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
        if self.citation is not None:
            parts.append(self.cites())
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
            constraint = {"agent": c.agent, "index": c.index, "neighbor": c.neighbor, "field": c.field,
                          "expected": c.expected, "got": c.got, "reading": c.reading}
        return {"step": self.step, "state": diff(self.state), "cause": self.cause, "kind": str(self.kind), "key": self.key,
                "preferred": diff(self.preferred), "constraint": constraint, "encoding": self.encoding,
                "non_finite": self.non_finite, "vector_family": self.vector_family, "vector_case": self.vector_case,
                "vector_detail": self.vector_detail, "notes": list(self.notes), "summary": self.summary(),
                "clauses": self.citation.ids if self.citation is not None else [],
                "clause_found": self.citation.found if self.citation is not None else False,
                "cites": self.cites(), "decision": self.decision,
                "protocol": None if self.protocol is None else {"slip": self.protocol.slip.value,
                                                                "check": self.protocol.check},
                "picture": self.picture}


def _dump(runner: Runner, scene: Scene, step: int, result: Diagnosis, who: str) -> StateDump | None:
    """A dump, or None with a note naming what failed."""
    try:
        return runner.dump(scene, step)
    except RunnerError as err:
        result.notes.append(f"dump of step {step} by the {who} failed: {err.reason}")
        return None


def diagnose(scene: Scene, step: int, runner: Runner, reference: Runner, reported_hash: str | None = None,
             non_finite: str = "", shared: SharedCauses | None = None) -> Diagnosis:
    """Localize a divergence first seen in the hash of state ``step`` (``reported_hash`` is the
    port's hash of that state, when it sent one), or a run that stopped there on a non-finite
    state (``non_finite`` as "agent i field is value", or "" when the port did not say).
    ``shared``: the column's outcomes of the dear searches (judge/shared_causes.py), if kept."""
    result = Diagnosis(step, non_finite=non_finite)
    got = _dump(runner, scene, step, result, "port")
    expected = _dump(reference, scene, step, result, "reference")
    if got is not None and expected is not None:
        result.state = first_state_difference(expected, got)
        if result.state is not None and result.state.agent >= 0 and _finite(got):
            result.picture = neighborhood(scene, result.state.agent, expected, got)
        if result.state is None and reported_hash is not None:
            encoding_cause(result, got, reported_hash)
            return result
        if result.state is None:
            result.notes.append(f"the port's dump of step {step} equals the reference's bit for bit")
            return result
        if result.state.agent < 0:
            result.kind = LOAD
            result.cause = f"the port's dump of step {step} has {len(got.agents)} agents, the scene {len(expected.agents)}"
            result.headline = f"the port's state has {len(got.agents)} agents, the scene {len(expected.agents)}"
            result.key = "the port's state has another number of agents than the scene"
            result.citation = Citation("scene.indices")
            return result
        _check_consistency(result, got, reported_hash)
    elif expected is None:
        return result
    if step == 0:
        if result.state is not None:
            result.kind = LOAD
            result.cause = result.headline = result.key = "the initial state differs: the scene was not loaded exactly"
            result.citation = Citation("scene.numbers", ["arith.state"])
            _precision(result, _later_states(runner, reference, scene, step, got, expected))
        return result
    got_prev = _dump(runner, scene, step - 1, result, "port")
    expected_prev = _dump(reference, scene, step - 1, result, "reference")
    if got_prev is None or expected_prev is None:
        return result
    _step_cause(result, scene, runner, expected, got, expected_prev, got_prev, shared)
    follow_rounding(result, scene, runner, shared)
    _precision(result, _later_states(runner, reference, scene, step, got, expected))
    return result


PRECISION_STEPS = 8
"""How many states after the divergent one a precision finding may look at when the values so far
are all narrow but too few to tell a format (a scene that starts exact in float32)."""


def _later_states(runner: Runner, reference: Runner, scene: Scene, step: int, got: StateDump | None,
                  expected: StateDump | None) -> tuple[list[float], list[float]]:
    """Every value of the port's dumps and the reference's from ``step`` on, agent rows flattened
    (six values an agent): the divergent state, then, while some field of the port's values is
    all float32 and no format is told yet, the next ones."""
    if got is None or expected is None:
        return [], []
    values = [v for row in got.agents for v in row]
    wanted = [v for row in expected.agents for v in row]
    for later in range(step + 1, min(scene.steps, step + PRECISION_STEPS) + 1):
        if _field_precision(values, wanted)[0] or not any(all(_narrow(v) for v in values[k::6]) for k in range(0, 6, 2)):
            break
        try:
            values += [v for row in runner.dump(scene, later).agents for v in row]
            wanted += [v for row in reference.dump(scene, later).agents for v in row]
        except RunnerError:
            break
    return values, wanted


FIELD_GROUPS = ((0, "state", "state is"), (1, "positions", "positions are"), (3, "velocities", "velocities are"),
                (5, "preferred velocities", "preferred velocities are"))
"""The precision finding's scopes: every value, then each field of the dumps (its first column
in a flattened row of six)."""


def _field_precision(values: list[float], wanted: list[float]) -> tuple[str, str]:
    """(format, what is in it): the whole state first, then each of its fields alone (a port that
    keeps only its positions, or only its preferred velocities, in float32)."""
    found = precision_finding(values, wanted)
    if found:
        return found, "state is"
    for column, _name, words in FIELD_GROUPS[1:]:
        picked = [k for k in range(len(values)) if k % 6 in (column - 1, column)]
        if rounded_to_float32([values[k] for k in picked], [wanted[k] for k in picked]):
            return "float32", words
    return "", ""


def _narrow(value: float) -> bool:
    try:
        return not math.isfinite(value) or to_float32(value) == value
    except OverflowError:
        return False


def _precision(result: Diagnosis, states: tuple[list[float], list[float]]) -> None:
    """Say first when the port's values are in a narrower format than binary64: every value of its
    dumps (positions, velocities, preferred velocities), or every value of one of those fields,
    float32 or on a fixed-point grid."""
    found, what = _field_precision(*states)
    if not found:
        return
    if found == "float32":
        finding = (f"the port's {what} float32 (a value rounded to float32): every value it reports that differs "
                   "from the reference's is a float32 value (its low 29 mantissa bits zero)")
        short = f"the port's {what} float32 (low 29 mantissa bits zero)"
    else:
        finding = f"the port's {what} on {found}: every value it reports is a whole multiple of it"
        short = f"the port's {what} on {found}"
    result.cause = f"{finding}; {result.cause}" if result.cause else finding
    result.headline = f"{short}; {result.headline}" if result.headline else short
    result.key = f"{short}; {result.key}" if result.key else short
    others = result.citation.ids if result.citation is not None else []
    result.citation = Citation("arith.state", ["arith.binary64"] + others)


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
    own = canonical_hash(got.agents)
    if own is not None and own != reported_hash:
        result.notes.append(f"the port's hash of step {result.step} ({reported_hash[:16]}...) is not the canonical "
                            f"hash of its own dump ({own[:16]}...): its state hash encoding is wrong too, or its "
                            "run and its dump compute different states")


def _step_cause(result: Diagnosis, scene: Scene, runner: Runner, expected: StateDump | None,
                got: StateDump | None, expected_prev: StateDump, got_prev: StateDump,
                shared: SharedCauses | None = None) -> None:
    """The cause of a divergence at step k > 0, from the dumps of k (when there are) and k - 1."""
    k = result.step
    before = first_state_difference(expected_prev, got_prev)
    if before is not None:
        result.notes.append(f"the dump of step {k - 1} already differs ({before.describe()}) although its "
                            "hash matched: the port's hash or dump is inconsistent")
    result.preferred = first_state_difference(expected_prev, got_prev, PREFERRED_FIELDS)
    if result.preferred is not None:
        result.kind = DRIVER
        result.cause = (f"driver bug: the preferred velocities computed from step {k - 1} already differ "
                        f"({result.preferred.describe()})")
        result.headline = f"driver bug: agent {result.preferred.agent}'s preferred velocity from step {k - 1} differs"
        result.key = "driver bug: an agent's preferred velocity differs"
        port = [v for row in got_prev.agents for v in row[4:6]]
        if rounded_to_float32(port, [v for row in expected_prev.agents for v in row[4:6]], minimum=2):
            result.headline += " (a value rounded to float32: the port's preferred velocities are float32)"
            result.key += " (a value rounded to float32: the port's preferred velocities are float32)"
            result.cause += "; every preferred velocity of the port that differs is the reference's rounded to float32"
        agent = result.preferred.agent
        result.citation = cite_driver(scene, expected_prev, agent, k - 1, tuple(got_prev.agents[agent][4:6]),
                                      _reference_waypoint(scene, k - 1, agent))
        return
    if expected is not None and got is not None:
        if first_state_difference(expected, got, VELOCITY_FIELDS) is None:
            position_cause(result, scene, expected_prev, got)
            return
        agent = first_state_difference(expected, got, VELOCITY_FIELDS).agent
    else:
        agent = _agent_of(result.non_finite)
    if agent is None or agent < 0:
        result.kind = SOLVER
        result.cause = (f"the port's step {k} failed before giving a state to compare, from the reference's state "
                        f"and preferred velocities of step {k - 1}: the failure is in its step, not in the state it "
                        "started from")
        result.headline = f"the port's step {k} failed from the reference's state of step {k - 1}"
        result.key = "the port's step failed from the reference's state of the step before"
        result.citation = Citation("step.phases", ["step.start-state"], found=False)
        return
    solver_cause(result, scene, runner, agent, expected_prev, got, shared)


def _reference_waypoint(scene: Scene, step: int, agent: int) -> int:
    """The reference driver's waypoint index of ``agent`` when it computes the preferred
    velocity of state ``step`` (a replay of the reference up to that state)."""
    from ..contract.driver import run
    seen = [0]

    def observe(s, sim, driver) -> None:
        if s == step:
            seen[0] = driver.waypoint[agent]
    for _ in run(scene, step, observe):
        pass
    return seen[0]


def _agent_of(non_finite: str) -> int | None:
    match = re.match(r"agent (\d+)", non_finite)
    return int(match.group(1)) if match else None
