"""The first different decision: where a port whose first differences are rounding decides otherwise.

A foreign implementation (a library wrapped as a port) often differs from the reference first by
rounding only (a reciprocal multiply: an ulp or two at step 1) and only later takes another
DECISION (a segment side where the text takes a vertex, another neighbour order, another
branch of the program), after which its agents end a metre apart.  The bit difference is
explained by ``diagnosis.diagnose``; this module finds the decision.

Contract: ``first_decision(scene, runner, first_step, max_steps=MAX_STEPS, work=WORK,
notes=None) -> Decision | None``.  It is meant for a cell whose first differences are rounding
(the caller decides that; ``is_rounding`` tells one agent_step result from another).

* For each step ``s`` with ``max(1, first_step) <= s <= min(scene.steps, first_step +
  max_steps)``, in order, the reference's state of step ``s - 1`` (positions, velocities and the
  preferred velocities computed from it; the reference is stepped once, in this process) is
  given to the port's ``agent_step`` for EVERY agent, in one ``vectors`` request per step
  (several only when agents x agents exceeds ``REQUEST_VALUES``), and each answer is compared
  with the reference's agent_step by STRUCTURE, not bits (``is_rounding``): the same number of
  constraints, the same hard (obstacle) count, each constraint the same half-plane up to
  ``RELATIVE`` (``plane_deviation``), and the new velocity within ``RELATIVE`` of the reference's
  (``velocity_deviation``).
* The first step, and in it the first agent (by index), whose answer differs beyond rounding is
  the first different decision: a ``Decision`` with the step, the agent, the reference's state
  ``s - 1``, both results, and the ``ConstraintDifference`` that ``step_comparison.compare_steps``
  finds on the port's result ``aligned`` to the reference's (every constraint, and the velocity,
  that agrees up to rounding replaced by the reference's bits), so it names the first constraint
  that differs BEYOND rounding (its index, its obstacle segment or agent neighbour, its field, a
  stock reading that reproduces the aligned list), or the velocity when every constraint agrees.
  ``Decision.deviation`` says how far beyond (relative; infinity for a constraint missing or
  extra) and ``Decision.text`` says it all in one sentence.  A caller names the clause with its
  own machinery (e.g. ``citation.cite_constraint(scene, d.state, d.difference,
  d.reference.lines, d.aligned.lines, d.reference.hard, runner)``).
* None when every checked step agrees structurally, when the port cannot answer agent_step (a
  ``RunnerError``, a wrong count or a reply that does not decode), when the scene has no agent
  or no step to check, or when the next step would take the work past ``work`` agent steps
  (each step of the reference, checked or not, costs one per agent; a checked step's port answers
  are asked in the same count): a bound in work, not seconds, so that a cell says the same on a
  slow or loaded machine.  It is checked before every step, the reference's steps before
  ``first_step`` included.  The reason is appended to ``notes`` when
  a list is given, so that the caller can say it.  Nothing here raises for a misbehaving port.

Cost: the reference is stepped once up to the last checked step (its agent_step results are
the ones it steps with); per checked step, one request of n cases whose shared argument lists
are encoded once, and one ``compare_steps`` for the decision found.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Sequence

from ..contract.driver import Driver, build_simulator
from ..contract.scenario import Scene
from ..data import vectors
from ..runners.base import Runner, RunnerError, RunnerUnavailable, StateDump
from ..solver import Simulator
from .provided import provides
from .step_comparison import ConstraintDifference, PLANE_FIELDS, StepResult, agent_step_args, compare_steps, step_result

RELATIVE = 1e-9
"""Agreement up to rounding, relative to the magnitudes at hand (at least 1 m/s): unit normals
within RELATIVE of each other, the port's anchor point within RELATIVE * size of the reference's
line, each velocity component within RELATIVE * size.  Measured from the reference's states on
every scene: the -ffast-math control (other rounding in every formula) stays within 5e-14
except where a scene touches a wall within rounding (boundary-touching-walls: 1.1e-8 in a normal,
the square root of a cancelled difference); the misreading catalogue's first different
agent_step is mostly 0.1 to 2 (a tie, a neighbour order, a branch), some 1e-12 to 1e-5 (a
branch near its boundary), some an ulp (a boundary where both branches agree: nothing to find).
1e-9 sits four orders above plain rounding; a smaller ``deviation`` than about 1e-7 may still
be rounding amplified by a near-degenerate geometry, which the text says with the number."""
MAX_STEPS = 200
"""Steps checked after ``first_step`` by default (``first_step`` itself and 200 more)."""
WORK = 25_000
"""Agent steps one call may take by default (about 10 s of the reference's Python and the
cffi port's answers on the project's machine, 0.4 ms an agent step)."""
REQUEST_VALUES = 100_000
"""Cases x agents one vectors request may carry (each case holds every agent's state, so a
port decodes and a pipe carries that many agents' values): one request per step up to 316
agents; a larger scene's step is asked in requests of as many agents as fit (100 of 1000), the
work bound checked before each step."""


@dataclass
class Decision:
    """The first step and agent whose agent_step differs from the reference's beyond rounding."""

    step: int
    agent: int
    difference: ConstraintDifference
    """compare_steps on ``aligned``: the first constraint (or the velocity) that differs beyond rounding."""
    state: StateDump
    """The reference's state of step ``step - 1``, the one both agent_steps were computed from."""
    reference: StepResult
    port: StepResult
    """The port's agent_step as it answered."""
    aligned: StepResult
    """``port`` with every constraint and the velocity that agree up to rounding set to the reference's bits."""
    deviation: float
    """How far the named constraint (or the velocity) is from the reference's, relative (see
    ``plane_deviation``); infinity for a constraint missing or extra."""
    text: str
    checked: int = 0
    """Steps checked (this one included)."""
    seconds: float = 0.0

    def to_json(self) -> dict:
        c = self.difference
        return {"step": self.step, "agent": self.agent, "text": self.text, "checked": self.checked,
                "deviation": self.deviation if math.isfinite(self.deviation) else None,
                "seconds": round(self.seconds, 3),
                "constraint": {"agent": c.agent, "index": c.index, "neighbor": c.neighbor, "field": c.field,
                               "expected": c.expected, "got": c.got, "reading": c.reading}}


def _largest(terms: Sequence[float]) -> float:
    """The largest term, infinity when one is NaN (max would drop a NaN that is not first)."""
    return math.inf if any(t != t for t in terms) else max(terms)


def plane_deviation(want: Sequence[float], have: Sequence[float], scale: float = 1.0) -> float:
    """How far the half-plane ``have`` (P.x, P.y, N.x, N.y) is from ``want``, relative: the
    larger of the normals' component differences (unit normals) and the distance of ``have``'s
    point from ``want``'s line (it may lie anywhere along it) over size, the largest of
    ``scale`` and the four point coordinates; 0 for equal planes, infinity for a NaN."""
    if tuple(want) == tuple(have):
        return 0.0
    px, py, nx, ny = want
    qx, qy, mx, my = have
    size = max(scale, abs(px), abs(py), abs(qx), abs(qy))
    return _largest((abs(nx - mx), abs(ny - my), abs((qx - px) * nx + (qy - py) * ny) / size))


def velocity_deviation(want: StepResult, have: StepResult, scale: float = 1.0) -> float:
    """How far the new velocities are apart: the larger component difference over size, the
    largest of ``scale`` and the four components (0 when equal, infinity for a NaN)."""
    if (want.vx, want.vy) == (have.vx, have.vy):
        return 0.0
    size = max(scale, abs(want.vx), abs(want.vy), abs(have.vx), abs(have.vy))
    return _largest((abs(want.vx - have.vx) / size, abs(want.vy - have.vy) / size))


def deviation(reference: StepResult, port: StepResult, scale: float = 1.0) -> float:
    """The largest deviation of a port's agent_step from the reference's over its constraints
    and velocity; infinity when the number of constraints or of hard ones differs."""
    if port.hard != reference.hard or len(port.lines) != len(reference.lines):
        return math.inf
    if port == reference:
        return 0.0
    return _largest([velocity_deviation(reference, port, scale)]
                    + [plane_deviation(w, h, scale) for w, h in zip(reference.lines, port.lines)])


def is_rounding(reference: StepResult, port: StepResult, scale: float = 1.0) -> bool:
    """Whether the port's agent_step is the reference's up to rounding: as many constraints, as
    many hard ones, each the same half-plane and the same velocity, all within RELATIVE."""
    return deviation(reference, port, scale) <= RELATIVE


def aligned(reference: StepResult, port: StepResult, scale: float = 1.0) -> StepResult:
    """``port`` with each constraint that is the reference's at the same place of its part
    (obstacles, then agents) up to rounding, and a velocity that agrees up to rounding, replaced
    by the reference's bits: what is left differs beyond rounding."""
    lines: list[tuple[float, ...]] = []
    parts = ((reference.lines[:reference.hard], port.lines[:port.hard]),
             (reference.lines[reference.hard:], port.lines[port.hard:]))
    for want_part, have_part in parts:
        for j, have in enumerate(have_part):
            want = want_part[j] if j < len(want_part) else None
            close = want is not None and plane_deviation(want, have, scale) <= RELATIVE
            lines.append(tuple(want) if close else tuple(have))
    close = velocity_deviation(reference, port, scale) <= RELATIVE
    vx, vy = (reference.vx, reference.vy) if close else (port.vx, port.vy)
    return StepResult(tuple(lines), port.hard, vx, vy)


def agent_scale(scene: Scene, state: StateDump, agent: int) -> float:
    """The magnitudes an agent's velocity-space values are measured against: 1 m/s, its maximum
    speed and its preferred velocity's components."""
    row = state.agents[agent]
    return max(1.0, scene.agents[agent].params.max_speed, abs(row[4]), abs(row[5]))


def port_steps(runner: Runner, scene: Scene, state: StateDump, agents: Sequence[int]) -> list[StepResult]:
    """The port's agent_step of ``agents`` from ``state``, in one request (the lists shared by
    every case are encoded once); RunnerError when it fails, answers another count or nonsense."""
    if not provides(runner, "agent_step"):
        raise RunnerError("the port does not provide agent_step (its hello)")
    family = vectors.FAMILY_BY_NAME["agent_step"]
    shared = [vectors.encode_value(c, v) for c, v in zip(family.args[1:], agent_step_args(scene, state, 0)[1:])]
    answers = runner.vectors("agent_step", [[i, *shared] for i in agents])
    if not isinstance(answers, list) or len(answers) != len(agents):
        raise RunnerError(f"agent_step answered {len(answers) if isinstance(answers, list) else 'no list of'} "
                          f"results for {len(agents)} cases")
    try:
        results = [step_result([vectors.decode_value(c, v) for c, v in zip(family.result, answer)])
                   for answer in answers]
    except (TypeError, ValueError, IndexError, AttributeError) as err:
        raise RunnerError(f"malformed agent_step result: {err}") from None
    if any(len(line) != 4 for r in results for line in r.lines) or any(not 0 <= r.hard <= len(r.lines)
                                                                        for r in results):
        raise RunnerError("malformed agent_step result: a constraint without four values or a hard count "
                          "outside its list")
    return results


def _reference_steps(sim: Simulator, dt: float) -> list[StepResult]:
    """The reference's agent_step of every agent of ``sim`` (its start-of-step state), as
    data/vectors.py's agent_step computes it, with one neighbour grid for all."""
    grid = sim.grid()
    results = []
    for i in range(len(sim)):
        lines, hard = sim.constraints(i, dt, grid)
        vx, vy = sim.new_velocity(i, dt, grid)
        results.append(StepResult(tuple(tuple(line) for line in lines), hard, vx, vy))
    return results


def _state(sim: Simulator, step: int) -> StateDump:
    return StateDump(step, tuple(zip(sim.px, sim.py, sim.vx, sim.vy, sim.pref_x, sim.pref_y)))


def _named_deviation(difference: ConstraintDifference, reference: StepResult, fitted: StepResult,
                     scale: float) -> tuple[float, str]:
    """The deviation of the constraint (or velocity) ``difference`` names, and what deviates:
    the normal, the line's offset or a velocity component; infinity for a constraint missing or
    extra (a plane field implies equal hard counts, so the index is the same in both lists)."""
    if difference.index is None:
        return velocity_deviation(reference, fitted, scale), difference.field
    if difference.field not in PLANE_FIELDS:
        return math.inf, difference.field
    want, have = reference.lines[difference.index], fitted.lines[difference.index]
    normal = plane_deviation(want, (*want[:2], *have[2:]), scale)
    return plane_deviation(want, have, scale), "normal" if normal > RELATIVE else "offset"


def _describe(step: int, agent: int, difference: ConstraintDifference, size: float, part: str) -> str:
    """"the first different decision is at step 7, agent 3: constraint 2 (obstacle: segment 4)
    differs beyond rounding (its normal, by 0.3 relative)"."""
    c = difference
    if c.index is None:
        what = (f"the new velocity differs beyond rounding ({part}, by {size:.2g} relative) from constraints "
                "that agree up to rounding")
    elif c.field in PLANE_FIELDS:
        what = (f"constraint {c.index}" + (f" ({c.neighbor})" if c.neighbor else "")
                + f" differs beyond rounding (its {part}, by {size:.2g} relative)")
    else:
        what = (f"constraint {c.index}" + (f" ({c.neighbor})" if c.neighbor else "")
                + f" is {c.field} in the port's list ({c.got.split(';')[0]})")
    if c.reading:
        what += f"; {c.reading} reproduces the port's list"
    return f"the first different decision is at step {step}, agent {agent}: {what}"


def _first_difference(scene: Scene, state: StateDump, wanted: list[StepResult],
                      answers: dict[int, StepResult]) -> Decision | None:
    """The first agent whose answer differs from the reference's beyond rounding, as a Decision."""
    for agent in sorted(answers):
        reference, port = wanted[agent], answers[agent]
        scale = agent_scale(scene, state, agent)
        if is_rounding(reference, port, scale):
            continue
        fitted = aligned(reference, port, scale)
        difference = compare_steps(scene, state, agent, reference, fitted)
        if difference is None:  # differs only in bits that compare as equal (a NaN payload)
            continue
        step = state.step + 1
        size, part = _named_deviation(difference, reference, fitted, scale)
        return Decision(step, agent, difference, state, reference, port, fitted, size,
                        _describe(step, agent, difference, size, part))
    return None


def _chunks(count: int) -> list[range]:
    """Agents 0..count-1 in requests of at most REQUEST_VALUES // count agents (at least one)."""
    size = max(1, REQUEST_VALUES // max(1, count))
    return [range(start, min(count, start + size)) for start in range(0, count, size)]


class _Stopped(Exception):
    """The search ends without a decision; the reason is the note."""


def _check_step(scene: Scene, runner: Runner, state: StateDump, wanted: list[StepResult]) -> Decision | None:
    """The Decision at step ``state.step + 1``, or None when every agent agrees; _Stopped when
    the port cannot answer."""
    answers: dict[int, StepResult] = {}
    for chunk in _chunks(len(wanted)):
        try:
            answers.update(zip(chunk, port_steps(runner, scene, state, chunk)))
        except (RunnerError, RunnerUnavailable) as err:
            reason = getattr(err, "reason", str(err))
            raise _Stopped(f"the port's agent_step failed from the reference's state of step {state.step} "
                           f"({reason[:200]}), so its decisions could not be compared") from None
    return _first_difference(scene, state, wanted, answers)


def first_decision(scene: Scene, runner: Runner, first_step: int, max_steps: int = MAX_STEPS,
                   work: int = WORK, notes: list[str] | None = None) -> Decision | None:
    """The first different decision of ``runner`` from ``first_step`` on (see the module)."""
    started = time.monotonic()
    notes = [] if notes is None else notes
    first, last = max(1, first_step), min(scene.steps, first_step + max_steps)
    if not scene.agents or first > last:
        notes.append(f"no step to check from step {first_step} (the scene has {len(scene.agents)} agents "
                     f"and {scene.steps} steps)")
        return None
    sim = build_simulator(scene, Simulator)
    driver = Driver(scene)
    for step in range(last):  # sim holds the reference's state ``step``, stepped to ``step + 1``
        if (step + 1) * len(scene.agents) > work:
            done = f" (steps {first}..{step} agree up to rounding)" if step >= first else ""
            notes.append(f"the work bound ({work} agent steps) was reached at step {step + 1}, before the first "
                         f"different decision was found{done}")
            return None
        driver.set_preferred_velocities(sim, step)
        wanted = _reference_steps(sim, scene.dt) if step + 1 >= first else None
        if wanted is not None:
            try:
                found = _check_step(scene, runner, _state(sim, step), wanted)
            except _Stopped as stop:
                notes.append(str(stop))
                return None
            if found is not None:
                found.checked, found.seconds = step + 2 - first, time.monotonic() - started
                return found
            sim.apply({i: (w.vx, w.vy) for i, w in enumerate(wanted)}, scene.dt)
        else:
            sim.step(scene.dt)
    notes.append(f"the port's agent_step agrees with the reference's up to rounding (relative {RELATIVE:g}) for "
                 f"every agent from the reference's states of steps {first - 1}..{last - 1}")
    return None
