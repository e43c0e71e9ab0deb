"""Half-planes built from one neighbor: another agent, a static segment, or a boundary stretch.

Contract: each builder takes positions relative to the steered agent and returns a
``HalfPlane`` (P.x, P.y, N.x, N.y) or, for ``for_boundary``, ``None`` when the stretch adds no
constraint.  u is formed as ``-d n`` component-wise (note 2) wherever the support form is used.
"""

from __future__ import annotations

from math import sqrt

from .halfplane import HalfPlane
from .obstacle import agent_case_form, segment_distance_squared, support_distance

RESPONSIBILITY = 0.5
"""Share of u an agent takes against another agent (the other agent takes the other half)."""

BOUNDARY_EPSILON = 1e-6
"""The 1e-6 of ForBoundary: corner margin and far-side tolerance."""


def agent_constraint(ax: float, ay: float, r: float, tau: float, dt: float,
                     vax: float, vay: float, vbx: float, vby: float) -> HalfPlane:
    """Constraint of agent A against agent B, with a = pB - pA and r = rA + rB.

    Overlap (a.a <= r*r) uses the support form with tau replaced by dt; otherwise the closed
    case form.  P = vA + u * 1/2, N = n.
    """
    xx = vax - vbx
    xy = vay - vby
    if ax * ax + ay * ay <= r * r:
        d, nx, ny = support_distance(ax, ay, ax, ay, r, dt, xx, xy, True)
        ux = nx * -d
        uy = ny * -d
    else:
        ux, uy, nx, ny = agent_case_form(ax, ay, r, tau, xx, xy)
    return (vax + ux * RESPONSIBILITY, vay + uy * RESPONSIBILITY, nx, ny)


def segment_constraint(ax: float, ay: float, bx: float, by: float, r: float, tau: float,
                       dt: float) -> HalfPlane:
    """Constraint of an agent of radius r against the static segment a-b (relative ends).

    The optimization velocity is zero and the agent takes the whole of u: P = u, N = n.
    Overlap (SegmentDistanceSquared <= r*r) uses the support form with tau replaced by dt.
    """
    overlap = segment_distance_squared(ax, ay, bx, by) <= r * r
    d, nx, ny = support_distance(ax, ay, bx, by, r, dt if overlap else tau, 0.0, 0.0, overlap)
    return (nx * -d, ny * -d, nx, ny)


def for_boundary(ax: float, ay: float, bx: float, by: float, clearance: float,
                 tau: float) -> HalfPlane | None:
    """ForBoundary(a, b, clearance, tau): one-sided constraint of a boundary stretch a -> b.

    e = b - a, s = -(a.e)/(e.e), n = (-e.y, e.x)/|e|, d = -(a.n), m = (clearance + 1e-6)/|e|.
    None when e.e == 0, s <= m, s >= 1 - m, or d < -1e-6.  Otherwise N = n and
    P = n * k with k = -((d - clearance) / tau) (note 7).
    """
    ex = bx - ax
    ey = by - ay
    ee = ex * ex + ey * ey
    if ee == 0.0:
        return None
    s = -(ax * ex + ay * ey) / ee
    le = sqrt(ee)
    nx = -ey / le
    ny = ex / le
    d = -(ax * nx + ay * ny)
    m = (clearance + BOUNDARY_EPSILON) / le
    if s <= m or s >= 1.0 - m or d < -BOUNDARY_EPSILON:
        return None
    k = -((d - clearance) / tau)
    return (nx * k, ny * k, nx, ny)
