"""Causes of a divergence: what kind of mistake a port made, in words, once the states differ.

Contract: the kinds a ``Diagnosis`` names are defined here (``ENCODING`` ... ``SOLVER``).  Each
``*_cause(step, ...)`` is called by ``diagnosis.diagnose`` when the causes before it are ruled
out, and returns a frozen ``Cause`` (cause_record.py: its kind, words, clauses, and the
``encoding`` or ``constraint`` it found); none writes into a diagnosis.  ``encoding_cause`` for
bit-equal dumps under different hashes (naming the wrong encoding that reproduces the port's
hash), ``position_cause`` when every new velocity of step k is equal and a position is not,
``solver_cause`` otherwise: it asks the port's agent_step for the divergent agent from the
reference's state k - 1 and names the constraint list, the linear program or the step
composition.  A port whose agent_step fails, or whose hello does not provide it (then it is not
asked), gets the plain "solver bug" and a note.  ``follow_rounding`` returns a new Cause that
adds the first different decision to a cause of rounding.  Decisions are made on typed fields
(``PrimitiveAnswer``, kinds, counts), never on a cause's words.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..data import vectors
from .outcomes import CauseKind
from ..contract.float_bits import bits
from ..contract.fused import fma
from ..runners.base import Runner, RunnerError, StateDump
from ..contract.scenario import Scene
from ..contract.clauses import Citation
from ..data.family_clauses import FAMILY_CLAUSES
from .citation import cite_constraint, cite_velocity, flip_list
from .first_decision import first_decision
from .fused_reading import FIX as FUSED_FIX, fused_site
from .hash_encoding import canonical_hash, wrong_encodings
from .provided import AGENT_STEP_NOT_PROVIDED, provides
from .cause_record import Cause
from .state_difference import POSITION_FIELDS, Difference, as_agent, first_state_difference
from .constraint_difference import ConstraintDifference, PrimitiveAnswer, Side
from .step_comparison import (PLANE_FIELDS, StepResult, agent_step_args, ask_neighbors, ask_primitive, compare_steps,
                              runner_agent_step, sequential_reproduces, step_result)
from .shared_causes import MISSING, SharedCauses, referred


ENCODING, LOAD, DRIVER, POSITION_UPDATE = (CauseKind.ENCODING, CauseKind.LOAD, CauseKind.DRIVER,
                                           CauseKind.POSITION_UPDATE)
CONSTRAINTS, VELOCITY, COMPOSITION, SOLVER = (CauseKind.CONSTRAINTS, CauseKind.VELOCITY, CauseKind.COMPOSITION,
                                              CauseKind.SOLVER)


def encoding_cause(step: int, got: StateDump, reported_hash: str) -> Cause:
    """The dumps of ``step`` are bit-equal although the hashes differ: say which encoding the port used."""
    canonical = canonical_hash(got.agents)
    said = "the state hash encoding is wrong: equal states, other hashes"
    found = Cause(ENCODING, headline=said, key=said, citation=Citation("hash.bytes"))
    if canonical is None:
        return replace(found, detail=(f"the state hash encoding is wrong: the dumped state of step {step} equals the "
                                      "reference's bit for bit, but the hashes differ"))
    text = (f"the state hash encoding is wrong: the dumped state of step {step} equals the reference's bit for bit "
            f"and its canonical hash is {canonical[:16]}..., but the port reported {reported_hash[:16]}...")
    matches = [description for description, digest in wrong_encodings(got.agents) if digest == reported_hash]
    if matches:
        said = f"the state hash encoding is wrong: the port hashes the state written with {matches[0]}"
        others = f" (or {len(matches) - 1} other layouts that give the same bytes for this state)" \
            if len(matches) > 1 else ""
        return replace(found, encoding=matches[0], headline=said, key=said,
                       detail=f"{text}; that is the hash of the state written with {matches[0]}{others}")
    return replace(found, detail=(f"{text}; no usual mistake (byte order, field order, signed zero, positions only) "
                                  "reproduces it, or the port's run and dump compute different states "
                                  "(docs/porting.md section 3)"))


def position_cause(step: int, scene: Scene, expected_prev: StateDump, got: StateDump) -> Cause:
    """Every new velocity of ``step`` is equal, a position is not: the update p = p + v*dt is wrong."""
    k = step
    diff = first_state_difference(_expected_positions(expected_prev, got, scene.dt), got, POSITION_FIELDS)
    detail = (f"position update (p = p + v*dt) is wrong: same state and preferred velocities at step {k - 1} "
              f"and every new velocity of step {k} equals the reference's, but the positions differ")
    headline = key = "the position update p = p + v*dt is wrong"
    if diff is not None:
        i = diff.agent
        prev = as_agent(expected_prev.agents[i])
        position, velocity = prev.position[diff.column], prev.velocity[diff.column]
        new_velocity = as_agent(got.agents[i]).velocity[diff.column]
        if bits(diff.got) == bits(position + velocity * scene.dt):
            detail += (f" (agent {i}: it equals p + v*dt with the velocity of step {k - 1}: the port moved with "
                       "the old velocity, before storing the new one)")
            fact = "it moves with the old velocity"
        elif bits(diff.got) == bits(position):
            detail += f" (agent {i}: the position was not updated)"
            fact = "the position is not updated"
        elif bits(diff.got) == bits(fma(new_velocity, scene.dt, position)):
            detail += f" (agent {i}: it equals p + v*dt rounded once, a fused multiply-add)"
            fact = f"it fuses p + v*dt into one multiply-add; fix: {FUSED_FIX}"
        else:
            fact = ""
        if fact:
            key += f" ({fact})"
        headline += f" (agent {i}'s {diff.field}" + (f": {fact})" if fact else f" is {diff.distance_text()} from "
                                                                               f"p + v*dt)")
    return Cause(POSITION_UPDATE, detail, headline, key, Citation("step.phases"))


def _expected_positions(expected_prev: StateDump, got: StateDump, dt: float) -> StateDump:
    """The positions p + v*dt of the port's new velocities from the reference's step k - 1."""
    rows = [(p[0] + g[2] * dt, p[1] + g[3] * dt, g[2], g[3], g[4], g[5])
            for p, g in zip(expected_prev.agents, got.agents)]
    return StateDump(got.step, tuple(rows))


def _constraints(step: StepResult) -> str:
    """"3 constraints (1 from obstacles)"."""
    return f"{len(step.lines)} constraint{'' if len(step.lines) == 1 else 's'} ({step.hard} from obstacles)"


def solver_cause(step: int, scene: Scene, runner: Runner, agent: int, expected_prev: StateDump,
                 got: StateDump | None, shared: SharedCauses | None = None) -> Cause:
    """Ask the port's agent_step for the divergent agent from the reference's state ``step - 1``."""
    k = step
    args = agent_step_args(scene, expected_prev, agent)
    reference = step_result(vectors.FAMILY_BY_NAME["agent_step"].reference(*args))
    try:
        port = runner_agent_step(runner, args)
    except RunnerError as err:
        told = not provides(runner, "agent_step")  # its hello leaves it out: judged from the scenes alone
        said = f"new velocity differs (the port's agent_step primitive {'is not provided' if told else 'failed'})"
        note = AGENT_STEP_NOT_PROVIDED if told else (f"the port's agent_step primitive failed ({err.reason[:200]}), "
                                                     "so its constraint assembly and programs could not be told "
                                                     "from the composition of its step")
        return Cause(SOLVER, f"solver bug: same state and preferred velocities at step {k - 1}, different new "
                     "velocities", f"agent {agent}'s {said}", f"an agent's {said}",
                     Citation("step.start-state", list(FAMILY_CLAUSES["agent_step"][1:4]), found=False),
                     notes=(note,))
    anchored: list[int] = []
    difference = compare_steps(scene, expected_prev, agent, reference, port, anchored)
    notes = (f"constraint{'s' if len(anchored) > 1 else ''} {', '.join(map(str, anchored))} of the port's list: the "
             "reference's half-plane anchored at another point of its line (the same constraint, not counted as a "
             "difference; docs/protocol.md: agent_step reports the text's P, and the vectors compare it bit for "
             "bit)",) if anchored else ()
    if difference is not None and difference.index is not None:
        return _list_cause(k, scene, runner, agent, expected_prev, reference, port, difference, shared, notes)
    if difference is not None:
        prm = scene.agents[agent].params
        citation = cite_velocity(runner, reference.lines, reference.hard, prm.max_speed,
                                 as_agent(expected_prev.agents[agent]).preferred, (port.vx, port.vy))
        said = "new velocity differs from the same constraints: the linear program or its fallback"
        found = Cause(VELOCITY, f"solver bug in the linear program or its fallback: {_WHERE.format(k - 1)}, the port's "
                      f"agent_step gives agent {agent} the reference's {_constraints(reference)} but another new "
                      f"velocity ({difference.describe()})", f"agent {agent}'s {said}", f"an agent's {said}", citation,
                      constraint=difference, notes=notes)
        if citation.reading:
            return found
        return _fused(found, scene, expected_prev, agent, port, runner, "new velocity differs from the same constraints",
                      shared)
    return replace(_composition_cause(k, scene, agent, reference, expected_prev, got), notes=notes)


_WHERE = "from the reference's state of step {} (same state and preferred velocities)"


def _list_cause(k: int, scene: Scene, runner: Runner, agent: int, expected_prev: StateDump, reference: StepResult,
                port: StepResult, difference: ConstraintDifference, shared: SharedCauses | None,
                notes: tuple[str, ...]) -> Cause:
    """The port's agent_step gives another constraint list: what explains it, and its clause."""
    boundary, owner = _weigh_evidence(difference, scene, expected_prev, runner, port, shared)
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
    citation = boundary or cite_constraint(scene, expected_prev, difference, reference.lines, port.lines,
                                           reference.hard, runner)
    facts = list_fact(reference, port, difference), list_fact(reference, port, difference, counts=False)
    headline = _list_headline(f"agent {agent}'s", difference, citation, facts[0])
    key = _list_headline("an agent's", difference, citation, facts[1], neighbors=False)
    found = Cause(CONSTRAINTS, f"solver bug in the constraint list of agent {agent}: {_WHERE.format(k - 1)}, the "
                  f"port's agent_step gives {_constraints(port)}, the reference {_constraints(reference)}; "
                  f"{difference.describe()}{reading}", headline, key, citation, constraint=difference,
                  shared_from=owner, notes=notes + ((referred(owner),) if owner else ()))
    if difference.reading or citation.reading or difference.neighbors or difference.tie:
        return found
    return _fused(found, scene, expected_prev, agent, port, runner, "constraint list differs", shared)


def _fused(found: Cause, scene: Scene, state: StateDump, agent: int, port: StepResult, runner: Runner,
           what: str, shared: SharedCauses | None = None) -> Cause:
    """``found``, or, when one multiply-add of the reference fused alone gives the port's
    agent_step bit for bit (judge/fused_reading.py), a new Cause that names that site, its clause
    and the fix first (``rounding`` set: the port's arithmetic is what differs, which the vectors
    row's rounding finding must not then replace with a vaguer one).  Not searched when the
    column's vectors row already named the arithmetic (``SharedCauses.settled``), nor, with
    ``shared``, when an earlier cell of the same cause (kind and key) found no site."""
    if shared is not None and shared.settled():
        return replace(found, notes=found.notes + (shared.settled_note("a single fused multiply-add"),))
    signature = (found.kind, found.key)
    owner, kept = shared.recall("no fused site", signature) if shared is not None else ("", MISSING)
    if kept is not MISSING:  # an earlier cell of this cause found none: neither does this one look
        return replace(found, shared_from=found.shared_from or owner, notes=found.notes + (referred(owner),))
    fused = fused_site(scene, state, agent, port, runner, shared=shared)
    if fused is None:
        if shared is not None:
            shared.keep("no fused site", signature, None)
        return found
    others = f" (or {fused.others} other fused site{'s' if fused.others > 1 else ''})" if fused.others else ""
    said = f"{fused.words()} reproduces it{others}; fix: {FUSED_FIX}"
    detail = (f"{found.detail}; {fused.words()} reproduces the port's agent_step bit for bit{others}: the port "
              f"rounds `{fused.site.text}` once where the text rounds `{fused.site.product}` first (fix: {FUSED_FIX})")
    owner = fused.shared_from
    return replace(found, detail=detail, headline=f"agent {agent}'s {what}: {said}", key=f"an agent's {what}: {said}",
                   citation=fused.cite(), rounding=fused.words(), fix=FUSED_FIX, shared_from=owner or found.shared_from,
                   notes=found.notes + ((referred(owner),) if owner else ()))


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
    source = difference.source
    which = ("" if source is None else source.brief()) if counts else (
        "an obstacle constraint" if source is not None and source.side is Side.OBSTACLE else "an agent constraint")
    what = f"constraint {difference.index} ({which})" if counts else which
    if difference.field in ("missing", "extra"):
        said.append(f"{what} is {difference.field}")
    elif difference.field:
        said.append(f"{what} differs in {difference.field}")
    return "; ".join(said)


def _list_headline(whose: str, difference: ConstraintDifference, citation: Citation, fact: str = "",
                   neighbors: bool = True) -> str:
    """The constraint-list cause in one sentence: the reading, the neighbor search or the
    primitive that explains the port's list, as found, with the decisive fact (``fact``: how the
    list differs; with ``neighbors``, how the port's neighbour list differs); ``whose``: "agent
    3's" for the headline, "an agent's" for the key cells of one mistake share."""
    what = f"{whose} constraint list differs"
    if difference.reading:
        return f"{what}: {brief(difference.reading)} reproduces it"
    if citation.found and citation.reading:
        return f"{what}: {brief(citation.reading)}"
    change = f" ({difference.neighbor_change})" if neighbors and difference.neighbor_change else ""
    if difference.tie:
        return f"{what}: the port's own {difference.port_neighbors[0]} breaks a tie in the neighbor order otherwise{change}"
    if difference.neighbors:
        return f"{what}: the port's own {difference.port_neighbors[0]} primitive gives other neighbors{change}" \
            if difference.port_neighbors else f"{what}: the neighbor search is wrong"
    if difference.primitive_answer is PrimitiveAnswer.WRONG_PLANE:
        return f"{what}: the port's own {difference.primitive_family} primitive gives a wrong plane"
    if fact:
        return f"{what}: {fact} (its primitives pass; suspect what is fed to them)"
    return f"{what} (its primitives pass; suspect what is fed to them)"


FOLLOW_ULPS = 64
"""A first state difference of at most this many ulps, with no decision read otherwise to explain
it, is followed to the first different decision (``follow_rounding``)."""
FOLLOW_WORK = 12_000
"""The walk's bound in agent steps (first_decision.WORK): about 5 s on the project's machine."""
FOLLOW_STEPS = 200


def own_primitive_wrong(difference: ConstraintDifference) -> bool:
    """The decisive fact that ends the search: the port's own constraint or neighbour primitive
    answers the reference's inputs wrongly (a later decision would only follow from it)."""
    return difference.primitive_answer is PrimitiveAnswer.WRONG_PLANE or bool(difference.port_neighbors)


def follow_rounding(found: Cause, step: int, state: Difference | None, scene: Scene, runner: Runner,
                    shared: SharedCauses | None = None) -> Cause:
    """When a cell's first difference (``state``, at ``step``) looks like rounding (a few ulps, no
    reading and no decision read otherwise reproduces it), follow the run with the port's
    agent_step on the reference's states (judge/first_decision.py) to the first step where it
    decides otherwise, and say both: the rounding first, then that decision with its clause (a new
    Cause; ``found`` as it was when there is nothing to follow).  With ``shared``, the walk runs
    once per cause (kind and key) and column: a later cell of the cause says the first cell's outcome."""
    d, constraint = state, found.constraint
    explained = found.citation is not None and bool(found.citation.reading) or (
        constraint is not None and (constraint.reading or constraint.tie or own_primitive_wrong(constraint)))
    if d is None or d.ulps is None or d.ulps > FOLLOW_ULPS or explained or found.kind not in (CONSTRAINTS, VELOCITY):
        return found
    if shared is not None and shared.settled():
        return replace(found, notes=found.notes + (shared.settled_note("the first different decision after the "
                                                                        "rounding"),))
    signature = (found.kind, found.key)
    owner, kept = shared.recall("follow", signature) if shared is not None else ("", MISSING)
    if kept is not MISSING:
        return _recalled_decision(found, step, owner, kept)
    notes: list[str] = []
    decided = first_decision(scene, runner, step, FOLLOW_STEPS, FOLLOW_WORK, notes)
    if decided is None or decided.step <= step:  # the step itself decided otherwise: its cause says it
        if shared is not None:
            shared.keep("follow", signature, None)
        return replace(found, notes=found.notes + tuple(f"following the run for a decision: {n}" for n in notes))
    cited = cite_constraint(scene, decided.state, decided.difference, decided.reference.lines, decided.aligned.lines,
                            decided.reference.hard, runner)
    headline = (f"rounding only at step {step} ({found.headline}); the first different decision is "
                f"at step {decided.step}, agent {decided.agent}")
    if decided.difference.index is not None:
        headline += f": constraint {decided.difference.index} ({decided.difference.neighbor or 'its list'})"
    key = f"rounding only at first ({found.key}); a later step decides otherwise"
    citation = Citation(cited.primary, list(cited.others) + ["arith.binary64"], cited.found, cited.reading)
    if shared is not None:
        shared.keep("follow", signature, (key, citation, f"step {decided.step}, agent {decided.agent}"))
    return replace(found, detail=f"{found.detail}; that is rounding: {decided.text}", headline=headline, key=key,
                   citation=citation, decision=decided.to_json())


def _recalled_decision(found: Cause, step: int, owner: str, kept: object) -> Cause:
    """A later cell of a cause whose walk to the first different decision ran at ``owner``:
    its outcome (None: no decision found), said with this cell's own step."""
    found = replace(found, shared_from=owner, notes=found.notes + (referred(owner),))
    if kept is None:
        return found
    key, citation, where = kept
    return replace(found, detail=(f"{found.detail}; that is rounding: the first different decision, followed at "
                                  f"{owner}, is at its {where}"),
                   headline=(f"rounding only at step {step} ({found.headline}); the first different decision: "
                             f"see {owner}"), key=key, citation=citation)


def _weigh_evidence(difference: ConstraintDifference, scene: Scene, state: StateDump, runner: Runner,
                    port: StepResult, shared: SharedCauses | None = None) -> tuple[Citation | None, str]:
    """Fill ``difference`` with what explains the port's list: a stock reading survives only when
    the port's own primitives are right and no decision read otherwise at its boundary gives the
    list too (returned as its Citation, the reading dropped); else the port's neighbour search,
    else its own constraint primitive.  The other agents are looked at once per reading and
    column with ``shared``; the second value is then the cell that did ("row@step"), else ""."""
    primitive_right, owner = False, ""
    if difference.reading and difference.field in PLANE_FIELDS:
        ask_primitive(difference, scene, state, runner)
        if difference.primitive_answer is PrimitiveAnswer.WRONG_PLANE:
            difference.reading = ""
        else:
            primitive_right = difference.primitive_answer is PrimitiveAnswer.REFERENCE_PLANE
            difference.primitive, difference.primitive_answer = "", PrimitiveAnswer.NOT_ASKED
    elif difference.reading:
        ask_neighbors(difference, scene, state, runner)
        if difference.neighbors:
            difference.reading = ""
    boundary = (flip_list(scene, state, difference.agent, port.lines, port.hard, primitive_right)
                if difference.reading else None)
    if boundary is not None:
        fits, owner = _fits_others(difference, scene, state, runner, shared)
        if fits:
            boundary = None  # the other agents tell the formula reading from the decision read otherwise
    if boundary is not None:
        difference.reading = ""
    if not difference.reading and not difference.neighbors:
        ask_neighbors(difference, scene, state, runner)
    if not difference.reading and not difference.neighbors:
        ask_primitive(difference, scene, state, runner)
    return boundary, owner


def _fits_others(difference: ConstraintDifference, scene: Scene, state: StateDump, runner: Runner,
                 shared: SharedCauses | None) -> tuple[bool, str]:
    """``_reading_fits_others``, looked at once per reading and column when ``shared``; with the
    cell whose look it recalls ("row@step"), or ""."""
    owner, kept = shared.recall("others", difference.reading) if shared is not None else ("", MISSING)
    if kept is not MISSING:
        return bool(kept), owner
    fits = _reading_fits_others(difference.reading, scene, state, runner, difference.agent)
    if shared is not None:
        shared.keep("others", difference.reading, fits)
    return fits, ""


OTHER_AGENTS_ASKS = 600
"""How many agent_step answers ``_reading_fits_others`` may ask of the port about the other agents
(about 3 s on the project's machine): a bound in work, so that the verdict is the same on a slow
machine."""
OTHER_STATES = 6
"""How many of the reference's states after the divergent one ``_reading_fits_others`` looks at."""


def _reading_fits_others(reading: str, scene: Scene, state: StateDump, runner: Runner, agent: int) -> bool:
    """Whether, where both a stock reading and a decision read otherwise at its boundary give
    the divergent agent's list, the other agents side with the stock reading: in this state and
    the reference's next few (OTHER_STATES), some agent's list (the port's agent_step) is
    explained by the reading and not by any boundary flip, and none the other way round.  (A
    reach without the radius drops every segment between the two reaches; the strict reach
    only those exactly on it.)"""
    from .shared_causes import CachedReference
    replay = CachedReference()  # the reference's next states, in one replay
    asks = stock = flips = 0
    for t in range(OTHER_STATES + 1):
        try:
            now = state if t == 0 else replay.dump(scene, state.step + t)
        except (ArithmeticError, ValueError):
            break
        for j in range(len(scene.agents)):
            if (t == 0 and j == agent) or asks >= OTHER_AGENTS_ASKS:
                continue
            asks += 1
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


def _composition_cause(k: int, scene: Scene, agent: int, reference: StepResult,
                       expected_prev: StateDump, got: StateDump | None) -> Cause:
    """agent_step agrees with the reference, the port's step ``k`` does not: the composition is wrong."""
    detail = (f"step composition is wrong: from the reference's state of step {k - 1} the port's agent_step "
              f"gives agent {agent} the reference's {_constraints(reference)} and new velocity, but "
              f"its step gives agent {agent} another velocity: the step does not compose them as the text "
              "does (agents updated in place, one after the other, instead of every new velocity from the "
              "start-of-step state; or another time step, preferred velocity or parameter fed to the step)")
    said = "every primitive agrees but the step does not: the step composes them otherwise"
    if got is not None and sequential_reproduces(scene, expected_prev, got, agent):
        detail += f"; an in-place sequential update reproduces the port's velocity of agent {agent}"
        said = "the step updates the agents in place, one after the other (the primitives agree)"
    return Cause(COMPOSITION, detail, said, said, Citation("step.phases", ["step.start-state"]),
                 constraint=ConstraintDifference(agent, None, field="step result"))
