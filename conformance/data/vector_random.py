"""Random inputs of the vector families that are drawn without asking the reference.

Contract: each public ``(name, rng) -> raw argument lists`` function below is the random maker
(data/family.py's kind ``random``) of the families data/vector_family.py gives it, for every
family whose random cases need no result of the solver to be drawn (distances,
agent and segment constraints, ForBoundary, neighbor selection, the driver's rules, one
agent's step); ``magnitude``, ``point``, ``unit``, ``program_lines`` and ``TOUCHING`` are the
draws and the found segments that data/vector_family.py's own makers (the support form and the
linear programs, which consult the reference) share.  Every value comes from the caller's rng
in a fixed order: the stored vectors depend on it bit for bit.  Inputs only: nothing here
imports the solver or the driver (the census shares this module).
"""

from __future__ import annotations

import random


def magnitude(rng: random.Random) -> float:
    """A scale from 0.01 to 100, for coordinates drawn with ``point``."""
    return rng.choice([0.01, 0.3, 1.0, 3.0, 10.0, 100.0])


def point(rng: random.Random, scale: float) -> tuple[float, float]:
    """A uniform point of the square [-scale, scale]^2."""
    return rng.uniform(-scale, scale), rng.uniform(-scale, scale)


def unit(rng: random.Random) -> tuple[float, float]:
    """A unit vector of uniform direction (by rejection, then normalised)."""
    from math import sqrt
    while True:
        x, y = rng.uniform(-1, 1), rng.uniform(-1, 1)
        n = sqrt(x * x + y * y)
        if 0.1 < n <= 1.0:
            return x / n, y / n


def program_lines(rng: random.Random, count: int, radius: float) -> list[tuple[float, float, float, float]]:
    """Program lines at offsets within the disc's reach, some (anti-)parallel to an earlier one."""
    out = []
    for _ in range(count):
        nx, ny = unit(rng)
        if out and rng.random() < 0.15:  # parallel or anti-parallel to an earlier line
            _, _, mx, my = rng.choice(out)
            nx, ny = (mx, my) if rng.random() < 0.5 else (-mx, -my)
        offset = rng.uniform(-1.2, 0.9) * radius
        out.append((nx * -offset, ny * -offset, nx, ny))
    return out


TOUCHING = (
    (0.5086119013236126, -0.08284278385041717, 0.5914546851156848, 0.42576911748269863, 0.5153144603095349),
    (0.37905403830737316, -0.17289918276210936, 0.5519532207490924, 0.20615485569140446, 0.4166246408422488),
    (-0.1298135473172768, -0.38893305144990603, 0.25911950423512375, -0.5187465984601001, 0.41002496945580047),
)
"""Segments whose end a has a.a < r*r by rounding while SegmentDistanceSquared > r*r (found by search)."""


def segment_distance(name: str, rng: random.Random) -> list[list]:
    cases: list[list] = []
    for _ in range(300):
        s = magnitude(rng)
        a = point(rng, s)
        b = a if rng.random() < 0.1 else point(rng, s)
        cases.append([*a, *b])
    cases += [[1.0, -1.0, 1.0, 1.0], [1.0, 1.0, 2.0, 2.0], [-2.0, -2.0, -1.0, -1.0], [3.0, 4.0, 3.0, 4.0],
              [0.0, 0.0, 1.0, 0.0], [-1.0, 0.0, 1.0, 0.0]]
    return cases


def agent_forms(name: str, rng: random.Random) -> list[list]:
    cases: list[list] = []
    for _ in range(600):
        r = rng.uniform(0.05, 2.0)
        while True:
            a = point(rng, rng.choice([1.0, 3.0, 10.0]))
            if a[0] * a[0] + a[1] * a[1] > r * r * 1.0001 or name == "agent_constraint":
                break
        tau = rng.choice([0.5, 1.0, 2.0, 5.0, 10.0])
        if name == "agent_case_form":
            cases.append([*a, r, tau, *point(rng, rng.choice([0.1, 1.0, 4.0]))])
        else:
            cases.append([*a, r, tau, rng.choice([0.05, 0.1, 0.25]), *point(rng, 1.5), *point(rng, 1.5)])
    if name == "agent_case_form":
        # cross == 0 (right leg), cutoff, touching from outside, the lesson's example
        cases += [[4.0, 0.0, 1.0, 2.0, 3.0, 0.0], [4.0, 0.0, 1.0, 2.0, 1.0, 0.0], [-6.0, 0.0, 0.8, 5.0, -2.0, 0.0],
                  [1.0000000000000002, 0.0, 1.0, 2.0, 0.5, 0.0], [6.0, 0.5, 0.8, 5.0, 2.0, 0.0],
                  [6.0, 0.0, 0.8, 5.0, 2.0, 0.0]]
    else:
        cases += [[0.0, 0.0, 1.0, 2.0, 0.1, 0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 1.0, 2.0, 0.1, 0.5, 0.0, -0.5, 0.0],
                  [6.0, 0.5, 0.8, 5.0, 0.1, 1.0, 0.0, -1.0, 0.0], [0.6, 0.0, 1.0, 2.0, 0.1, 6.0, 0.0, 0.0, 0.0]]
    return cases


def segment_constraint(name: str, rng: random.Random) -> list[list]:
    cases: list[list] = []
    for _ in range(500):
        s = rng.choice([1.0, 3.0, 10.0])
        a = point(rng, s)
        b = a if rng.random() < 0.1 else point(rng, s)
        cases.append([*a, *b, rng.uniform(0.1, 1.5), rng.choice([0.5, 1.0, 2.0, 5.0]), rng.choice([0.05, 0.1, 0.25])])
    cases += [[ax, ay, bx, by, r, 2.0, 0.1] for ax, ay, bx, by, r in TOUCHING]
    cases += [[-1.0, 0.0, 1.0, 0.0, 0.5, 2.0, 0.1], [-1.0, 0.3, 1.0, 0.3, 0.5, 2.0, 0.1],
              [0.5, 0.5, 0.5, 0.5, 0.5, 2.0, 0.1], [0.0, 0.5, 3.0, 0.5, 0.5, 2.0, 0.1],
              [0.0, 0.5000000000000001, 3.0, 0.5000000000000001, 0.5, 2.0, 0.1]]
    return cases


def for_boundary(name: str, rng: random.Random) -> list[list]:
    cases: list[list] = []
    for _ in range(400):
        s = rng.choice([1.0, 3.0, 10.0])
        a = point(rng, s)
        b = a if rng.random() < 0.05 else point(rng, s)
        cases.append([*a, *b, rng.choice([0.0, 0.1, 0.5]), rng.choice([0.5, 1.0, 2.0])])
    cases += [[-1.0, -1.0, 1.0, -1.0, 0.1, 1.0], [1.0, -1.0, -1.0, -1.0, 0.1, 1.0], [0.0, 0.0, 0.0, 0.0, 0.1, 1.0],
              [-1.0, -0.05, 1.0, -0.05, 0.1, 1.0], [0.0, -1.0, 2.0, -1.0, 0.1, 1.0], [-2.0, -1.0, 0.0, -1.0, 0.1, 1.0],
              [-1.0, 1e-7, 1.0, 1e-7, 0.0, 1.0], [-1.0, 2e-6, 1.0, 2e-6, 0.0, 1.0]]
    return cases


def neighbors(name: str, rng: random.Random) -> list[list]:
    cases: list[list] = []
    if name == "obstacle_neighbors":
        for _ in range(200):
            segs = [(*point(rng, 6.0), *point(rng, 6.0)) for _ in range(rng.randint(0, 8))]
            cases.append([*point(rng, 3.0), rng.uniform(0.5, 5.0), segs])
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


def driver(name: str, rng: random.Random) -> list[list]:
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
            waypoints = [point(rng, 5.0) for _ in range(rng.randint(1, 4))]
            cases.append([*point(rng, 5.0), waypoints, rng.randrange(len(waypoints)),
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
        (ax, ay), (bx, by) = point(rng, 3.0), point(rng, 3.0)
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


def agent_step(name: str, rng: random.Random) -> list[list]:
    """Small crowds with walls and per-agent parameters (horizons that differ between agents and
    obstacles, speeds, radii, neighbor limits 0 and 1), some starting in overlap."""
    cases: list[list] = []
    for _ in range(150):
        n = rng.choice([1, 2, 3, 4, 5, 6, 6])
        x0, y0 = point(rng, rng.choice([1.0, 10.0, 100.0]))
        xs, ys = [], []
        for k in range(n):
            if k and rng.random() < 0.3:  # start in overlap with an earlier agent
                j = rng.randrange(k)
                dx, dy = point(rng, 0.4)
                xs.append(xs[j] + dx)
                ys.append(ys[j] + dy)
            else:
                dx, dy = point(rng, 2.5)
                xs.append(x0 + dx)
                ys.append(y0 + dy)
        speeds = [rng.choice([0.0, 0.5, 1.0, 2.0, rng.uniform(0.2, 2.0)]) for _ in range(n)]
        vel = [point(rng, s) for s in speeds]
        pref = [point(rng, 1.5 * s) for s in speeds]
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
