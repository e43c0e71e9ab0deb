"""Agent-step comparison: one agent's ``agent_step`` by the port against the reference's.

Contract: ``agent_step_args(scene, state, agent)`` are the decoded agent_step arguments of one
agent of a scene in a dumped state; ``step_result`` reads an agent_step result as a
``StepResult`` and ``runner_agent_step`` asks a port for one (RunnerError when it fails or
answers nonsense).  ``compare_steps`` returns the first ``ConstraintDifference`` of two results
(the obstacle constraints, then the agent constraints, each part on its own so that a missing
constraint is named as missing, then the new velocity), or None; a differing constraint
carries the misreading of ``READINGS`` that reproduces the port's whole list, if one does.
``ask_primitive`` adds what the port's own constraint primitive answers for that constraint's
inputs (nothing when it cannot answer); ``sequential_reproduces`` says whether updating the
agents in place, one after the other, gives the port's velocity.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..data import vectors
from ..contract.float_bits import bits, ulp_distance
from ..solver.obstacle import segment_distance_squared
from ..runners.base import Runner, RunnerError, StateDump
from ..contract.scenario import Scene
from .constraint_difference import ConstraintDifference, Neighbor, PrimitiveAnswer, Side
from .provided import provides
from .state_difference import hex_value


@dataclass(frozen=True)
class StepResult:
    """One agent's agent_step: constraint list, hard count, new velocity."""

    lines: tuple[tuple[float, float, float, float], ...]
    hard: int
    vx: float
    vy: float


PLANE_FIELDS = ("P.x", "P.y", "N.x", "N.y")


def agent_step_args(scene: Scene, state: StateDump, agent: int) -> list:
    """The agent_step arguments (decoded) of one agent of a scene in a dumped state."""
    rows, agents = state.agents, scene.agents
    return [agent, *[[r[f] for r in rows] for f in range(6)],
            [a.params.radius for a in agents], [a.params.max_speed for a in agents],
            [a.params.neighbor_distance for a in agents], [a.params.max_neighbors for a in agents],
            [a.params.time_horizon for a in agents], [a.params.time_horizon_obst for a in agents],
            list(scene.segments), scene.dt]


def step_result(values: Sequence) -> StepResult:
    """A decoded agent_step result (lines, hard count, vx, vy) as a StepResult."""
    lines, hard, vx, vy = values
    return StepResult(tuple(tuple(line) for line in lines), int(hard), vx, vy)


def runner_agent_step(runner: Runner, args: list) -> StepResult:
    """The port's agent_step; RunnerError (reason) when it fails, answers nonsense or does not provide it."""
    family = vectors.FAMILY_BY_NAME["agent_step"]
    if not provides(runner, "agent_step"):  # its hello leaves agent_step out: never asked
        raise RunnerError("the port does not provide agent_step (its hello)")
    encoded = [vectors.encode_value(c, v) for c, v in zip(family.args, args)]
    results = runner.vectors("agent_step", [encoded])
    try:
        return step_result([vectors.decode_value(c, v) for c, v in zip(family.result, results[0])])
    except (TypeError, ValueError, IndexError) as err:
        raise RunnerError(f"malformed agent_step result: {err}") from None


SAME_LINE_ULPS = 8
"""Two half-planes are one constraint anchored at two points of its line when their normals agree
within this many ulps per component, the port's anchor lies on the reference's line within this
many ulps of the anchors' size, and it sits clearly elsewhere along the line: a wrapped library
that stores a line by another of its points."""


def same_halfplane(want: tuple, have: tuple) -> bool:
    """Whether two (P.x, P.y, N.x, N.y) lines are the same half-plane up to SAME_LINE_ULPS: same
    normal (so the same side), the port's anchor on the reference's line."""
    if any((ulp_distance(a, b) or 0) > SAME_LINE_ULPS or a != a or b != b for a, b in zip(want[2:], have[2:])):
        return False
    dx, dy = have[0] - want[0], have[1] - want[1]
    size = max(abs(want[0]), abs(want[1]), abs(have[0]), abs(have[1]), 2.0 ** -1022)
    across, along = dx * want[2] + dy * want[3], dx * want[3] - dy * want[2]
    # on the line within rounding, and moved along it by far more than rounding: a re-anchoring,
    # not a line shifted by an ulp (which is another constraint, and what a rounding slip gives)
    return abs(across) <= SAME_LINE_ULPS * size * 2.0 ** -52 and abs(along) >= size * 2.0 ** -20


def compare_steps(scene: Scene, state: StateDump, agent: int, reference: StepResult,
                  port: StepResult, anchored: list[int] | None = None) -> ConstraintDifference | None:
    """The first difference of two agent_step results: in the obstacle constraints, then in the
    agent constraints (each part compared on its own, so that a missing obstacle is named as
    such), then the velocity.  A constraint that is the reference's half-plane anchored at
    another point of its line (``same_halfplane``) is not a difference: its index goes to
    ``anchored`` and the search goes on."""
    names = _neighbor_names(scene, state, agent, reference)
    parts = ((reference.lines[:reference.hard], port.lines[:port.hard], 0, Side.OBSTACLE),
             (reference.lines[reference.hard:], port.lines[port.hard:], reference.hard, Side.AGENT))
    for want_part, have_part, offset, kind in parts:
        for j, (want, have) in enumerate(zip(want_part, have_part)):
            if any(bits(a) != bits(b) for a, b in zip(want, have)) and same_halfplane(want, have):
                if anchored is not None:
                    anchored.append(offset + j)
                continue
            for f in range(4):
                if bits(want[f]) != bits(have[f]):
                    found = ConstraintDifference(agent, offset + j, names[offset + j], PLANE_FIELDS[f],
                                                 hex_value(want[f]), hex_value(have[f]),
                                                 expected_value=want[f], got_value=have[f])
                    return _with_reading(found, scene, state, port)
        if len(want_part) != len(have_part):
            j = min(len(want_part), len(have_part))
            missing = len(want_part) > len(have_part)
            line = want_part[j] if missing else have_part[j]
            found = ConstraintDifference(
                agent, offset + j, names[offset + j] if missing else Neighbor(kind), "missing" if missing else "extra",
                got=f"{len(have_part)} {Neighbor(kind)} constraints, not {len(want_part)}; "
                    f"{'the reference' if missing else 'the port'} has ({', '.join(repr(v) for v in line)})")
            return _with_reading(found, scene, state, port)
    for name, want, have in (("velocity.x", reference.vx, port.vx), ("velocity.y", reference.vy, port.vy)):
        if bits(want) != bits(have):
            return ConstraintDifference(agent, None, None, name, hex_value(want), hex_value(have),
                                        expected_value=want, got_value=have)
    return None


def _neighbor_names(scene: Scene, state: StateDump, agent: int, reference: StepResult) -> list[Neighbor | None]:
    """The segment or agent neighbour of every constraint of the reference's list."""
    sim = _simulator(scene, state)
    prm = sim.params[agent]
    from ..solver.neighbors import obstacle_neighbors
    names: list[Neighbor | None] = []
    if sim.segments:
        reach = prm.time_horizon_obst * prm.max_speed + prm.radius
        names += [Neighbor(Side.OBSTACLE, s) for _, s in obstacle_neighbors(sim.px[agent], sim.py[agent], reach,
                                                                            sim.segments)]
    names += [Neighbor(Side.AGENT, j) for _, j in sim.grid().neighbors(agent, prm.neighbor_distance, prm.max_neighbors)]
    return names + [None] * max(0, len(reference.lines) - len(names))


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


READINGS: tuple[tuple[str, str, dict], ...] = (
    ("swapping the two time horizons (time_horizon against segments and in the reach, time_horizon_obst "
     "against agents)", "agents.inputs",
     dict(reach_of=lambda p: p.time_horizon * p.max_speed + p.radius, segment_tau=lambda p: p.time_horizon,
          agent_tau=lambda p: p.time_horizon_obst)),
    ("time_horizon_obst against agents (a horizon mix-up)", "agents.inputs",
     dict(agent_tau=lambda p: p.time_horizon_obst)),
    ("time_horizon against segments (a horizon mix-up)", "segments.inputs",
     dict(segment_tau=lambda p: p.time_horizon)),
    ("time_horizon in the obstacle reach", "neighbors.obstacles",
     dict(reach_of=lambda p: p.time_horizon * p.max_speed + p.radius)),
    ("the obstacle reach without the radius (time_horizon_obst * max_speed)", "neighbors.obstacles",
     dict(reach_of=lambda p: p.time_horizon_obst * p.max_speed)),
    ("the agent's own radius instead of the radius sum rA + rB", "agents.inputs",
     dict(agent_radius=lambda p, q: p.radius)),
    ("agent constraints listed before the obstacle constraints", "fallback.hard-prefix", dict(agents_first=True)),
    ("agent neighbors listed by index instead of by distance", "neighbors.agents", dict(by_index=True)),
)
"""Misreadings of the constraint assembly that ``compare_steps`` tries, in this order, to name
the one that reproduces a port's list: its words, the clause it breaks, its knobs."""


def _with_reading(difference: ConstraintDifference, scene: Scene, state: StateDump,
                  port: StepResult) -> ConstraintDifference:
    """The difference, with the first reading of READINGS that gives the port's list exactly."""
    sim = _simulator(scene, state)
    want = [tuple(bits(v) for v in line) for line in port.lines]
    for text, clause, knobs in READINGS:
        options = dict(reach_of=_reach, segment_tau=lambda p: p.time_horizon_obst, agent_tau=lambda p: p.time_horizon,
                       agent_radius=_sum)
        options.update(knobs)
        try:
            lines, hard = _assembly(sim, difference.agent, scene.dt, **options)
        except (ArithmeticError, ValueError):
            continue
        if hard == port.hard and [tuple(bits(v) for v in line) for line in lines] == want:
            difference.reading, difference.reading_clause = text, clause
            break
    return difference


def ask_family(runner: Runner, family: str, args: list) -> tuple | None:
    """The port's answer to one case of a primitive family (decoded arguments in, decoded
    results out); None when it cannot answer (an error, or an answer that does not decode) or does
    not provide the family (its hello: then it is never asked)."""
    fam = vectors.FAMILY_BY_NAME[family]
    if not provides(runner, family):
        return None
    try:
        answer = runner.vectors(family, [[vectors.encode_value(c, v) for c, v in zip(fam.args, args)]])
        return tuple(vectors.decode_value(c, v) for c, v in zip(fam.result, answer[0]))
    except (RunnerError, LookupError, TypeError, ValueError):
        return None


def ask_primitive(difference: ConstraintDifference, scene: Scene, state: StateDump, runner: Runner) -> None:
    """Ask the port's own agent_constraint or segment_constraint primitive for the differing
    constraint, with the inputs the reference's step gives it: if it answers the port's plane,
    the primitive is wrong for these inputs; if it answers the reference's plane, what the
    port's step feeds it differs.  Says nothing when the port cannot answer."""
    if difference.field not in PLANE_FIELDS:
        return
    sim = _simulator(scene, state)
    i, prm = difference.agent, sim.params[difference.agent]
    x, y = sim.px[i], sim.py[i]
    source = difference.source
    if source is None or source.index is None:
        return
    if source.side is Side.AGENT:
        j = source.index
        family = "agent_constraint"
        args = [sim.px[j] - x, sim.py[j] - y, prm.radius + sim.params[j].radius, prm.time_horizon, scene.dt,
                sim.vx[i], sim.vy[i], sim.vx[j], sim.vy[j]]
    else:
        ax, ay, bx, by = sim.segments[source.index]
        family = "segment_constraint"
        args = [ax - x, ay - y, bx - x, by - y, prm.radius, prm.time_horizon_obst, scene.dt]
    plane = ask_family(runner, family, args)
    if plane is None:
        return
    expected = vectors.FAMILY_BY_NAME[family].reference(*args)
    shown = ", ".join(f"{name}={hex_value(v)}" for name, v in zip(("ax", "ay", "r" if family == "agent_constraint"
                                                                     else "bx"), args[:3]))
    difference.primitive_family = family
    if [bits(v) for v in plane] == [bits(v) for v in expected]:
        difference.primitive_answer = PrimitiveAnswer.REFERENCE_PLANE
        difference.primitive = (f"the port's {family} primitive gives the reference's plane for the inputs the "
                                "reference's step feeds it, so the port's step feeds it something else: a horizon "
                                "or parameter mix-up, the relative position or velocities, the neighbor order")
    else:
        difference.primitive_answer = PrimitiveAnswer.WRONG_PLANE
        difference.primitive = (f"the port's own {family} primitive gives a wrong plane for the inputs of this "
                                f"constraint ({shown}, ...): the primitive is wrong, not what is fed to it")


def _indices(values: list[int]) -> str:
    shown = ", ".join(str(v) for v in values[:12])
    return f"[{shown}]" if len(values) <= 12 else f"[{shown}, ... ({len(values)} items)]"


def ask_neighbors(difference: ConstraintDifference, scene: Scene, state: StateDump, runner: Runner) -> None:
    """Ask the port's own obstacle_neighbors and agent_neighbors primitives for the agent's
    neighbours in the reference's state (the reach and the agent's own neighbour parameters): a
    list that differs from the reference's names the neighbour search as the cause of the
    differing constraint list. Says nothing when both agree or the port cannot answer."""
    sim = _simulator(scene, state)
    i, prm = difference.agent, sim.params[difference.agent]
    queries = (("obstacle_neighbors", "segments", [sim.px[i], sim.py[i], _reach(prm), list(sim.segments)]),
               ("agent_neighbors", "agents", [i, list(sim.px), list(sim.py), prm.neighbor_distance,
                                              prm.max_neighbors]))
    for family, what, args in queries:
        answer = ask_family(runner, family, args)
        if answer is None:
            continue
        got, expected = answer[0], vectors.FAMILY_BY_NAME[family].reference(*args)[0]
        if got != expected:
            difference.port_neighbors = (family, args, list(got))
            difference.neighbor_change = neighbor_change(family, list(got), list(expected))
            difference.neighbors = (f"the neighbor search is wrong: in this state the port's own {family} primitive "
                                    f"gives agent {i} the {what} {_indices(got)}, the reference {_indices(expected)}")
            tie = broken_tie(family, args, list(got), list(expected))
            if tie:
                difference.tie = tie
                difference.neighbors = f"{tie}; {difference.neighbors}"
            return


def neighbor_change(family: str, got: list[int], expected: list[int]) -> str:
    """The decisive fact of a neighbour list that differs, for a headline: the count when it
    differs, then the first neighbour missing (in the reference's order), else the first extra,
    else the first one at another place: "5 agents where the reference has 6; agent 7 is
    missing" or "segment 3 is at place 0, the reference's place 2"."""
    noun = "segment" if family == "obstacle_neighbors" else "agent"
    said = [f"{len(got)} {noun}s where the reference has {len(expected)}"] if len(got) != len(expected) else []
    missing = [k for k in expected if k not in got]
    extra = [k for k in got if k not in expected]
    if missing:
        said.append(f"{noun} {missing[0]} is missing" + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""))
    elif extra:
        said.append(f"{noun} {extra[0]} is extra" + (f" (and {len(extra) - 1} more)" if len(extra) > 1 else ""))
    else:
        moved = next((k for place, k in enumerate(got) if expected[place] != k), None)
        if moved is not None:
            said.append(f"{noun} {moved} is at place {got.index(moved)}, the reference's place {expected.index(moved)}")
    return "; ".join(said)


def _squared_distances(family: str, args: list) -> dict[int, float]:
    """Each candidate's squared distance as the reference computes it: segments from the point,
    agents from agent i (every one, inside the neighbor distance or not)."""
    if family == "obstacle_neighbors":
        x, y, _, segments = args
        return {k: segment_distance_squared(ax - x, ay - y, bx - x, by - y) for k, (ax, ay, bx, by) in enumerate(segments)}
    i, xs, ys = args[0], args[1], args[2]
    return {j: (xs[j] - xs[i]) * (xs[j] - xs[i]) + (ys[j] - ys[i]) * (ys[j] - ys[i]) for j in range(len(xs))}


def broken_tie(family: str, args: list, got: list[int], expected: list[int]) -> str:
    """"the port breaks a tie otherwise: ..." when the first place its neighbour list differs
    from the reference's holds two candidates at the very same squared distance (the text orders
    them by index, lower first); "" otherwise."""
    place = next((k for k, (a, b) in enumerate(zip(got, expected)) if a != b), None)
    if place is None:
        return ""
    d2 = _squared_distances(family, args)
    a, b = got[place], expected[place]
    if a not in d2 or b not in d2 or bits(d2[a]) != bits(d2[b]):
        return ""
    what = "segments" if family == "obstacle_neighbors" else "agents"
    return (f"the port breaks a tie otherwise: {what} {b} and {a} are at the same squared distance "
            f"({hex_value(d2[a])}), the text takes the lower index first, the port puts {a} at place {place}")


def sequential_reproduces(scene: Scene, expected_prev: StateDump, got: StateDump, agent: int) -> bool:
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


def _simulator(scene: Scene, state: StateDump, simulator: type | None = None):
    """A reference Simulator (or ``simulator``, e.g. the shadow's) holding the scene's agents in
    a dumped state (preferred velocities too)."""
    from ..solver import Simulator
    sim = (simulator or Simulator)(scene.segments)
    for a, row in zip(scene.agents, state.agents):
        i = sim.add_agent((row[0], row[1]), a.params, (row[2], row[3]))
        sim.pref_x[i], sim.pref_y[i] = row[4], row[5]
    return sim
