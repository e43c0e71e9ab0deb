"""Primitive conformance vectors: inputs and the reference's outputs, as exact bits.

Contract: every family is one entry point of the solver or the driver (docs/protocol.md lists
the argument and result layouts).  ``generate(family)`` makes the family's cases (fixed-seed
random inputs plus hand-picked edges: ties, parallel lines, tolerance boundaries, overlap, the
hard-prefix fallback, ForBoundary's cut-offs) and evaluates them on the reference; the files
``goldens/vectors/<family>.json`` hold them; ``compare`` says which cases a runner got wrong.
Doubles travel as 16 hex digits of their bit pattern, so no decimal conversion is involved.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from ..contract import driver, schema_files
from . import vector_boundaries, vector_edges
from ..errors import InputError
from ..contract.float_bits import hexd, unhexd
from ..jsonfile import read_json
from ..solver import constraint, fallback, linear_program, neighbors, obstacle

VECTOR_FORMAT = "orca-vectors/1"


# Type codes of arguments and results: d double, i int, d4* list of 4-double rows,
# d2* list of pairs, d* list of doubles, i* list of ints, s a string passed as it is.
def encode(code: str, value):
    if code == "s":
        return value
    if code == "d":
        return hexd(value)
    if code == "i":
        return int(value)
    if code == "d*":
        return [hexd(v) for v in value]
    if code == "i*":
        return [int(v) for v in value]
    if code in ("d2*", "d4*"):
        return [[hexd(v) for v in row] for row in value]
    raise ValueError(code)


def decode(code: str, value):
    if code == "s":
        return value
    if code == "d":
        return unhexd(value)
    if code == "i":
        return int(value)
    if code == "d*":
        return [unhexd(v) for v in value]
    if code == "i*":
        return [int(v) for v in value]
    if code in ("d2*", "d4*"):
        return [tuple(unhexd(v) for v in row) for row in value]
    raise ValueError(code)


@dataclass(frozen=True)
class Family:
    """One primitive: argument and result type codes and the reference implementation."""

    name: str
    args: tuple[str, ...]
    result: tuple[str, ...]
    reference: Callable[..., tuple]


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
                time_horizons, time_horizon_obsts, segments, dt):
    """One agent's work in a step, from a start-of-step state given as parallel per-agent lists:
    its constraint list (obstacles first, then agents), the hard count and its new velocity."""
    from ..solver import AgentParams, Simulator
    sim = Simulator(segments)
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


FAMILIES: tuple[Family, ...] = (
    Family("segment_distance_squared", ("d",) * 4, ("d",),
           lambda ax, ay, bx, by: (obstacle.segment_distance_squared(ax, ay, bx, by),)),
    Family("support_distance", ("d",) * 8 + ("i",), ("d", "d", "d"),
           lambda ax, ay, bx, by, r, tau, xx, xy, ov: obstacle.support_distance(
               ax, ay, bx, by, r, tau, xx, xy, bool(ov))),
    Family("agent_case_form", ("d",) * 6, ("d",) * 4, obstacle.agent_case_form),
    Family("agent_constraint", ("d",) * 9, ("d",) * 4, constraint.agent_constraint),
    Family("segment_constraint", ("d",) * 7, ("d",) * 4, constraint.segment_constraint),
    Family("for_boundary", ("d",) * 6, ("d*",), _for_boundary),
    Family("solve_closest", ("d4*", "d", "d", "d"), ("d", "d", "i"), linear_program.solve_closest),
    Family("solve_direction", ("d4*", "d", "d", "d"), ("d", "d", "i"), linear_program.solve_direction),
    Family("relax", ("d4*", "i", "d", "i"), ("d", "d"), fallback.relax),
    Family("obstacle_neighbors", ("d", "d", "d", "d4*"), ("i*",),
           lambda x, y, reach, segs: ([k for _, k in neighbors.obstacle_neighbors(x, y, reach, segs)],)),
    Family("agent_neighbors", ("i", "d*", "d*", "d", "i"), ("i*",),
           lambda i, xs, ys, nd, mn: ([j for _, j in neighbors.agent_neighbors_brute_force(i, xs, ys, nd, mn)],)),
    Family("splitmix64", ("i", "i"), ("s",), lambda seed, n: (f"{driver.splitmix64(seed, n):016x}",)),
    Family("uniform", ("i", "i"), ("d",), lambda seed, n: (driver.uniform(seed, n),)),
    Family("preferred_velocity", ("d", "d", "d2*", "i", "d", "d", "d", "i", "d", "i", "i", "i"),
           ("d", "d", "i"), _preferred),
    Family("agent_step", ("i",) + ("d*",) * 9 + ("i*", "d*", "d*", "d4*", "d"), ("d4*", "i", "d", "d"), _agent_step),
)
FAMILY_BY_NAME = {f.name: f for f in FAMILIES}


# ----------------------------------------------------------------------------- generation

def _mag(rng: random.Random) -> float:
    return rng.choice([0.01, 0.3, 1.0, 3.0, 10.0, 100.0])


def _pt(rng: random.Random, scale: float) -> tuple[float, float]:
    return rng.uniform(-scale, scale), rng.uniform(-scale, scale)


def _unit(rng: random.Random) -> tuple[float, float]:
    from math import sqrt
    while True:
        x, y = rng.uniform(-1, 1), rng.uniform(-1, 1)
        n = sqrt(x * x + y * y)
        if 0.1 < n <= 1.0:
            return x / n, y / n


def _lines(rng: random.Random, count: int, radius: float) -> list[tuple[float, float, float, float]]:
    out = []
    for _ in range(count):
        nx, ny = _unit(rng)
        if out and rng.random() < 0.15:  # parallel or anti-parallel to an earlier line
            _, _, mx, my = rng.choice(out)
            nx, ny = (mx, my) if rng.random() < 0.5 else (-mx, -my)
        offset = rng.uniform(-1.2, 0.9) * radius
        out.append((nx * -offset, ny * -offset, nx, ny))
    return out


_TOUCHING = (
    (0.5086119013236126, -0.08284278385041717, 0.5914546851156848, 0.42576911748269863, 0.5153144603095349),
    (0.37905403830737316, -0.17289918276210936, 0.5519532207490924, 0.20615485569140446, 0.4166246408422488),
    (-0.1298135473172768, -0.38893305144990603, 0.25911950423512375, -0.5187465984601001, 0.41002496945580047),
)
"""Segments whose end a has a.a < r*r by rounding while SegmentDistanceSquared > r*r (found by search)."""


def _cases_geometry(name: str, rng: random.Random) -> list[list]:
    cases: list[list] = []
    if name == "segment_distance_squared":
        for _ in range(300):
            s = _mag(rng)
            a = _pt(rng, s)
            b = a if rng.random() < 0.1 else _pt(rng, s)
            cases.append([*a, *b])
        cases += [[1.0, -1.0, 1.0, 1.0], [1.0, 1.0, 2.0, 2.0], [-2.0, -2.0, -1.0, -1.0], [3.0, 4.0, 3.0, 4.0],
                  [0.0, 0.0, 1.0, 0.0], [-1.0, 0.0, 1.0, 0.0]]
    elif name == "support_distance":
        for _ in range(600):
            s = _mag(rng)
            r = rng.uniform(0.05, 2.0)
            tau = rng.choice([0.1, 0.5, 1.0, 2.0, 5.0, 10.0])
            a = _pt(rng, s)
            b = a if rng.random() < 0.3 else _pt(rng, s)
            x = _pt(rng, rng.choice([0.1, 1.0, 3.0]))
            d2 = obstacle.segment_distance_squared(*a, *b)
            overlap = d2 <= r * r
            dt = rng.choice([0.05, 0.1, 0.25])
            cases.append([*a, *b, r, dt if overlap else tau, *x, int(overlap)])
        # x exactly at a/dt (wa = 0 -> fallback direction), coincident agents, symmetric segment
        # segments touching within rounding: an end inside r although the distance is above r,
        # so rho2 - r*r < 0 and that end's legs are skipped (spec note 5)
        for ax, ay, bx, by, r in _TOUCHING:
            cases.append([ax, ay, bx, by, r, 2.0, 0.1, -0.2, 0])
        cases += [[0.3, 0.4, 0.6, 0.8, 1.0, 0.5, 1.2, 1.6, 1],  # x = b/dt exactly: wb = 0
                  [0.3, 0.4, 0.3, 0.4, 1.0, 0.5, 0.6, 0.8, 1], [0.0, 0.0, 0.0, 0.0, 1.0, 0.1, 0.0, 0.0, 1],
                  [5.0, -1.0, 5.0, 1.0, 0.5, 1.0, 0.0, 0.0, 0], [-1.0, 0.0, 1.0, 0.0, 0.5, 0.1, 0.0, 0.0, 1],
                  [2.0, 0.0, 2.0, 0.0, 1.0, 2.0, 1.0, 0.0, 0], [4.0, 0.0, 4.0, 0.0, 1.0, 2.0, 3.0, 0.0, 0]]
    elif name in ("agent_case_form", "agent_constraint"):
        for _ in range(600):
            r = rng.uniform(0.05, 2.0)
            while True:
                a = _pt(rng, rng.choice([1.0, 3.0, 10.0]))
                if a[0] * a[0] + a[1] * a[1] > r * r * 1.0001 or name == "agent_constraint":
                    break
            tau = rng.choice([0.5, 1.0, 2.0, 5.0, 10.0])
            if name == "agent_case_form":
                cases.append([*a, r, tau, *_pt(rng, rng.choice([0.1, 1.0, 4.0]))])
            else:
                cases.append([*a, r, tau, rng.choice([0.05, 0.1, 0.25]), *_pt(rng, 1.5), *_pt(rng, 1.5)])
        if name == "agent_case_form":
            # cross == 0 (right leg), cutoff, touching from outside, the lesson's example
            cases += [[4.0, 0.0, 1.0, 2.0, 3.0, 0.0], [4.0, 0.0, 1.0, 2.0, 1.0, 0.0], [-6.0, 0.0, 0.8, 5.0, -2.0, 0.0],
                      [1.0000000000000002, 0.0, 1.0, 2.0, 0.5, 0.0], [6.0, 0.5, 0.8, 5.0, 2.0, 0.0],
                      [6.0, 0.0, 0.8, 5.0, 2.0, 0.0]]
        else:
            cases += [[0.0, 0.0, 1.0, 2.0, 0.1, 0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 1.0, 2.0, 0.1, 0.5, 0.0, -0.5, 0.0],
                      [6.0, 0.5, 0.8, 5.0, 0.1, 1.0, 0.0, -1.0, 0.0], [0.6, 0.0, 1.0, 2.0, 0.1, 6.0, 0.0, 0.0, 0.0]]
    elif name == "segment_constraint":
        for _ in range(500):
            s = rng.choice([1.0, 3.0, 10.0])
            a = _pt(rng, s)
            b = a if rng.random() < 0.1 else _pt(rng, s)
            cases.append([*a, *b, rng.uniform(0.1, 1.5), rng.choice([0.5, 1.0, 2.0, 5.0]), rng.choice([0.05, 0.1, 0.25])])
        cases += [[ax, ay, bx, by, r, 2.0, 0.1] for ax, ay, bx, by, r in _TOUCHING]
        cases += [[-1.0, 0.0, 1.0, 0.0, 0.5, 2.0, 0.1], [-1.0, 0.3, 1.0, 0.3, 0.5, 2.0, 0.1],
                  [0.5, 0.5, 0.5, 0.5, 0.5, 2.0, 0.1], [0.0, 0.5, 3.0, 0.5, 0.5, 2.0, 0.1],
                  [0.0, 0.5000000000000001, 3.0, 0.5000000000000001, 0.5, 2.0, 0.1]]
    elif name == "for_boundary":
        for _ in range(400):
            s = rng.choice([1.0, 3.0, 10.0])
            a = _pt(rng, s)
            b = a if rng.random() < 0.05 else _pt(rng, s)
            cases.append([*a, *b, rng.choice([0.0, 0.1, 0.5]), rng.choice([0.5, 1.0, 2.0])])
        cases += [[-1.0, -1.0, 1.0, -1.0, 0.1, 1.0], [1.0, -1.0, -1.0, -1.0, 0.1, 1.0], [0.0, 0.0, 0.0, 0.0, 0.1, 1.0],
                  [-1.0, -0.05, 1.0, -0.05, 0.1, 1.0], [0.0, -1.0, 2.0, -1.0, 0.1, 1.0], [-2.0, -1.0, 0.0, -1.0, 0.1, 1.0],
                  [-1.0, 1e-7, 1.0, 1e-7, 0.0, 1.0], [-1.0, 2e-6, 1.0, 2e-6, 0.0, 1.0]]
    return cases


def _cases_programs(name: str, rng: random.Random) -> list[list]:
    cases: list[list] = []
    for n in range(500):
        radius = rng.choice([0.0, 0.5, 1.0, 2.0]) if n % 10 == 0 else rng.uniform(0.3, 3.0)
        lines = _lines(rng, rng.randint(0, 10), max(radius, 0.5))
        if name == "solve_closest":
            cases.append([lines, radius, *_pt(rng, 2.0 * max(radius, 0.5))])
        elif name == "solve_direction":
            cases.append([lines, radius, *_unit(rng)])
        else:
            hard = rng.randint(0, min(3, len(lines)))
            # hard prefix that admits the zero velocity, like the text's obstacle constraints,
            # except now and then (deep wall overlap): then the failure may be inside it
            for k in range(hard):
                px, py, nx, ny = lines[k]
                if px * nx + py * ny > 0.0 and rng.random() < 0.8:
                    lines[k] = (-px, -py, nx, ny)
            pref = _pt(rng, 2.0)
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


def _cases_neighbors(name: str, rng: random.Random) -> list[list]:
    cases: list[list] = []
    if name == "obstacle_neighbors":
        for _ in range(200):
            segs = [(*_pt(rng, 6.0), *_pt(rng, 6.0)) for _ in range(rng.randint(0, 8))]
            cases.append([*_pt(rng, 3.0), rng.uniform(0.5, 5.0), segs])
        square = [(-1.0, -1.0, 1.0, -1.0), (1.0, -1.0, 1.0, 1.0), (1.0, 1.0, -1.0, 1.0), (-1.0, 1.0, -1.0, -1.0)]
        cases += [[0.0, 0.0, 1.0, square], [0.0, 0.0, 0.99, square], [0.0, 0.0, 2.0, list(reversed(square))]]
    else:
        for _ in range(200):
            n = rng.randint(1, 40)
            if rng.random() < 0.3:  # lattice: exact equal distances
                xs = [float(rng.randint(-3, 3)) for _ in range(n)]
                ys = [float(rng.randint(-3, 3)) for _ in range(n)]
            else:
                xs = [rng.uniform(-5, 5) for _ in range(n)]
                ys = [rng.uniform(-5, 5) for _ in range(n)]
            cases.append([rng.randrange(n), xs, ys, rng.choice([0.0, 1.0, 2.0, 3.0, rng.uniform(0.5, 6)]),
                          rng.choice([0, 1, 3, 10, 100])])
        cases += [[0, [0.0, 1.0, 0.0, -1.0, 0.0, 5.0], [0.0, 0.0, 1.0, 0.0, -1.0, 0.0], 5.0, 3]]
    return cases


def _cases_driver(name: str, rng: random.Random) -> list[list]:
    cases: list[list] = []
    seeds = [0, 1, 7, 12345, 2 ** 53 - 1, 2 ** 32 + 5]
    if name in ("splitmix64", "uniform"):
        for seed in seeds:
            for n in (0, 1, 2, 3, 1000, 2 ** 40 + 3):
                cases.append([seed, n])
        for _ in range(100):
            cases.append([rng.randrange(2 ** 53), rng.randrange(2 ** 40)])
    else:
        for _ in range(300):
            count = rng.randint(1, 5)
            waypoints = [_pt(rng, 5.0) for _ in range(rng.randint(1, 4))]
            cases.append([*_pt(rng, 5.0), waypoints, rng.randrange(len(waypoints)),
                          rng.choice([0.0, 0.1, 0.5, 2.0]), rng.choice([0.0, 0.5, 1.0, 2.0]),
                          rng.choice([0.05, 0.1, 0.25]), rng.choice(seeds), rng.choice([0.0, 0.0001, 0.01]),
                          rng.randrange(10000), rng.randrange(count), count])
        cases += [[0.0, 0.0, [(0.25, 0.0)], 0, 0.01, 1.0, 0.1, 0, 0.0, 0, 0, 1],
                  [0.0, 0.0, [(0.3, 0.0), (0.3, 4.0), (9.0, 9.0)], 0, 0.5, 1.0, 0.1, 0, 0.0, 0, 0, 1],
                  [0.0, 0.0, [(0.0, 0.0)], 0, 0.1, 1.0, 0.1, 0, 0.0, 0, 0, 1]]
    return cases


def _crowd_walls(rng: random.Random, x: float, y: float) -> list[tuple[float, float, float, float]]:
    """Random walls, and now and then walls at (near-)equal distances around (x, y): mirrored
    pairs, and pairs a few ulps apart, so that obstacle order and reach ties matter."""
    walls = []
    for _ in range(rng.randint(0, 4)):
        (ax, ay), (bx, by) = _pt(rng, 3.0), _pt(rng, 3.0)
        walls.append((x + ax, y + ay, x + bx, y + by))
    if rng.random() < 0.4:
        d = rng.choice([0.5, 1.0, rng.uniform(0.3, 2.0)])
        ulps = rng.choice([0, 1, 3])
        far = d + ulps * 2.0 ** -52 * d
        walls += [(x - 1.0, y + d, x + 1.0, y + d), (x + 1.0, y - far, x - 1.0, y - far)]
        if rng.random() < 0.5:
            walls += [(x + d, y - 1.0, x + d, y + 1.0)]
        rng.shuffle(walls)
    return walls


def _cases_agent_step(name: str, rng: random.Random) -> list[list]:
    """Small crowds with walls and per-agent parameters (horizons that differ between agents and
    obstacles, speeds, radii, neighbour limits 0 and 1), some starting in overlap."""
    cases: list[list] = []
    for _ in range(150):
        n = rng.choice([1, 2, 3, 4, 5, 6, 6])
        x0, y0 = _pt(rng, rng.choice([1.0, 10.0, 100.0]))
        xs, ys = [], []
        for k in range(n):
            if k and rng.random() < 0.3:  # start in overlap with an earlier agent
                j = rng.randrange(k)
                dx, dy = _pt(rng, 0.4)
                xs.append(xs[j] + dx)
                ys.append(ys[j] + dy)
            else:
                dx, dy = _pt(rng, 2.5)
                xs.append(x0 + dx)
                ys.append(y0 + dy)
        speeds = [rng.choice([0.0, 0.5, 1.0, 2.0, rng.uniform(0.2, 2.0)]) for _ in range(n)]
        vel = [_pt(rng, s) for s in speeds]
        pref = [_pt(rng, 1.5 * s) for s in speeds]
        i = rng.randrange(n)
        cases.append([
            i, xs, ys, [v[0] for v in vel], [v[1] for v in vel], [p[0] for p in pref], [p[1] for p in pref],
            [rng.choice([0.25, 0.5, rng.uniform(0.1, 0.8)]) for _ in range(n)], speeds,
            [rng.choice([0.0, 1.0, 3.0, rng.uniform(0.5, 6.0)]) for _ in range(n)],
            [rng.choice([0, 1, 1, 2, 10]) for _ in range(n)],
            [rng.choice([0.5, 1.0, 2.0, 5.0, rng.uniform(0.3, 4.0)]) for _ in range(n)],
            [rng.choice([0.25, 1.0, 2.0, rng.uniform(0.2, 3.0)]) for _ in range(n)],
            _crowd_walls(rng, xs[i], ys[i]), rng.choice([0.05, 0.1, 0.25])])
    # a wall exactly at reach (2 * 1 + 0.5 = 2.5): included (<=); and one beyond it
    for y in (2.5, 2.5000000000000004):
        cases.append([0, [0.0, 0.75], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [1.0, 0.0], [0.0, 0.0], [0.5, 0.5],
                      [1.0, 1.0], [2.0, 2.0], [1, 1], [3.0, 3.0], [2.0, 2.0], [(-1.0, y, 1.0, y)], 0.1])
    return cases


_MAKERS = {
    "segment_distance_squared": _cases_geometry, "support_distance": _cases_geometry,
    "agent_case_form": _cases_geometry, "agent_constraint": _cases_geometry,
    "segment_constraint": _cases_geometry, "for_boundary": _cases_geometry,
    "solve_closest": _cases_programs, "solve_direction": _cases_programs, "relax": _cases_programs,
    "obstacle_neighbors": _cases_neighbors, "agent_neighbors": _cases_neighbors,
    "splitmix64": _cases_driver, "uniform": _cases_driver, "preferred_velocity": _cases_driver,
    "agent_step": _cases_agent_step,
}


def raw_cases(name: str, seed: int | None = None) -> list[list]:
    """Fixed-seed cases of one family (the stored vectors use the family's name as the seed;
    other seeds give fresh random cases of the same kinds, e.g. for mutation evidence)."""
    tag = f"orca-vectors/{name}" if seed is None else f"orca-vectors/{name}/{seed}"
    rng = random.Random(tag)
    cases = _MAKERS[name](name, rng)
    return cases + vector_edges.cases(name, rng) + vector_boundaries.cases(name)


def generate(name: str, seed: int | None = None) -> list[dict]:
    """The family's cases with encoded args and the reference's encoded result."""
    family = FAMILY_BY_NAME[name]
    out = []
    for raw in raw_cases(name, seed):
        args = [encode(c, v) for c, v in zip(family.args, raw)]
        out.append({"args": args, "result": evaluate_reference(family, args)})
    return out


def evaluate_reference(family: Family, encoded_args: list) -> list:
    values = [decode(c, v) for c, v in zip(family.args, encoded_args)]
    result = family.reference(*values)
    return [encode(c, v) for c, v in zip(family.result, result)]


# ----------------------------------------------------------------------------- files

def vector_path(folder: Path, name: str) -> Path:
    return folder / f"{name}.json"


def to_document(name: str, cases: list[dict]) -> dict:
    family = FAMILY_BY_NAME[name]
    return {"format": VECTOR_FORMAT, "family": name, "args": list(family.args),
            "result": list(family.result), "cases": cases}


_READ: dict[tuple[str, int, int], tuple[str, list[dict]]] = {}
"""Vector files already read and validated, by (path, mtime, size): the schema check costs six
times the parse (0.18 s for the 15 files), and the matrix, controls and fuzz read them per
column, per control and per runner."""


def read_vectors(path: Path) -> tuple[str, list[dict]]:
    """(family name, cases) of one vector file, validated; read once per process while the file
    is unchanged, so the cases are shared: callers read them and never change them."""
    try:
        stat = path.stat()
    except OSError as err:
        raise InputError(str(path), "", f"cannot read: {err}") from None
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    if key not in _READ:
        _READ[key] = _read_vectors(path)
    return _READ[key]


def _read_vectors(path: Path) -> tuple[str, list[dict]]:
    file = str(path)
    data = read_json(path)
    found = schema_files.problem("vectors", data)  # conformance/schemas/vectors.schema.json
    if found:
        raise InputError(file, *found)
    name = data["family"]
    if name not in FAMILY_BY_NAME:
        raise InputError(file, "family", f"unknown family {name!r}")
    family = FAMILY_BY_NAME[name]
    for key, codes in (("args", family.args), ("result", family.result)):
        if tuple(data[key]) != codes:
            raise InputError(file, key, f"type codes {data[key]} are not the family's {list(codes)}")
    return name, data["cases"]


def load_all(folder: Path) -> dict[str, list[dict]]:
    """Every family's cases, in registry order; a missing file is an error."""
    out = {}
    for family in FAMILIES:
        path = vector_path(folder, family.name)
        if not path.exists():
            raise InputError(str(path), "", "missing vector file (orca-conformance goldens regen)")
        name, cases = read_vectors(path)
        if name != family.name:
            raise InputError(str(path), "family", f"file holds {name!r}")
        out[name] = cases
    return out


def compare(cases: Sequence[dict], results: Sequence[list]) -> list[int]:
    """Indices of the cases whose result differs from the expected one (bit for bit)."""
    if len(results) != len(cases):
        return list(range(len(cases)))
    return [k for k, (case, got) in enumerate(zip(cases, results)) if case["result"] != got]


def replay_reference(folder: Path) -> tuple[int, int]:
    """Re-evaluate every stored case on the reference (used by coverage): (cases, mismatches)."""
    total = bad = 0
    for name, cases in load_all(folder).items():
        family = FAMILY_BY_NAME[name]
        total += len(cases)
        bad += sum(evaluate_reference(family, case["args"]) != case["result"] for case in cases)
    return total, bad


def regenerate_all(folder: Path, names: Sequence[str] | None = None) -> list[tuple[str, str]]:
    """Write every family's file, or the named ones (atomically, only when it changed);
    (family, verdict) pairs."""
    from ..jsonfile import write_json_atomic
    report = []
    for family in FAMILIES:
        if names is not None and family.name not in names:
            continue
        path = vector_path(folder, family.name)
        document = to_document(family.name, generate(family.name))
        if path.exists():
            old = json.loads(path.read_text(encoding="utf-8"))
            if old == document:
                report.append((family.name, "unchanged"))
                continue
            first = next((k for k, (a, b) in enumerate(zip(old.get("cases", []), document["cases"])) if a != b),
                         min(len(old.get("cases", [])), len(document["cases"])))
            verdict = f"changed (first differing case {first})"
        else:
            verdict = "new"
        write_json_atomic(path, document)
        report.append((family.name, verdict))
    return report


def check_all(folder: Path) -> list[str]:
    """Problems of the stored vectors against the reference: missing files, changed inputs
    (the generator moved on), or results the reference no longer produces."""
    problems = []
    for family in FAMILIES:
        path = vector_path(folder, family.name)
        if not path.exists():
            problems.append(f"{family.name}: missing {path.name}")
            continue
        name, cases = read_vectors(path)
        fresh = generate(family.name)
        if [c["args"] for c in cases] != [c["args"] for c in fresh]:
            problems.append(f"{family.name}: stored inputs differ from the generator's (regenerate)")
            continue
        bad = compare(cases, [c["result"] for c in fresh])
        if bad:
            problems.append(f"{family.name}: the reference now differs on {len(bad)} cases, first case {bad[0]}")
    known = {vector_path(folder, f.name).name for f in FAMILIES}
    for path in sorted(folder.glob("*.json")):
        if path.name not in known:
            problems.append(f"{path.name}: orphan vector file (no such family)")
    return problems
