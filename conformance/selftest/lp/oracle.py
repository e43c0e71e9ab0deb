"""A vertex-enumeration oracle for the linear programs of the text.

Contract: ``closest_point`` and ``classify`` answer the feasible program (the point of the disc
and the half-planes closest to p; whether a set is decisively feasible, decisively infeasible or
near the boundary), ``max_min`` answers the fallback (the largest smallest soft distance over the
disc and the hard prefix), each by an exact enumeration of candidate points.  ``comparison``
holds the solver against them on the random sets of ``random_sets``.  Standard library only.
A test oracle, not part of what a port reproduces: it may use cos, sin and tolerances.

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

from math import sqrt
from typing import Optional, Sequence

Line = tuple[float, float, float, float]      # (Px, Py, Nx, Ny), the solver's half-plane
NLine = tuple[float, float, float]            # (nx, ny, c): n.v = c, g(v) = n.v - c

MARGIN = 1e-7
"""Half-width of the band around the feasibility boundary in which a set is not decisive."""

MEMBER_TOL = 1e-12
"""Tolerance of the oracle's membership test of a candidate (absolute; R <= 3).  Candidates
are rounded vertices, whose residuals are ~1e-16; a loose tolerance would admit points outside a
thin wedge that are closer to p than its true apex."""

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
    best = None
    for vx, vy in _max_min_candidates(hard, soft, radius):
        if _violation(hard, radius, vx, vy) > tol:
            continue
        f = min(nx * vx + ny * vy - c for nx, ny, c in soft)
        if best is None or f > best[0]:
            best = (f, vx, vy)
    if best is None:
        raise ValueError("disc and hard constraints do not meet")
    return best


def _max_min_candidates(hard: Sequence[NLine], soft: Sequence[NLine], radius: float) -> list[tuple[float, float]]:
    """Every candidate maximizer of the module doc, in a fixed order (ties go to the first)."""
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
    return candidates


def smallest_soft_distance(lines: Sequence[Line], hard_count: int, vx: float, vy: float) -> float:
    return min(g_of(l, vx, vy) for l in lines[hard_count:])
