"""Random constraint sets and a vertex-enumeration oracle for the linear programs of the text.

Shared by ``tests/test_linear_program.py`` (about 10^4 sets) and ``tools/lp_bruteforce.py``
(10^5 sets by default, the number the normative text quotes).  Standard library only.  A test
oracle, not part of what a port reproduces: it may use cos, sin and tolerances.

A constraint is the solver's tuple (Px, Py, Nx, Ny): the half-plane {v : (v - P).N >= 0} with a
unit normal N.  Internally the oracle writes every line as (nx, ny, c) meaning n.v = c, with
c = P.N, so that g(v) = n.v - c is the signed distance (for a unit n).

Closest point (the feasible program).  min |v - p| over the disc |v| <= R and the half-planes is
a strictly convex problem on a compact convex set C whose boundary consists of line segments and
circular arcs.  The minimizer is one of: p itself (interior), the radial projection of p on the
circle (interior of an arc), the orthogonal projection of p on a line (interior of a segment),
or a vertex of C (line-line or line-circle intersection).  Every such point is enumerated, the
ones inside C up to a small tolerance are kept, and the closest to p is the optimum.  C is
non-empty iff one of these candidates is in C (a non-empty C contains its minimizer).

Whether a set is *decisively* feasible or infeasible is decided by the same enumeration on
shifted sets: every half-plane moved inwards by MARGIN and the radius shrunk by MARGIN (if that
set is non-empty, the original has an interior ball of radius MARGIN), and moved outwards by
MARGIN (if that set is empty, every point of the disc violates something by more than MARGIN).
Sets that are neither are "near the boundary" and are skipped (but counted).

Max-min (the fallback).  F(v) = min over soft k of g_k(v) is concave and piecewise linear; it is
maximized over C = disc ∩ hard half-planes.  Let v* be a maximizer, A the soft constraints
active there (g_k(v*) = F(v*)) and B the active pieces of the boundary of C.  v* is fixed by two
independent equations taken from {g_k = g_l : k, l in A} ∪ {hard line} ∪ {circle}, or lies on a
set on which F is constant, whose extreme points are again of that kind.  The KKT condition
(0 in conv{N_k : k in A} minus the normal cone of C) rules out |A| = 1 with B empty (N_k != 0).
So the candidates are:

* vertices of C: hard-hard intersections and hard-circle intersections (|B| = 2);
* R * N_k, the maximizer of a single g_k on the circle (|A| = 1, B = circle);
  (|A| = 1 with B one hard line: g_k is linear along that line, so its maximum on C ∩ line is
  an end of the chord, a vertex of C, or g_k is constant and the ends are optimal too);
* "ridge" lines g_k = g_l (k < l soft, N_k != N_l), i.e. (N_k - N_l).v = P_k.N_k - P_l.N_l,
  intersected with every hard line and with the circle (|A| = 2, |B| = 1);
* triple points g_k = g_l = g_m, the intersection of two ridges of the triple (|A| >= 3);
  (|A| = 2 with B empty needs N_k = -N_l: F is constant along that ridge, whose ends in C are
  ridge-boundary or triple points, already listed).

This is an exact enumeration (no polygonal approximation of the disc), so the only error is the
rounding of each candidate, and F evaluated at a candidate inside C is a true lower bound of the
maximum up to the tolerance of the membership test.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from math import cos, pi, sin, sqrt
from typing import Callable, Optional, Sequence

from ..solver.fallback import relax
from ..solver.linear_program import solve_closest

Line = tuple[float, float, float, float]      # (Px, Py, Nx, Ny), the solver's half-plane
NLine = tuple[float, float, float]            # (nx, ny, c): n.v = c, g(v) = n.v - c

MARGIN = 1e-7
"""Half-width of the band around the feasibility boundary in which a set is not decisive."""

MEMBER_TOL = 1e-12
"""Tolerance of the oracle's membership test of a candidate (absolute; R <= 3).  Candidates
are rounded vertices, whose residuals are ~1e-16; a loose tolerance would admit points outside a
thin wedge that are closer to p than its true apex."""

TOL_CONSTRAINT = 1e-9
"""The solver's v may violate a half-plane or the disc by at most this."""

TOL_DISTANCE = 1e-9
"""|v - p| of the solver may differ from the brute-force optimum by at most this."""

TOL_LEVEL = 1e-9
"""min soft g of the fallback may differ from the brute-force max-min by at most this."""

PARALLEL = 1e-14
"""|cross(n1, n2)| below this: the oracle treats two lines as parallel (no intersection)."""


# --------------------------------------------------------------------------------------------
# geometry helpers


def to_nline(line: Line) -> NLine:
    px, py, nx, ny = line
    return nx, ny, px * nx + py * ny


def g_of(line: Line, vx: float, vy: float) -> float:
    px, py, nx, ny = line
    return (vx - px) * nx + (vy - py) * ny


def _meet(l1: NLine, l2: NLine) -> Optional[tuple[float, float]]:
    """Intersection of n1.v = c1 and n2.v = c2 (Cramer), None when (nearly) parallel."""
    n1x, n1y, c1 = l1
    n2x, n2y, c2 = l2
    det = n1x * n2y - n1y * n2x
    if -PARALLEL < det < PARALLEL:
        return None
    return (c1 * n2y - c2 * n1y) / det, (n1x * c2 - n2x * c1) / det


def _meet_circle(l: NLine, radius: float) -> list[tuple[float, float]]:
    """Intersections of the unit-normal line n.v = c with the circle |v| = R."""
    nx, ny, c = l
    h2 = radius * radius - c * c
    if h2 < 0.0:
        return []
    h = sqrt(h2)
    fx = nx * c
    fy = ny * c
    return [(fx - ny * h, fy + nx * h), (fx + ny * h, fy - nx * h)]


def _violation(nlines: Sequence[NLine], radius: float, vx: float, vy: float) -> float:
    """max(|v| - R, max_k (c_k - n_k.v)): > 0 outside, <= 0 inside."""
    worst = sqrt(vx * vx + vy * vy) - radius
    for nx, ny, c in nlines:
        e = c - (nx * vx + ny * vy)
        if e > worst:
            worst = e
    return worst


def violation(lines: Sequence[Line], radius: float, vx: float, vy: float) -> float:
    """How far v is outside the disc and the half-planes (<= 0 when inside)."""
    return _violation([to_nline(l) for l in lines], radius, vx, vy)


# --------------------------------------------------------------------------------------------
# closest point


def _closest_candidates(nlines: Sequence[NLine], radius: float, px: float, py: float):
    yield px, py
    pl = sqrt(px * px + py * py)
    if pl > 0.0:
        yield px / pl * radius, py / pl * radius
    for nx, ny, c in nlines:
        e = nx * px + ny * py - c
        yield px - nx * e, py - ny * e
    count = len(nlines)
    for i in range(count):
        li = nlines[i]
        for pt in _meet_circle(li, radius):
            yield pt
        for j in range(i):
            pt = _meet(li, nlines[j])
            if pt is not None:
                yield pt


def closest_point(nlines: Sequence[NLine], radius: float, px: float, py: float,
                  tol: float = MEMBER_TOL) -> Optional[tuple[float, float, float]]:
    """(vx, vy, |v - p|) of the point of the disc and half-planes closest to p, None if empty."""
    best = None
    best_d2 = 0.0
    for vx, vy in _closest_candidates(nlines, radius, px, py):
        if _violation(nlines, radius, vx, vy) > tol:
            continue
        dx = vx - px
        dy = vy - py
        d2 = dx * dx + dy * dy
        if best is None or d2 < best_d2:
            best = (vx, vy)
            best_d2 = d2
    if best is None:
        return None
    return best[0], best[1], sqrt(best_d2)


def is_nonempty(nlines: Sequence[NLine], radius: float, tol: float = MEMBER_TOL) -> bool:
    """Whether the disc and the half-planes meet (some candidate vertex lies inside)."""
    if radius < 0.0:
        return False
    for vx, vy in _closest_candidates(nlines, radius, 0.0, 0.0):
        if _violation(nlines, radius, vx, vy) <= tol:
            return True
    return False


def classify(lines: Sequence[Line], radius: float, margin: float = MARGIN) -> str:
    """'feasible' (interior ball of radius margin), 'infeasible' (empty even when every
    constraint is loosened by margin) or 'boundary' (neither)."""
    nl = [to_nline(l) for l in lines]
    tight = [(nx, ny, c + margin) for nx, ny, c in nl]
    if is_nonempty(tight, radius - margin, tol=1e-12):
        return "feasible"
    loose = [(nx, ny, c - margin) for nx, ny, c in nl]
    if not is_nonempty(loose, radius + margin, tol=1e-12):
        return "infeasible"
    return "boundary"


# --------------------------------------------------------------------------------------------
# max-min (fallback)


def max_min(lines: Sequence[Line], hard_count: int, radius: float,
            tol: float = MEMBER_TOL) -> tuple[float, float, float]:
    """(F*, vx, vy): the maximum over v in disc ∩ hard of F(v) = min over soft k of g_k(v)."""
    hard = [to_nline(l) for l in lines[:hard_count]]
    soft = [to_nline(l) for l in lines[hard_count:]]
    if not soft:
        raise ValueError("no soft constraint")
    candidates: list[tuple[float, float]] = []
    add = candidates.append
    # vertices of C
    for i in range(len(hard)):
        candidates.extend(_meet_circle(hard[i], radius))
        for j in range(i):
            pt = _meet(hard[i], hard[j])
            if pt is not None:
                add(pt)
    # maximizer of one g_k on the circle
    for nx, ny, _ in soft:
        add((nx * radius, ny * radius))
    # ridges g_k = g_l
    count = len(soft)
    ridge: dict[tuple[int, int], NLine] = {}
    for k in range(count):
        nkx, nky, ck = soft[k]
        for l in range(k + 1, count):
            nlx, nly, cl = soft[l]
            mx = nkx - nlx
            my = nky - nly
            mm = mx * mx + my * my
            if mm <= 1e-24:
                continue
            ml = sqrt(mm)
            rl = (mx / ml, my / ml, (ck - cl) / ml)
            ridge[(k, l)] = rl
            candidates.extend(_meet_circle(rl, radius))
            for h in hard:
                pt = _meet(rl, h)
                if pt is not None:
                    add(pt)
    # triple points
    for k in range(count):
        for l in range(k + 1, count):
            for m in range(l + 1, count):
                rs = [r for r in (ridge.get((k, l)), ridge.get((k, m)), ridge.get((l, m)))
                      if r is not None]
                if len(rs) >= 2:
                    pt = _meet(rs[0], rs[1])
                    if pt is None and len(rs) == 3:
                        pt = _meet(rs[0], rs[2])
                    if pt is not None:
                        add(pt)
    best = None
    for vx, vy in candidates:
        if _violation(hard, radius, vx, vy) > tol:
            continue
        f = min(nx * vx + ny * vy - c for nx, ny, c in soft)
        if best is None or f > best[0]:
            best = (f, vx, vy)
    if best is None:
        raise ValueError("disc and hard constraints do not meet")
    return best


def smallest_soft_distance(lines: Sequence[Line], hard_count: int, vx: float, vy: float) -> float:
    return min(g_of(l, vx, vy) for l in lines[hard_count:])


# --------------------------------------------------------------------------------------------
# random sets


@dataclass
class Case:
    lines: list[Line]
    hard_count: int
    radius: float
    px: float
    py: float
    kind: str


def _line(rng: random.Random, radius: float, lo: float, hi: float,
          normals: list[tuple[float, float]]) -> Line:
    """A half-plane whose boundary is at signed offset c in [lo, hi] * R from the origin
    (g(0) = -c * R: the origin is permitted when c < 0).  Sometimes reuses an earlier normal,
    exactly or reversed, to exercise the parallel branches."""
    if normals and rng.random() < 0.1:
        nx, ny = rng.choice(normals)
        if rng.random() < 0.5:
            nx, ny = -nx, -ny
    else:
        th = rng.uniform(-pi, pi)
        nx, ny = cos(th), sin(th)
        if rng.random() < 0.03 and normals:
            # nearly parallel to an earlier line
            mx, my = rng.choice(normals)
            eps = rng.choice([1e-3, 1e-5, 1e-7])
            nx, ny = mx - my * eps, my + mx * eps
            ln = sqrt(nx * nx + ny * ny)
            nx, ny = nx / ln, ny / ln
    normals.append((nx, ny))
    c = rng.uniform(lo, hi) * radius
    s = rng.uniform(-2.0, 2.0) * radius
    # P = n*c + t*s with t = (-ny, nx): any point of the line
    return nx * c - ny * s, ny * c + nx * s, nx, ny


def random_case(rng: random.Random) -> Case:
    """One random set: R in [0.5, 3], p within 1.5 R, 1..8 lines, half of the sets with a hard
    prefix of 1..3 half-planes that contain the origin with a margin (like obstacle constraints,
    which always admit the zero velocity)."""
    radius = rng.uniform(0.5, 3.0)
    th = rng.uniform(-pi, pi)
    pr = rng.uniform(0.0, 1.5) * radius
    px, py = pr * cos(th), pr * sin(th)
    normals: list[tuple[float, float]] = []
    lines: list[Line] = []
    if rng.random() < 0.05:
        return _degenerate_case(rng, radius, px, py)
    if rng.random() < 0.5:
        hard_count = rng.randint(1, 3)
        for _ in range(hard_count):
            lines.append(_line(rng, radius, -1.0, -0.05, normals))
        soft = rng.randint(1, 6)
        kind = "hard"
    else:
        hard_count = 0
        soft = rng.randint(1, 8)
        kind = "soft"
    for _ in range(soft):
        lines.append(_line(rng, radius, -1.2, 0.9, normals))
    return Case(lines, hard_count, radius, px, py, kind)


def _degenerate_case(rng: random.Random, radius: float, px: float, py: float) -> Case:
    """A few sets near degeneracy: lines through (nearly) one point q of the disc, or tangent
    to the circle.  Many of them lie within MARGIN of the feasibility boundary (skipped by the
    closest-point comparison); the fallback is compared on every one the solver rejects."""
    lines: list[Line] = []
    if rng.random() < 0.5:
        qr = rng.uniform(0.0, 1.0) * radius
        qt = rng.uniform(-pi, pi)
        qx, qy = qr * cos(qt), qr * sin(qt)
        jitter = rng.choice([0.0, 1e-12, 1e-9, 1e-6]) * radius
        kind = "concurrent"
    else:
        qx = qy = 0.0
        jitter = 0.0
        kind = "tangent"
    for _ in range(rng.randint(2, 6)):
        th = rng.uniform(-pi, pi)
        nx, ny = cos(th), sin(th)
        if kind == "tangent":
            c = radius * rng.choice([-1.0, 1.0, 1.0 - 1e-9, 1.0 + 1e-9, 0.5])
            lines.append((nx * c, ny * c, nx, ny))
        else:
            e = rng.uniform(-1.0, 1.0) * jitter
            lines.append((qx + nx * e, qy + ny * e, nx, ny))
    return Case(lines, 0, radius, px, py, kind)


# --------------------------------------------------------------------------------------------
# comparison


@dataclass
class Stats:
    sets: int = 0
    feasible: int = 0            # decisively feasible, compared
    infeasible: int = 0          # decisively infeasible, infeasibility confirmed
    boundary: int = 0            # within MARGIN of the feasibility boundary, skipped
    fallback: int = 0            # fallback results compared (every set the solver rejected)
    fallback_hard: int = 0       # ... of which with a hard prefix
    worst_constraint: float = 0.0   # feasible: largest violation of a half-plane or the disc
    worst_distance: float = 0.0     # feasible: largest | |v - p| - optimum |
    worst_fallback_hard: float = 0.0  # fallback: largest violation of disc + hard prefix
    worst_level: float = 0.0        # fallback: largest | min soft g - max-min |
    worst_cases: dict = field(default_factory=dict)
    failures: list = field(default_factory=list)

    def note(self, key: str, err: float, case: Case) -> None:
        if err > getattr(self, key):
            setattr(self, key, err)
            self.worst_cases[key] = (err, case)

    def fail(self, message: str, case: Case) -> None:
        self.failures.append((message, case))

    def summary(self) -> str:
        return (f"sets {self.sets}: feasible {self.feasible}, infeasible {self.infeasible}, "
                f"near the boundary (skipped) {self.boundary}; fallback compared "
                f"{self.fallback} ({self.fallback_hard} with a hard prefix)\n"
                f"worst feasible: constraint violation {self.worst_constraint:.3e}, "
                f"distance error {self.worst_distance:.3e}\n"
                f"worst fallback: hard/disc violation {self.worst_fallback_hard:.3e}, "
                f"max-min level error {self.worst_level:.3e}\n"
                f"disagreements: {len(self.failures)}")


def check_fallback(lines: Sequence[Line], hard_count: int, radius: float, failed: int,
                   case: Case, stats: Stats) -> None:
    """relax() against the max-min oracle for the program that failed at ``failed``."""
    vx, vy = relax(lines, hard_count, radius, failed)
    if failed < hard_count:
        lines = list(lines[:hard_count])
        hard_count = 0
    fstar, _, _ = max_min(lines, hard_count, radius)
    hard_viol = max(0.0, violation(lines[:hard_count], radius, vx, vy))
    level = smallest_soft_distance(lines, hard_count, vx, vy)
    err = abs(level - fstar)
    stats.fallback += 1
    if hard_count:
        stats.fallback_hard += 1
    stats.note("worst_fallback_hard", hard_viol, case)
    stats.note("worst_level", err, case)
    if hard_viol > TOL_CONSTRAINT:
        stats.fail(f"fallback v=({vx!r}, {vy!r}) violates disc/hard by {hard_viol:.3e}", case)
    if err > TOL_LEVEL:
        stats.fail(f"fallback v=({vx!r}, {vy!r}) min soft g {level!r}, brute force {fstar!r}",
                   case)


def check_case(case: Case, stats: Stats) -> None:
    """Compare solve_closest (and relax when it fails) with the oracle on one set."""
    stats.sets += 1
    lines = case.lines
    radius = case.radius
    vx, vy, failed = solve_closest(lines, radius, case.px, case.py)
    verdict = classify(lines, radius)
    if verdict == "feasible":
        stats.feasible += 1
        if failed >= 0:
            stats.fail(f"solver reports infeasible at {failed}, brute force feasible", case)
            return
        nl = [to_nline(l) for l in lines]
        opt = closest_point(nl, radius, case.px, case.py)
        assert opt is not None  # classify found an interior point
        viol = max(0.0, _violation(nl, radius, vx, vy))
        dist = sqrt((vx - case.px) ** 2 + (vy - case.py) ** 2)
        derr = abs(dist - opt[2])
        stats.note("worst_constraint", viol, case)
        stats.note("worst_distance", derr, case)
        if viol > TOL_CONSTRAINT:
            stats.fail(f"solver v=({vx!r}, {vy!r}) violates a constraint by {viol:.3e}", case)
        if derr > TOL_DISTANCE:
            stats.fail(f"solver |v - p| = {dist!r}, brute force {opt[2]!r} at {opt[:2]}", case)
    elif verdict == "infeasible":
        stats.infeasible += 1
        if failed < 0:
            stats.fail("solver reports feasible, brute force clearly empty", case)
            return
    else:
        stats.boundary += 1
    if failed >= 0:
        if failed < case.hard_count:
            # the hard prefix contains the origin by construction: it cannot fail
            stats.fail(f"solver failed at {failed} inside a feasible hard prefix", case)
            return
        check_fallback(lines, case.hard_count, radius, failed, case, stats)


def check_hard_prefix_branch(rng: random.Random, stats: Stats) -> bool:
    """relax() with failed < hard_count: an infeasible soft-only set used as the hard prefix,
    followed by extra constraints that must be ignored.  Returns False when the drawn set was
    not usable (feasible), True when compared."""
    case = random_case(rng)
    if case.hard_count:
        return False
    vx, vy, failed = solve_closest(case.lines, case.radius, case.px, case.py)
    if failed < 0:
        return False
    normals: list[tuple[float, float]] = []
    extra = [_line(rng, case.radius, -1.2, 0.9, normals) for _ in range(rng.randint(1, 3))]
    lines = case.lines + extra
    hard_count = len(case.lines)
    full = Case(lines, hard_count, case.radius, case.px, case.py, "prefix-failed")
    stats.sets += 1
    check_fallback(lines, hard_count, case.radius, failed, full, stats)
    return True


def format_case(case: Case) -> str:
    return (f"Case(lines={case.lines!r}, hard_count={case.hard_count}, radius={case.radius!r}, "
            f"px={case.px!r}, py={case.py!r}, kind={case.kind!r})")


def run(sets: int, seed: int, progress: Optional[Callable[[int, Stats], None]] = None,
        every: int = 10_000) -> Stats:
    """Compare ``sets`` random sets drawn from random.Random(seed)."""
    rng = random.Random(seed)
    stats = Stats()
    for i in range(1, sets + 1):
        check_case(random_case(rng), stats)
        if progress is not None and i % every == 0:
            progress(i, stats)
    return stats


if __name__ == "__main__":  # quick look
    t0 = time.perf_counter()
    st = run(2000, 1)
    print(st.summary(), f"{time.perf_counter() - t0:.1f}s")
