"""Causes of a divergence: what kind of mistake a port made, in words, once the states differ.

Contract: the kinds a ``Diagnosis`` names are defined here (``ENCODING`` ... ``SOLVER``).  Each
``*_cause(result, ...)`` is called by ``diagnosis.diagnose`` when the causes before it are ruled
out, and sets ``result.kind`` and ``result.cause`` (with the ``encoding`` or ``constraint`` it
found): ``encoding_cause`` for bit-equal dumps under different hashes (naming the wrong encoding
that reproduces the port's hash), ``position_cause`` when every new velocity of step k is equal
and a position is not, ``solver_cause`` otherwise: it asks the port's agent_step for the
divergent agent from the reference's state k - 1 and names the constraint list, the linear
program or the step composition.  A port whose agent_step fails, or whose hello does not
provide it (then it is not asked), gets the plain "solver bug" and a note.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

from ..data import vectors
from .outcomes import CauseKind
from ..contract.float_bits import bits
from ..runners.base import Runner, RunnerError, StateDump
from ..contract.scenario import Scene
from ..contract.clauses import Citation
from ..data.family_clauses import FAMILY_CLAUSES
from .citation import cite_constraint, cite_velocity, flip_list
from .first_decision import first_decision
from .hash_encoding import canonical_hash, wrong_encodings
from .provided import AGENT_STEP_NOT_PROVIDED, provides
from .state_difference import POSITION_FIELDS, first_state_difference
from .step_comparison import (PLANE_FIELDS, ConstraintDifference, StepResult, agent_step_args, ask_neighbors,
                              ask_primitive, compare_steps, runner_agent_step, sequential_reproduces, step_result)

if TYPE_CHECKING:  # diagnosis.py imports this module to fill its Diagnosis
    from .diagnosis import Diagnosis
from .shared_causes import MISSING, SharedCauses, referred


ENCODING, LOAD, DRIVER, POSITION_UPDATE = (CauseKind.ENCODING, CauseKind.LOAD, CauseKind.DRIVER,
                                           CauseKind.POSITION_UPDATE)
CONSTRAINTS, VELOCITY, COMPOSITION, SOLVER = (CauseKind.CONSTRAINTS, CauseKind.VELOCITY, CauseKind.COMPOSITION,
                                              CauseKind.SOLVER)


def encoding_cause(result: Diagnosis, got: StateDump, reported_hash: str) -> None:
    """The dumps are bit-equal although the hashes differ: say which encoding the port used."""
    result.kind = ENCODING
    result.citation = Citation("hash.bytes")
    k = result.step
    canonical = canonical_hash(got.agents)
    result.headline = result.key = "the state hash encoding is wrong: equal states, other hashes"
    if canonical is None:
        result.cause = (f"the state hash encoding is wrong: the dumped state of step {k} equals the reference's "
                        "bit for bit, but the hashes differ")
        return
    text = (f"the state hash encoding is wrong: the dumped state of step {k} equals the reference's bit for bit "
            f"and its canonical hash is {canonical[:16]}..., but the port reported {reported_hash[:16]}...")
    matches = [description for description, digest in wrong_encodings(got.agents) if digest == reported_hash]
    if matches:
        result.encoding = matches[0]
        result.headline = f"the state hash encoding is wrong: the port hashes the state written with {matches[0]}"
        result.key = result.headline
        result.cause = f"{text}; that is the hash of the state written with {matches[0]}"
        if len(matches) > 1:
            result.cause += f" (or {len(matches) - 1} other layouts that give the same bytes for this state)"
        return
    result.cause = (f"{text}; no usual mistake (byte order, field order, signed zero, positions only) reproduces "
                    "it, or the port's run and dump compute different states (docs/porting.md section 3)")


def position_cause(result: Diagnosis, scene: Scene, expected_prev: StateDump, got: StateDump) -> None:
    """Every new velocity is equal, a position is not: the update p = p + v*dt is wrong."""
    k = result.step
    diff = first_state_difference(_expected_positions(expected_prev, got, scene.dt), got, POSITION_FIELDS)
    result.kind = POSITION_UPDATE
    result.citation = Citation("step.phases")
    result.cause = (f"position update (p = p + v*dt) is wrong: same state and preferred velocities at step {k - 1} "
                    f"and every new velocity of step {k} equals the reference's, but the positions differ")
    result.headline = result.key = "the position update p = p + v*dt is wrong"
    if diff is None:
        return
    i = diff.agent
    prev = expected_prev.agents[i]
    f = 0 if diff.field.endswith(".x") else 1
    if bits(diff.got) == bits(prev[f] + prev[2 + f] * scene.dt):
        result.cause += (f" (agent {i}: it equals p + v*dt with the velocity of step {k - 1}: the port moved with "
                         "the old velocity, before storing the new one)")
        result.headline += " (it moves with the old velocity)"
        result.key = result.headline
    elif bits(diff.got) == bits(prev[f]):
        result.cause += f" (agent {i}: the position was not updated)"
        result.headline += " (the position is not updated)"
        result.key = result.headline


def _expected_positions(expected_prev: StateDump, got: StateDump, dt: float) -> StateDump:
    """The positions p + v*dt of the port's new velocities from the reference's step k - 1."""
    rows = [(p[0] + g[2] * dt, p[1] + g[3] * dt, g[2], g[3], g[4], g[5])
            for p, g in zip(expected_prev.agents, got.agents)]
    return StateDump(got.step, tuple(rows))


def _constraints(step: StepResult) -> str:
    """"3 constraints (1 from obstacles)"."""
    return f"{len(step.lines)} constraint{'' if len(step.lines) == 1 else 's'} ({step.hard} from obstacles)"


def solver_cause(result: Diagnosis, scene: Scene, runner: Runner, agent: int, expected_prev: StateDump,
                 got: StateDump | None, shared: SharedCauses | None = None) -> None:
    """Ask the port's agent_step for the divergent agent from the reference's state k - 1."""
    k = result.step
    plain = f"solver bug: same state and preferred velocities at step {k - 1}, different new velocities"
    args = agent_step_args(scene, expected_prev, agent)
    reference = step_result(vectors.FAMILY_BY_NAME["agent_step"].reference(*args))
    try:
        port = runner_agent_step(runner, args)
    except RunnerError as err:
        told = not provides(runner, "agent_step")  # its hello leaves it out: judged from the scenes alone
        result.kind, result.cause = SOLVER, plain
        said = f"new velocity differs (the port's agent_step primitive {'is not provided' if told else 'failed'})"
        result.headline, result.key = f"agent {agent}'s {said}", f"an agent's {said}"
        result.citation = Citation("step.start-state", list(FAMILY_CLAUSES["agent_step"][1:4]), found=False)
        result.notes.append(AGENT_STEP_NOT_PROVIDED if told else f"the port's agent_step primitive failed "
                            f"({err.reason[:200]}), so its constraint assembly and programs could not be told "
                            "from the composition of its step")
        return
    anchored: list[int] = []
    difference = compare_steps(scene, expected_prev, agent, reference, port, anchored)
    if anchored:
        result.notes.append(f"constraint{'s' if len(anchored) > 1 else ''} {', '.join(map(str, anchored))} of the "
                            "port's list: the reference's half-plane anchored at another point of its line (the same "
                            "constraint, not counted as a difference; docs/protocol.md: agent_step reports the text's "
                            "P, and the vectors compare it bit for bit)")
    where = f"from the reference's state of step {k - 1} (same state and preferred velocities)"
    if difference is not None and difference.index is not None:
        result.kind, result.constraint = CONSTRAINTS, difference
        boundary = _weigh_evidence(difference, scene, expected_prev, runner, port, shared, result)
        if difference.reading:
            reading = f"; {difference.reading} reproduces the port's list"
        elif difference.neighbors:
            reading = f"; {difference.neighbors}"
        elif difference.primitive:
            reading = f"; {difference.primitive}"
        else:
            reading = ("; where the primitives it is built from pass their vectors, suspect what is fed to them: "
                       "a horizon or parameter mix-up (time_horizon against agents, time_horizon_obst against "
                       "segments and in the reach, the radius sum), the neighbor selection or its order")
        result.cause = (f"solver bug in the constraint list of agent {agent}: {where}, the port's agent_step gives "
                        f"{_constraints(port)}, the reference {_constraints(reference)}; "
                        f"{difference.describe()}{reading}")
        result.citation = boundary or cite_constraint(scene, expected_prev, difference, reference.lines, port.lines,
                                                      reference.hard, runner)
        facts = list_fact(reference, port, difference), list_fact(reference, port, difference, counts=False)
        result.headline, result.key = (_list_headline(w, difference, result.citation, f)
                                       for w, f in zip((f"agent {agent}'s", "an agent's"), facts))
    elif difference is not None:
        result.kind, result.constraint = VELOCITY, difference
        prm = scene.agents[agent].params
        result.citation = cite_velocity(runner, reference.lines, reference.hard, prm.max_speed,
                                        tuple(expected_prev.agents[agent][4:6]), (port.vx, port.vy))
        result.cause = (f"solver bug in the linear program or its fallback: {where}, the port's agent_step gives "
                        f"agent {agent} the reference's {_constraints(reference)} but another new velocity "
                        f"({difference.describe()})")
        said = "new velocity differs from the same constraints: the linear program or its fallback"
        result.headline, result.key = f"agent {agent}'s {said}", f"an agent's {said}"
    else:
        _composition_cause(result, scene, agent, reference, expected_prev, got)


PARENTHESES = re.compile(r"\s*\([^()]*\)")


def brief(text: str) -> str:
    """A cause's words without their parenthesised explanations, for a headline."""
    return PARENTHESES.sub("", text)


def list_fact(reference: StepResult, port: StepResult, difference: ConstraintDifference, counts: bool = True) -> str:
    """How the port's list differs, decisively: its obstacle and agent constraint counts where they
    differ from the reference's (``counts``; without them, for a key: fewer or more), then the
    first constraint missing, extra or otherwise, with its segment or neighbour."""
    said = []
    for kind, want, have in (("obstacle", reference.hard, port.hard),
                             ("agent", len(reference.lines) - reference.hard, len(port.lines) - port.hard)):
        if want != have:
            said.append(f"{have} {kind} constraints where the reference has {want}" if counts
                        else f"{'fewer' if have < want else 'more'} {kind} constraints than the reference")
    which = (difference.neighbor.replace("obstacle: ", "") if counts else
             "an obstacle constraint" if difference.neighbor.startswith("obstacle") else "an agent constraint")
    what = f"constraint {difference.index} ({which})" if counts else which
    if difference.field in ("missing", "extra"):
        said.append(f"{what} is {difference.field}")
    elif difference.field:
        said.append(f"{what} differs in {difference.field}")
    return "; ".join(said)


def _list_headline(whose: str, difference: ConstraintDifference, citation: Citation, fact: str = "") -> str:
    """The constraint-list cause in one sentence: the reading, the neighbor search or the
    primitive that explains the port's list, as found; ``whose``: "agent 3's" for the headline,
    "an agent's" for the key cells of one mistake share."""
    what = f"{whose} constraint list differs"
    if difference.reading:
        return f"{what}: {brief(difference.reading)} reproduces it"
    if citation.found and citation.reading:
        return f"{what}: {brief(citation.reading)}"
    if difference.tie:
        return f"{what}: the port's own {difference.port_neighbors[0]} breaks a tie in the neighbor order otherwise"
    if difference.neighbors:
        return f"{what}: the port's own {difference.port_neighbors[0]} primitive gives other neighbors" \
            if difference.port_neighbors else f"{what}: the neighbor search is wrong"
    if difference.primitive.startswith("the port's own"):
        return f"{what}: " + difference.primitive.split(" for the inputs")[0]
    if fact:
        return f"{what}: {fact} (its primitives pass; suspect what is fed to them)"
    return f"{what} (its primitives pass; suspect what is fed to them)"


FOLLOW_ULPS = 64
"""A first state difference of at most this many ulps, with no decision read otherwise to explain
it, is followed to the first different decision (``follow_rounding``)."""
FOLLOW_SECONDS = 5.0
FOLLOW_STEPS = 200


def own_primitive_wrong(difference: ConstraintDifference) -> bool:
    """The decisive fact that ends the search: the port's own constraint or neighbour primitive
    answers the reference's inputs wrongly (a later decision would only follow from it)."""
    return difference.primitive.startswith("the port's own") or bool(difference.port_neighbors)


def follow_rounding(result: Diagnosis, scene: Scene, runner: Runner, shared: SharedCauses | None = None) -> None:
    """When a cell's first difference looks like rounding (a few ulps, no reading and no decision
    read otherwise reproduces it), follow the run with the port's agent_step on the reference's
    states (judge/first_decision.py) to the first step where it decides otherwise, and say both:
    the rounding first, then that decision with its clause.  With ``shared``, the walk runs once
    per cause (kind and key) and column: a later cell of the cause says the first cell's outcome."""
    d = result.state
    explained = result.citation is not None and bool(result.citation.reading) or (
        result.constraint is not None and (result.constraint.reading or result.constraint.tie or own_primitive_wrong(
            result.constraint)))
    if d is None or d.ulps is None or d.ulps > FOLLOW_ULPS or explained or result.kind not in (CONSTRAINTS, VELOCITY):
        return
    signature = (result.kind, result.key)
    owner, kept = shared.recall("follow", signature) if shared is not None else ("", MISSING)
    if kept is not MISSING:
        _recalled_decision(result, owner, kept)
        return
    notes: list[str] = []
    found = first_decision(scene, runner, result.step, FOLLOW_STEPS, time.monotonic() + FOLLOW_SECONDS, notes)
    if found is None or found.step <= result.step:  # the step itself decided otherwise: its cause says it
        result.notes += [f"following the run for a decision: {n}" for n in notes]
        if shared is not None:
            shared.keep("follow", signature, None)
        return
    cited = cite_constraint(scene, found.state, found.difference, found.reference.lines, found.aligned.lines,
                            found.reference.hard, runner)
    result.decision = found.to_json()
    result.cause += f"; that is rounding: {found.text}"
    result.headline = (f"rounding only at step {result.step} ({result.headline}); the first different decision is "
                       f"at step {found.step}, agent {found.agent}")
    result.key = f"rounding only at first ({result.key}); a later step decides otherwise"
    if found.difference.index is not None:
        result.headline += f": constraint {found.difference.index} ({found.difference.neighbor or 'its list'})"
    result.citation = Citation(cited.primary, list(cited.others) + ["arith.binary64"], cited.found, cited.reading)
    if shared is not None:
        shared.keep("follow", signature, (result.key, result.citation, f"step {found.step}, agent {found.agent}"))


def _recalled_decision(result: Diagnosis, owner: str, kept: object) -> None:
    """A later cell of a cause whose walk to the first different decision ran at ``owner``:
    its outcome (None: no decision found), said with this cell's own step."""
    result.shared_from = owner
    result.notes.append(referred(owner))
    if kept is None:
        return
    key, citation, where = kept
    result.cause += f"; that is rounding: the first different decision, followed at {owner}, is at its {where}"
    result.headline = (f"rounding only at step {result.step} ({result.headline}); the first different decision: "
                       f"see {owner}")
    result.key, result.citation = key, citation


def _weigh_evidence(difference: ConstraintDifference, scene: Scene, state: StateDump, runner: Runner,
                    port: StepResult, shared: SharedCauses | None = None, result: Diagnosis | None = None):
    """Fill ``difference`` with what explains the port's list: a stock reading survives only when
    the port's own primitives are right and no decision read otherwise at its boundary gives the
    list too (returned as its Citation, the reading dropped); else the port's neighbour search,
    else its own constraint primitive.  The other agents are looked at once per reading and
    column with ``shared`` (``result`` then names the cell that did)."""
    primitive_right = False
    if difference.reading and difference.field in PLANE_FIELDS:
        ask_primitive(difference, scene, state, runner)
        if difference.primitive.startswith("the port's own"):
            difference.reading = ""
        else:
            primitive_right, difference.primitive = bool(difference.primitive), ""
    elif difference.reading:
        ask_neighbors(difference, scene, state, runner)
        if difference.neighbors:
            difference.reading = ""
    boundary = (flip_list(scene, state, difference.agent, port.lines, port.hard, primitive_right)
                if difference.reading else None)
    if boundary is not None and _fits_others(difference, scene, state, runner, shared, result):
        boundary = None  # the other agents tell the formula reading from the decision read otherwise
    if boundary is not None:
        difference.reading = ""
    if not difference.reading and not difference.neighbors:
        ask_neighbors(difference, scene, state, runner)
    if not difference.reading and not difference.neighbors:
        ask_primitive(difference, scene, state, runner)
    return boundary


def _fits_others(difference: ConstraintDifference, scene: Scene, state: StateDump, runner: Runner,
                 shared: SharedCauses | None, result: Diagnosis | None) -> bool:
    """``_reading_fits_others``, looked at once per reading and column when ``shared``."""
    owner, kept = shared.recall("others", difference.reading) if shared is not None else ("", MISSING)
    if kept is not MISSING:
        if result is not None:
            result.shared_from = owner
            result.notes.append(referred(owner))
        return bool(kept)
    fits = _reading_fits_others(difference.reading, scene, state, runner, difference.agent)
    if shared is not None:
        shared.keep("others", difference.reading, fits)
    return fits


OTHER_AGENTS_SECONDS = 3.0
"""How long ``_reading_fits_others`` may spend asking the port about the other agents."""
OTHER_STATES = 6
"""How many of the reference's states after the divergent one ``_reading_fits_others`` looks at."""


def _reading_fits_others(reading: str, scene: Scene, state: StateDump, runner: Runner, agent: int) -> bool:
    """Whether, where both a stock reading and a decision read otherwise at its boundary give
    the divergent agent's list, the other agents side with the stock reading: in this state and
    the reference's next few (OTHER_STATES), some agent's list (the port's agent_step) is
    explained by the reading and not by any boundary flip, and none the other way round.  (A
    reach without the radius drops every segment between the two reaches; the strict reach
    only those exactly on it.)"""
    from ..runners.reference import ReferenceRunner
    started = time.perf_counter()
    stock = flips = 0
    for t in range(OTHER_STATES + 1):
        try:
            now = state if t == 0 else ReferenceRunner().dump(scene, state.step + t)
        except (ArithmeticError, ValueError):
            break
        for j in range(len(scene.agents)):
            if (t == 0 and j == agent) or time.perf_counter() - started > OTHER_AGENTS_SECONDS:
                continue
            args = agent_step_args(scene, now, j)
            try:
                port = runner_agent_step(runner, args)
            except RunnerError:
                return False
            reference = step_result(vectors.FAMILY_BY_NAME["agent_step"].reference(*args))
            found = compare_steps(scene, now, j, reference, port)
            if found is None or found.index is None:
                continue
            by_reading = found.reading == reading
            by_flip = flip_list(scene, now, j, port.lines, port.hard) is not None
            stock += by_reading and not by_flip
            flips += by_flip and not by_reading
        if state.step + t >= scene.steps:
            break
    return stock > 0 and flips == 0


def _composition_cause(result: Diagnosis, scene: Scene, agent: int, reference: StepResult,
                       expected_prev: StateDump, got: StateDump | None) -> None:
    """agent_step agrees with the reference, the port's step does not: the composition is wrong."""
    k = result.step
    result.kind = COMPOSITION
    result.citation = Citation("step.phases", ["step.start-state"])
    result.constraint = ConstraintDifference(agent, None, field="step result")
    result.cause = (f"step composition is wrong: from the reference's state of step {k - 1} the port's agent_step "
                    f"gives agent {agent} the reference's {_constraints(reference)} and new velocity, but "
                    f"its step gives agent {agent} another velocity: the step does not compose them as the text "
                    "does (agents updated in place, one after the other, instead of every new velocity from the "
                    "start-of-step state; or another time step, preferred velocity or parameter fed to the step)")
    result.headline = result.key = "every primitive agrees but the step does not: the step composes them otherwise"
    if got is not None and sequential_reproduces(scene, expected_prev, got, agent):
        result.cause += f"; an in-place sequential update reproduces the port's velocity of agent {agent}"
        result.headline = result.key = "the step updates the agents in place, one after the other (the primitives agree)"
