"""Edge cases of the primitive families: inputs built so that the solver's comparisons tie
and its tolerances bite.

Contract: each public function below (``segment_distance``, ``support``, ``case_form``,
``agent_constraint``, ``segment_constraint``, ``for_boundary``, ``programs``; the neighbor
queries' are vector_neighbors.py's) is the edge maker (data/family.py's kind ``edges``) of the
families data/vector_family.py gives it (``programs`` takes the family's name too; the others
only the rng), and returns raw argument lists, drawn from
distributions that put values on (or within rounding of) the boundaries that uniform random
inputs almost never reach: a clamp parameter of exactly 0 or 1, a squared distance equal to
r*r, a domain test within its tolerance, near-parallel lines at the parallel epsilon, lines
through lattice points where feasible intervals shrink to a point, cells of the neighbor
grid with their boundaries on agents.  The mutation run (docs/mutation/report.md) showed
which of these a port can get wrong while passing uniform random inputs; each block below
names the decision it aims at (the lattice draws they build on are in vector_lattice.py, the
neighbor queries' cases in vector_neighbors.py).
Inputs only: results always come from the reference.
"""

from __future__ import annotations

import random
from math import sqrt

from ..solver import linear_program, obstacle
from .vector_lattice import lattice_lines, near_parallel_lines, small

BOUNDARY_EPSILON = 1e-6
"""ForBoundary's margin (the C port's OC_BOUNDARY_EPSILON; docs/spec-notes.md)."""

def segment_distance(rng: random.Random) -> list[list]:
    cases = []
    for _ in range(150):
        # the foot of the origin at an end: b perpendicular to b - a, so t rounds to 0 or 1
        s = rng.choice([0.3, 1.0, 3.0, 100.0])
        b = (rng.uniform(-s, s), rng.uniform(-s, s))
        k = rng.uniform(-2.0, 2.0)
        a = (b[0] - k * b[1], b[1] + k * b[0])
        cases.append([*a, *b] if rng.random() < 0.5 else [*b, *a])
    # t rounds to exactly 1 while a + (b - a) * 1 is not b: a port that takes the end b itself
    # at t == 1, instead of a + e * t, gives other bits
    cases += [[1.0, 0.0, 1e-17, 0.0], [0.6, 0.8, 1e-17, 2e-17], [-3.0, 1.0, -1e-16, 3e-17]]
    return cases


def _leg_normals(px: float, py: float, r: float) -> list[tuple[float, float]]:
    """The reference's two leg normals of the point p (none when p is inside r by rounding)."""
    legs: list[tuple[float, float]] = []
    obstacle._append_legs(legs, px, py, r)
    return legs


SUPPORT_TOLERANCE = 1e-9
"""The support form's domain tolerance factor (the C port's OC_TOLERANCE)."""


def _domain_tie(rng: random.Random, r: float = 0.5) -> tuple[float, tuple[float, float], tuple[float, float]] | None:
    """An end a = (A, 0) and an x whose radial candidate n = (x - a)/|x - a| (tau = 1) has
    n.a + r equal to the tolerance 1e-9 * (|a| + r) exactly, both computed as the reference
    does: the domain test's <= then decides alone.  Built, not searched: T = k * 2^-54 makes
    T - r a double, L with fl(1e-9 * L) == T gives A = L - r, and x.y is stepped ulp by ulp
    until the rounded n.x times A lands on T - r.  Returns (A, x, n), or None."""
    for _ in range(50):
        tolerance = rng.randint(30_000_000, 36_000_000) * 2.0 ** -54
        for ulps in range(-4, 5):
            length = tolerance / SUPPORT_TOLERANCE + ulps * 2.0 ** -52
            end = length - r
            if SUPPORT_TOLERANCE * length != tolerance or sqrt(end * end) + r != length:
                continue
            wx = rng.uniform(-0.45, -0.3)
            xx = end + wx
            wax = xx - end
            wy = sqrt(max(0.0, (wax * end / (tolerance - r)) ** 2 - wax * wax))
            for step in range(400):
                xy = wy + (step - 200) * 2.0 ** -52
                la = sqrt(wax * wax + xy * xy)
                nx, ny = wax / la, xy / la
                if nx * end + ny * 0.0 + r == tolerance:
                    return end, (xx, xy), (nx, ny)
    return None


def _domain_ties(rng: random.Random) -> list[list]:
    """Segments with one end's domain test exactly at its tolerance (see _domain_tie), the other
    end placed beyond the candidate's tangent line, in both orders (the tie on a, then on b)."""
    cases = []
    for _ in range(12):
        tie = _domain_tie(rng)
        if tie is None:
            continue
        end, x, n = tie
        for _ in range(4):
            angle = rng.uniform(-1.0, 1.0)
            c, s = 1.0 - angle * angle / 2.0, angle  # a rough rotation; exactness is not needed here
            dx, dy = -n[0] * c + n[1] * s, -n[1] * c - n[0] * s
            length = rng.uniform(0.2, 3.0)
            a, b = (end, 0.0), (end + dx * length, dy * length)
            if obstacle.segment_distance_squared(*a, *b) <= 0.25:
                continue
            cases.append([*a, *b, 0.5, 1.0, *x, 0])
            cases.append([*b, *a, 0.5, 1.0, *x, 0])
    return cases


def _support_leg_tangents(rng: random.Random) -> list[list]:
    """Ends within a tolerance of a leg tangent of the other end."""
    cases = []
    for _ in range(200):
        # b within a tolerance of a leg tangent of a: the domain test n.b + r <= tolB decides
        r = rng.uniform(0.1, 1.5)
        theta_r = rng.uniform(1.05, 4.0) * r
        ux, uy = rng.uniform(-1, 1), rng.uniform(-1, 1)
        norm = sqrt(ux * ux + uy * uy) or 1.0
        a = (ux / norm * theta_r, uy / norm * theta_r)
        legs = _leg_normals(*a, r)
        if not legs:
            continue
        n = rng.choice(legs)
        along = rng.uniform(-3.0, 3.0) * r
        scale = sqrt(a[0] * a[0] + a[1] * a[1]) + r
        offset = rng.choice([-1.0, 1.0]) * 10.0 ** rng.uniform(-12.0, -6.0) * scale
        b = (a[0] - n[1] * along + n[0] * offset, a[1] + n[0] * along + n[1] * offset)
        if rng.random() < 0.5:
            a, b = b, a
        tau = rng.choice([0.5, 1.0, 2.0])
        x = (rng.uniform(-2, 2), rng.uniform(-2, 2))
        overlap = obstacle.segment_distance_squared(*a, *b) <= r * r
        cases.append([*a, *b, r, 0.1 if overlap else tau, *x, int(overlap)])
    return cases


def _support_touching(rng: random.Random) -> list[list]:
    """Segments touching the circle of radius r up to rounding."""
    cases = []
    for _ in range(200):
        # touching segments: an end on the circle of radius r up to rounding, the segment
        # nearly tangent there, so leg square roots of rounded negatives and the fallback
        # direction (no candidate passes its domain test) come into play
        r = rng.choice([0.25, 0.5, 1.0, 0.7, 1.3])
        ux, uy = rng.uniform(-1, 1), rng.uniform(-1, 1)
        norm = sqrt(ux * ux + uy * uy) or 1.0
        a = (ux / norm * r, uy / norm * r)
        along = rng.uniform(0.01, 2.0) * rng.choice([-1.0, 1.0])
        tilt = rng.choice([0.0, 1e-9, -1e-9, 1e-6])
        b = (a[0] - a[1] * along / r + a[0] * tilt, a[1] + a[0] * along / r + a[1] * tilt)
        overlap = obstacle.segment_distance_squared(*a, *b) <= r * r
        x = (rng.uniform(-1, 1), rng.uniform(-1, 1)) if rng.random() < 0.7 else (0.0, 0.0)
        cases.append([*a, *b, r, 0.1 if overlap else rng.choice([1.0, 2.0]), *x, int(overlap)])
    return cases


def _support_small_integers(rng: random.Random) -> list[list]:
    """Small integer geometry: ties of radial candidates, ends at distance r."""
    cases = []
    for _ in range(100):
        # small integers: radial candidates tie, ends at distance exactly r
        a = (small(rng), small(rng))
        b = a if rng.random() < 0.2 else (small(rng), small(rng))
        r = rng.choice([0.5, 1.0, 2.0, 2.5, 5.0])
        overlap = obstacle.segment_distance_squared(*a, *b) <= r * r
        tau = rng.choice([1.0, 2.0, 0.5])
        x = (small(rng), small(rng))
        cases.append([*a, *b, r, tau, *x, int(overlap)])
    return cases


def support(rng: random.Random) -> list[list]:
    cases = _domain_ties(rng)
    cases += _support_leg_tangents(rng)
    cases += _support_touching(rng)
    cases += _support_small_integers(rng)
    # an end-to-end vector too short for its length to be representable (e.e underflows):
    # the segment's normal candidates must be skipped, the fallback then decides
    cases.append([1e-160, 0.0, 1e-160 + 1e-170, 0.0, 1.0, 0.1, 1e-159, 0.0, 1])
    cases.append([1e-160, 2e-161, 1e-160, 2e-161 + 1e-170, 1.0, 0.1, 1e-159, 2e-160, 1])
    # ... and with x a hair off a/dt and r at the same scale, so that no candidate is left and
    # the fallback direction's own value min(va, vb) shows in the distance
    for dx in (0.0, 1e-169, -1e-169, 3e-170):
        cases.append([1e-160, 0.0, 1e-160 + 1e-170, 0.0, 2e-160, 0.1, 1e-159 + dx, 0.0, 1])
    # found by tools/kill_search.py: an end whose rho2 - r*r rounds to exactly 0 (one leg, twice)
    cases += [[0.9554093366726412, -0.29528460745312124, 0.6496039003394891, -1.2847346522690488, 1.0, 2.0,
               -0.3398854248485206, -0.8517617051608632, 0],
              [-0.11389503776953232, -0.22254869213607348, -0.8669545915794851, 0.16284897326089642, 0.25, 1.0,
               -0.6787030127707958, 0.8657498564747754, 0],
              [-0.12410741985108904, 0.688910261454934, -0.5212244618644937, 0.6173694894404584, 0.7, 2.0,
               -0.987466542281014, 0.44261975739861015, 0]]
    return cases


def case_form(rng: random.Random) -> list[list]:
    cases = []
    while len(cases) < 150:
        # integers: dot1 * dot1 == r * r * ww and cross == 0 happen exactly
        a = (small(rng), small(rng))
        r = rng.choice([1.0, 2.0, 3.0, 0.5, 1.5])
        if a[0] * a[0] + a[1] * a[1] <= r * r:
            continue
        tau = rng.choice([1.0, 2.0, 0.5])
        x = (small(rng), small(rng))
        cases.append([*a, r, tau, *x])
    # the cut-off circle meets the leg: dot1^2 == r^2 * ww with integers (a = (3, 4), r = 3)
    # found by tools/kill_search.py: dot1 * dot1 == r * r * ww exactly, where the cut-off and
    # the leg give different bits
    cases += [[1.0, -1.0, 1.0, 2.0, 0.5, 2.5], [7.0, 4.0, 1.0, 2.0, 2.0, 4.0], [3.0, -3.0, 3.0, 2.0, -3.5, -1.5]]
    cases += [[3.0, 4.0, 3.0, 1.0, 2.0, 4.0], [3.0, 4.0, 3.0, 1.0, 3.0, 3.0], [4.0, 3.0, 3.0, 1.0, 4.0, 2.0],
              [0.0, 5.0, 3.0, 1.0, 0.0, 4.0], [5.0, 0.0, 4.0, 1.0, 3.0, 0.0]]
    return cases


def agent_constraint(rng: random.Random) -> list[list]:
    cases = []
    for _ in range(100):
        a = (small(rng), small(rng))
        r = rng.choice([1.0, 2.0, 3.0, 0.5])
        cases.append([*a, r, rng.choice([1.0, 2.0]), rng.choice([0.5, 0.25, 0.125]),
                      small(rng) / 4, small(rng) / 4, small(rng) / 4, small(rng) / 4])
    return cases


def segment_constraint(rng: random.Random) -> list[list]:
    cases = []
    for _ in range(100):
        # segments at distance exactly r (overlap by <=), lattice ends
        r = rng.choice([0.5, 1.0, 2.0])
        y = r * rng.choice([-1.0, 1.0])
        x0, x1 = sorted((small(rng), small(rng)))
        a, b = (x0, y), (x1 + 0.5, y)
        if rng.random() < 0.5:
            a, b = (a[1], a[0]), (b[1], b[0])
        cases.append([*a, *b, r, rng.choice([1.0, 2.0]), 0.1])
    # found by a search: tangent segments off the axes whose squared distance rounds to exactly
    # r*r, where the overlap and the non-overlap support forms give different bits
    cases += [[0.47299147039651135, -0.16210820131056336, 0.8510257886033232, 0.9409020509988065, 0.5, 2.0, 0.1],
              [0.7975833342085851, 0.6032087739686124, 0.5709324307435907, 0.9028943738607731, 1.0, 2.0, 0.1],
              [0.662020258192396, 1.1188070332916547, -0.9443632454218995, 2.069335936108728, 1.3, 2.0, 0.1]]
    return cases


def for_boundary(rng: random.Random) -> list[list]:
    cases = []
    for _ in range(300):
        # axis-aligned segment of dyadic length L: the foot parameter s = -a.e / e.e is exact,
        # so it can equal the cut-off m = (clearance + eps) / L or 1 - m, or lie within a
        # rounding of it; the distance d = -y can equal -eps
        length = rng.choice([1.0, 2.0, 4.0, 0.5])
        clearance = rng.choice([0.0, 0.1, 0.25, rng.uniform(0.0, 0.4)])
        m = (clearance + BOUNDARY_EPSILON) / length
        target = rng.choice([m, 1.0 - m]) * (1.0 + rng.choice([0.0, 0.0, 1e-15, -1e-15, 1e-9, -1e-9]))
        x0 = -target * length
        y = rng.choice([BOUNDARY_EPSILON, -BOUNDARY_EPSILON, 0.0, 2 * BOUNDARY_EPSILON, rng.uniform(-1, 1)])
        a, b = (x0, y), (x0 + length, y)
        if rng.random() < 0.5:
            a, b = (y, x0), (y, x0 + length)
        cases.append([*a, *b, clearance, rng.choice([0.5, 1.0, 2.0])])
    return cases


def programs(name: str, rng: random.Random) -> list[list]:
    cases = []
    for n in range(300):
        radius = rng.choice([1.0, 2.0, 0.5, 3.0])
        lines = near_parallel_lines(rng) if n % 3 == 0 else lattice_lines(rng, rng.randint(1, 6))
        if name == "solve_closest":
            cases.append([lines, radius, small(rng) / 2, small(rng) / 2])
        elif name == "solve_direction":
            direction = rng.choice([(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (0.6, 0.8), (-0.8, -0.6)])
            cases.append([lines, radius, *direction])
        else:
            hard = rng.randint(0, min(2, len(lines)))
            pref = (small(rng), small(rng))
            _, _, failed = linear_program.solve_closest(lines, radius, *pref)
            if failed >= 0:
                cases.append([lines, hard, radius, failed])
    if name == "solve_closest":
        # found by tools/kill_search.py: the projection equals the interval's upper end, as a
        # zero of the other sign (the clamp writes upper's sign into the velocity)
        cases += [[[(-0.0, 1.0, 0.0, 1.0), (1.75, -2.0, -0.8, 0.6), (-2.0, -1.25, 1.0, 0.0), (2.0, -2.0, -0.6, -0.8)],
                   1.0, 0.0, -1.0],
                  [[(-1.0, 3.0, 0.0, -1.0), (3.5, -0.75, -0.6, -0.8), (-2.0, -0.0, 0.0, 1.0), (0.0, 4.0, -0.8, 0.6),
                    (1.0, -1.5, 1.0, -0.0), (-0.25, -0.5, 1.0, -0.0)], 2.0, -2.0, -1.5]]
        # ... and a velocity exactly on a line (signed distance 0: satisfied, not projected)
        cases += [[[(0.5, -3.0, 1.0, 0.0), (-0.25, -0.5, -0.0, 1.0), (-3.5, -0.0, 0.0, 1.0), (1.25, -0.5, 1.0, 0.0)],
                   0.5, 4.0, -2.5],
                  [[(8.302225059844007e-13, 0.0, 1.0, 1e-12), (0.0, 0.0, 1.0, 0.0)], 3.0, 0.0, 2.5]]
    if name == "solve_direction":
        # found by tools/kill_search.py: a direction along a line's normal (d . N == 0), whose
        # projection must be clamped to the interval's lower end
        cases += [[[(0.5, -0.0, 0.8, -0.6), (1.0, 0.0, -0.6, -0.8), (1.5, 0.25, -0.0, 1.0), (0.5, -1.25, 0.0, 1.0)],
                   2.0, 0.6, 0.8],
                  [[(-1.5, 1.0, -0.6, -0.8), (1.5, 0.5, -0.0, 1.0)], 1.0, 0.0, -1.0]]
    if name == "relax":
        cases += _relax_edges(rng)
    return cases


def _relax_edges(rng: random.Random) -> list[list]:
    """Relax programs on the parallel-normals threshold, and projections found on an interval end."""
    cases = []
    for _ in range(200):
        # soft normals that differ by about the parallel-normals threshold (m.m near 1e-24)
        radius = rng.choice([1.0, 2.0])
        base = rng.choice([(1.0, 0.0), (0.0, 1.0), (0.0, -1.0)])
        tilt = rng.choice([1e-12, 2e-12, 3.1622776601683794e-12, 5e-13])
        point = (small(rng) / 4, small(rng) / 4)
        soft = [(*point, *base), (*point, base[0] - base[1] * tilt, base[1] + base[0] * tilt)]
        far = [(-3.0 * radius * base[0], -3.0 * radius * base[1], -base[0], -base[1])]
        hard_lines = lattice_lines(rng, rng.randint(0, 1))
        lines = hard_lines + far + soft + lattice_lines(rng, rng.randint(0, 2))
        _, _, failed = linear_program.solve_closest(lines, radius, *(small(rng), small(rng)))
        if failed >= 0:
            cases.append([lines, len(hard_lines), radius, failed])
    # found by tools/kill_search.py: a projection that lands exactly on an interval end
    cases += [
        [[(0.0, 0.25, -1.0, 0.0), (-0.0, 3.0, -0.0, 1.0), (0.0, -0.5, 0.0, -1.0), (-0.25, -0.75, 2e-12, -1.0),
          (-1.25, 4.0, 1.0, 0.0), (1.0, -1.5, 0.0, -1.0)], 1, 1.0, 1],
        [[(-0.5, 0.5, 0.0, -1.0), (-2.0, 0.0, 0.0, 1.0), (-1.0, -1.25, 0.8, -0.6), (0.5, 0.0, 1.0, 0.0),
          (-1.5, 0.25, -1.0, 0.0), (1.5, 4.0, 0.8, -0.6)], 2, 2.0, 4],
        [[(1.0, 0.0, 0.0, 1.0), (-6.0, -0.0, -1.0, -0.0), (0.0, 0.5, 1.0, 0.0), (0.0, 0.0, 1.0, 2e-12),
          (0.75, 1.0, -1.0, 0.0), (2.5, -2.5, 1.0, 0.0)], 1, 2.0, 1],
        [[(0.0, 0.0, 0.0, 1.0), (-0.0, -2.1679386522827882e-14, -1e-12, 1.0), (-0.5, 1.5, -1.0, 0.0),
          (1.0, 0.25, 1.0, 0.0)], 1, 0.5, 3]]
    # a facing line, then two soft lines through one point whose normals differ by 1e-12
    # (m.m == 1e-24 exactly: parallel) or 3e-12 (not): the bisector of the two, when it
    # enters the relaxed program, stops the last maximization at x = px
    for px in (1.0, 0.5):
        for py in (0.0, 1.5):
            for tilt in (1e-12, 3e-12):
                cases.append([[(0.0, -1.5, 0.0, -1.0), (px, py, 0.0, 1.0), (px, py, tilt, 1.0)], 0, 2.0, 1])
    return cases
