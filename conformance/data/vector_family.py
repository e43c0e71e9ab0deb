"""The primitive vector families: one ``Family`` record each (data/family.py), in the order the
suite has always stored and asked them.

Contract: ``BUILTIN`` is the single source of everything the suite knows about a family (type
codes, reference function, clauses, case makers, formula flags, argument and result names, its
entry points in the ports); ``FAMILIES`` is the registry (``BUILTIN`` and any family added with
``family.register``), ``FAMILY_BY_NAME`` its live index.  Every other table keyed by a family's
name is a view of these records.  The reference functions call the solver and the driver this
module imports, so the census's shadow (data/shadow.py) executes a fresh copy of it bound to
its instrumented modules; the makers of the support form and the linear programs below consult
the reference to draw their inputs.
"""

from __future__ import annotations

import random

from ..contract import driver
from ..solver import constraint, fallback, linear_program, neighbors, obstacle
from . import vector_bands, vector_edges, vector_neighbors, vector_offaxis, vector_operators, vector_random
from . import vector_boundaries as boundary
from .family import Family, Registry
from .vector_random import TOUCHING, magnitude, point, program_lines, unit


def _for_boundary(ax, ay, bx, by, clearance, tau):
    plane = constraint.for_boundary(ax, ay, bx, by, clearance, tau)
    return (list(plane) if plane is not None else [],)


def _preferred(px, py, waypoints, k, goal_radius, max_speed, dt, seed, magnitude, step, agent, count):
    """The driver's rule for one agent, through the reference Driver."""
    from ..contract.scenario import AgentSpec, Scene
    from ..solver import AgentParams, Simulator
    prm = AgentParams(0.5, max_speed, 1.0, 1, 1.0, 1.0)
    agents = [AgentSpec((0.0, 0.0), (0.0, 0.0), prm, goal_radius, ((0.0, 0.0),))] * count
    agents[agent] = AgentSpec((px, py), (0.0, 0.0), prm, goal_radius, tuple(waypoints))
    scene = Scene(dt, 1, seed, magnitude, tuple(agents), ())
    sim = Simulator()
    for a in agents:
        sim.add_agent(a.position, prm)
    drv = driver.Driver(scene)
    drv.waypoint[agent] = k
    vx, vy = drv.preferred_velocity(sim, agent, step)
    return vx, vy, drv.waypoint[agent]


def _agent_step(i, xs, ys, vxs, vys, prefxs, prefys, radii, max_speeds, neighbor_distances, max_neighbors,
                time_horizons, time_horizon_obsts, segments, dt, simulator=None):
    """One agent's work in a step, from a start-of-step state given as parallel per-agent lists:
    its constraint list (obstacles first, then agents), the hard count and its new velocity
    (``simulator``: a Simulator subclass to compute it with, a careless port's; the reference's by default)."""
    from ..solver import AgentParams, Simulator
    sim = (simulator or Simulator)(segments)
    for k in range(len(xs)):
        prm = AgentParams(radii[k], max_speeds[k], neighbor_distances[k], max_neighbors[k], time_horizons[k],
                          time_horizon_obsts[k])
        sim.add_agent((xs[k], ys[k]), prm, (vxs[k], vys[k]))
        sim.pref_x[k] = prefxs[k]
        sim.pref_y[k] = prefys[k]
    grid = sim.grid()
    lines, hard_count = sim.constraints(i, dt, grid)
    vx, vy = sim.new_velocity(i, dt, grid)
    return [tuple(line) for line in lines], hard_count, vx, vy


# ----------------------------------------------------------------------------- makers that consult the reference

def _cases_support(name: str, rng: random.Random) -> list[list]:
    cases: list[list] = []
    for _ in range(600):
        s = magnitude(rng)
        r = rng.uniform(0.05, 2.0)
        tau = rng.choice([0.1, 0.5, 1.0, 2.0, 5.0, 10.0])
        a = point(rng, s)
        b = a if rng.random() < 0.3 else point(rng, s)
        x = point(rng, rng.choice([0.1, 1.0, 3.0]))
        d2 = obstacle.segment_distance_squared(*a, *b)
        overlap = d2 <= r * r
        dt = rng.choice([0.05, 0.1, 0.25])
        cases.append([*a, *b, r, dt if overlap else tau, *x, int(overlap)])
    # x exactly at a/dt (wa = 0 -> fallback direction), coincident agents, symmetric segment
    # segments touching within rounding: an end inside r although the distance is above r,
    # so rho2 - r*r < 0 and that end's legs are skipped (spec note 5)
    for ax, ay, bx, by, r in TOUCHING:
        cases.append([ax, ay, bx, by, r, 2.0, 0.1, -0.2, 0])
    cases += [[0.3, 0.4, 0.6, 0.8, 1.0, 0.5, 1.2, 1.6, 1],  # x = b/dt exactly: wb = 0
              [0.3, 0.4, 0.3, 0.4, 1.0, 0.5, 0.6, 0.8, 1], [0.0, 0.0, 0.0, 0.0, 1.0, 0.1, 0.0, 0.0, 1],
              [5.0, -1.0, 5.0, 1.0, 0.5, 1.0, 0.0, 0.0, 0], [-1.0, 0.0, 1.0, 0.0, 0.5, 0.1, 0.0, 0.0, 1],
              [2.0, 0.0, 2.0, 0.0, 1.0, 2.0, 1.0, 0.0, 0], [4.0, 0.0, 4.0, 0.0, 1.0, 2.0, 3.0, 0.0, 0]]
    return cases


def _cases_programs(name: str, rng: random.Random) -> list[list]:
    cases: list[list] = []
    for n in range(500):
        radius = rng.choice([0.0, 0.5, 1.0, 2.0]) if n % 10 == 0 else rng.uniform(0.3, 3.0)
        lines = program_lines(rng, rng.randint(0, 10), max(radius, 0.5))
        if name == "solve_closest":
            cases.append([lines, radius, *point(rng, 2.0 * max(radius, 0.5))])
        elif name == "solve_direction":
            cases.append([lines, radius, *unit(rng)])
        else:
            hard = rng.randint(0, min(3, len(lines)))
            # hard prefix that admits the zero velocity, like the text's obstacle constraints,
            # except now and then (deep wall overlap): then the failure may be inside it
            for k in range(hard):
                px, py, nx, ny = lines[k]
                if px * nx + py * ny > 0.0 and rng.random() < 0.8:
                    lines[k] = (-px, -py, nx, ny)
            pref = point(rng, 2.0)
            _, _, failed = linear_program.solve_closest(lines, radius, *pref)
            if failed < 0:
                continue
            cases.append([lines, hard, radius, failed])
    if name == "solve_closest":
        cases += [[[(0.0, 0.5, 0.0, 1.0), (0.0, -0.5, 0.0, -1.0)], 2.0, 0.0, 0.0],   # facing parallels
                  [[(0.0, 0.5, 0.0, 1.0), (0.0, 1.0, 0.0, 1.0)], 2.0, 0.0, 0.0],     # same direction
                  [[(0.0, 3.0, 0.0, 1.0)], 2.0, 0.0, 0.0],                           # misses the disc
                  [[(0.0, 2.0, 0.0, 1.0)], 2.0, 0.0, 0.0],                           # tangent: disc == 0
                  [[], 1.0, 3.0, 4.0], [[], 0.0, -3.0, 4.0], [[], 2.0, 0.5, 0.5]]
    return cases


def _drawn(edges):
    """An edge maker of the rng alone as a maker ``(name, rng)``."""
    return lambda name, rng: edges(rng)


def makers(random_cases, edges=None, boundaries=None) -> dict:
    """A family's makers: its own random, edge and boundary ones, then the generated band,
    operator and off-axis cases of every family (vector_bands/operators/offaxis.py, by name)."""
    out = {"random": random_cases}
    if edges is not None:
        out["edges"] = edges
    if boundaries is not None:
        out["boundaries"] = boundary.literal(boundaries)
    out.update(bands=lambda name, rng: vector_bands.cases(name),
               operators=lambda name, rng: vector_operators.cases(name),
               offaxis=lambda name, rng: vector_offaxis.cases(name))
    return out


def _ports(name: str, c_name: str, js_name: str) -> dict:
    """A family's entry points: the C port's, the export layer's (``orca_`` and the name), the
    JavaScript skeleton's."""
    return {"c_name": c_name, "wasm_name": f"orca_{name}", "js_name": js_name}


_D = ("d",)
_PROGRAM = ("d4*", "d", "d", "d")
_LP_RESULT = ("d", "d", "i")

BUILTIN: tuple[Family, ...] = (
    Family("segment_distance_squared", _D * 4, _D,
           lambda ax, ay, bx, by: (obstacle.segment_distance_squared(ax, ay, bx, by),),
           ("overlap.test", "note.segment-distance", "constraint.relative"),
           makers(vector_random.segment_distance, _drawn(vector_edges.segment_distance),
                  boundary.SEGMENT_DISTANCE_SQUARED),
           formula=True, arith_model=True, arg_names=("ax", "ay", "bx", "by"), result_names=("d2",),
           **_ports("segment_distance_squared", "oc_SegmentDistanceSquared", "segmentDistanceSquared")),
    Family("support_distance", _D * 8 + ("i",), _D * 3,
           lambda ax, ay, bx, by, r, tau, xx, xy, ov: obstacle.support_distance(
               ax, ay, bx, by, r, tau, xx, xy, bool(ov)),
           ("support.distance", "support.candidates", "support.radial-a", "support.radial-b",
            "support.segment-normals", "support.legs", "support.value", "support.domain-test",
            "support.fallback-direction", "support.result", "overlap.capsule"),
           makers(_cases_support, _drawn(vector_edges.support), boundary.SUPPORT_DISTANCE),
           formula=True, arith_model=True, arg_names=("ax", "ay", "bx", "by", "r", "tau", "xx", "xy", "overlap"),
           result_names=("d", "nx", "ny"), **_ports("support_distance", "oc_SupportDistance", "supportDistance")),
    Family("agent_case_form", _D * 6, _D * 4, obstacle.agent_case_form,
           ("agents.case-form", "agents.w", "agents.cutoff", "agents.leg", "agents.leg-side", "agents.leg-left",
            "agents.leg-right", "agents.leg-u", "agents.leg-tie"),
           makers(vector_random.agent_forms, _drawn(vector_edges.case_form), boundary.AGENT_CASE_FORM),
           formula=True, arith_model=True, arg_names=("ax", "ay", "r", "tau", "xx", "xy"),
           result_names=("ux", "uy", "nx", "ny"), **_ports("agent_case_form", "oc_AgentCaseForm", "agentCaseForm")),
    Family("agent_constraint", _D * 9, _D * 4, constraint.agent_constraint,
           ("agents.inputs", "overlap.test", "agents.responsibility", "agents.case-p", "support.u",
            "agents.form-scope"),
           makers(vector_random.agent_forms, _drawn(vector_edges.agent_constraint), boundary.AGENT_CONSTRAINT),
           formula=True, arith_model=True, arg_names=("ax", "ay", "r", "tau", "dt", "vax", "vay", "vbx", "vby"),
           result_names=("Px", "Py", "Nx", "Ny"),
           **_ports("agent_constraint", "oc_AgentConstraint", "agentConstraint")),
    Family("segment_constraint", _D * 7, _D * 4, constraint.segment_constraint,
           ("segments.inputs", "overlap.test", "segments.responsibility", "support.u", "segments.two-sided"),
           makers(vector_random.segment_constraint, _drawn(vector_edges.segment_constraint),
                  boundary.SEGMENT_CONSTRAINT),
           formula=True, arith_model=True, arg_names=("ax", "ay", "bx", "by", "r", "tau", "dt"),
           result_names=("Px", "Py", "Nx", "Ny"),
           **_ports("segment_constraint", "oc_SegmentConstraint", "segmentConstraint")),
    Family("for_boundary", _D * 6, ("d*",), _for_boundary,
           ("boundary.plane", "boundary.definition", "boundary.degenerate", "boundary.corner", "boundary.far-side"),
           makers(vector_random.for_boundary, _drawn(vector_edges.for_boundary), boundary.FOR_BOUNDARY),
           arg_names=("ax", "ay", "bx", "by", "clearance", "tau"), result_names=("plane",),
           **_ports("for_boundary", "oc_ForBoundary", "forBoundary")),
    Family("solve_closest", _PROGRAM, _LP_RESULT, linear_program.solve_closest,
           ("lp.goal", "lp.order", "lp.start", "lp.visit", "lp.interval", "lp.parallel", "lp.bound", "lp.empty",
            "lp.project", "lp.result", "halfplane.definition"),
           makers(_cases_programs, vector_edges.programs, boundary.SOLVE_CLOSEST),
           arg_names=("lines", "R", "px", "py"), result_names=("vx", "vy", "failed"),
           **_ports("solve_closest", "oc_SolveClosest", "solveClosest")),
    Family("solve_direction", _PROGRAM, _LP_RESULT, linear_program.solve_direction,
           ("lp.direction", "lp.visit", "lp.interval", "lp.parallel", "lp.bound", "lp.empty", "lp.result"),
           makers(_cases_programs, vector_edges.programs, boundary.SOLVE_DIRECTION),
           arg_names=("lines", "R", "ox", "oy"), result_names=("vx", "vy", "failed"),
           **_ports("solve_direction", "oc_SolveDirection", "solveDirection")),
    Family("relax", ("d4*", "i", "d", "i"), ("d", "d"), fallback.relax,
           ("fallback.goal", "fallback.hard-prefix", "fallback.all", "fallback.first", "fallback.skip",
            "fallback.bisector", "fallback.subprogram", "fallback.result"),
           makers(_cases_programs, vector_edges.programs, boundary.RELAX),
           arg_names=("lines", "hardCount", "R", "failed"), result_names=("vx", "vy"),
           **_ports("relax", "oc_Relax", "relax")),
    Family("obstacle_neighbors", ("d", "d", "d", "d4*"), ("i*",),
           lambda x, y, reach, segs: ([k for _, k in neighbors.obstacle_neighbors(x, y, reach, segs)],),
           ("neighbors.obstacles",),
           makers(vector_random.neighbors, _drawn(vector_neighbors.obstacle_neighbors), boundary.OBSTACLE_NEIGHBORS),
           arg_names=("x", "y", "reach", "segments"), result_names=("indices",),
           **_ports("obstacle_neighbors", "oc_ObstacleNeighbors", "obstacleNeighbors")),
    Family("agent_neighbors", ("i", "d*", "d*", "d", "i"), ("i*",),
           lambda i, xs, ys, nd, mn: ([j for _, j in neighbors.agent_neighbors_brute_force(i, xs, ys, nd, mn)],),
           ("neighbors.agents", "neighbors.structure"),
           makers(vector_random.neighbors, _drawn(vector_neighbors.agent_neighbors), boundary.AGENT_NEIGHBORS),
           arg_names=("i", "xs", "ys", "nd", "maxNeighbors"), result_names=("indices",),
           **_ports("agent_neighbors", "oc_AgentNeighbors", "agentNeighbors")),
    Family("splitmix64", ("i", "i"), ("s",), lambda seed, n: (f"{driver.splitmix64(seed, n):016x}",),
           ("driver.splitmix",), makers(vector_random.driver), arg_names=("seed", "n"), result_names=("z",),
           **_ports("splitmix64", "oc_SplitMix64", "splitmix64")),
    Family("uniform", ("i", "i"), ("d",), lambda seed, n: (driver.uniform(seed, n),),
           ("driver.splitmix",), makers(vector_random.driver), formula=True, arg_names=("seed", "n"),
           result_names=("u",), **_ports("uniform", "oc_Uniform", "uniform")),
    Family("preferred_velocity", ("d", "d", "d2*", "i", "d", "d", "d", "i", "d", "i", "i", "i"), _LP_RESULT, _preferred,
           ("driver.waypoints", "driver.arrive", "driver.cruise", "driver.perturbation"),
           makers(vector_random.driver, None, boundary.PREFERRED_VELOCITY), formula=True,
           arg_names=("px", "py", "waypoints", "k", "goalRadius", "maxSpeed", "dt", "seed", "magnitude", "step",
                      "agent", "agentCount"),
           result_names=("prefx", "prefy", "k"),
           **_ports("preferred_velocity", "oc_PreferredVelocity", "preferredVelocity")),
    Family("agent_step", ("i",) + ("d*",) * 9 + ("i*", "d*", "d*", "d4*", "d"), ("d4*", "i", "d", "d"), _agent_step,
           ("step.start-state", "neighbors.obstacles", "neighbors.agents", "fallback.hard-prefix", "lp.result",
            "choice.parameters", "arith.vectors"),
           makers(vector_random.agent_step),
           arg_names=("i", "xs", "ys", "vxs", "vys", "prefxs", "prefys", "radii", "max_speeds", "neighbor_distances",
                      "max_neighbors", "time_horizons", "time_horizon_obsts", "segments", "dt"),
           result_names=("lines", "hardCount", "vx", "vy"),
           **_ports("agent_step", "oc_Simulator_Constraints", "agentStepCase")),
)
"""The built-in families, in the order of the stored vectors (goldens/vectors/) and the matrix."""

FAMILIES = Registry(BUILTIN)
"""Every family: ``BUILTIN`` and the registered ones (data/family.py's ``register``), live."""
FAMILY_BY_NAME = FAMILIES.view(lambda f: f)
"""name -> record, live."""
