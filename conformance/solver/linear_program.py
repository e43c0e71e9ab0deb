"""The 2-D linear program of the text: constraints in list order inside the disc |v| <= R.

Two objectives share one incremental scheme:

* ``solve_closest``: the permitted velocity closest to a preferred velocity p;
* ``solve_direction``: the permitted velocity furthest along an objective direction N.

Both return ``(v.x, v.y, failed)`` where ``failed`` is -1 when every constraint held and
otherwise the index of the first constraint whose line has no permitted point; v is then the
velocity reached just before that index (the fallback decides what to do with it).
"""

from __future__ import annotations

from math import sqrt
from typing import Sequence

from .halfplane import HalfPlane

PARALLEL_EPSILON = 1e-12
"""|d . N_j| at or below this counts as parallel lines."""


def line_interval(lines: Sequence[HalfPlane], i: int, radius: float) -> tuple[float, float] | None:
    """Interval [lower, upper] of t for which P_i + t d_i is in the disc and in lines 0..i-1.

    d = (-N.y, N.x); pd = P.d; disc = (pd*pd + R*R) - P.P; None when disc < 0 (disc == 0 is a
    single point, note 8).  Each earlier line j cuts the interval: denom = d.N_j,
    num = (P - P_j).N_j; |denom| <= 1e-12 is parallel (None when num < 0, else j is ignored);
    otherwise t = -num/denom raises lower (denom > 0) or lowers upper (denom < 0), and the
    interval is empty (None) as soon as lower > upper.
    """
    px, py, nx, ny = lines[i]
    dx = -ny
    dy = nx
    pd = px * dx + py * dy
    disc = pd * pd + radius * radius - (px * px + py * py)
    if disc < 0.0:
        return None
    s = sqrt(disc)
    lower = -pd - s
    upper = -pd + s
    for j in range(i):
        qx, qy, mx, my = lines[j]
        denom = dx * mx + dy * my
        num = (px - qx) * mx + (py - qy) * my
        if -PARALLEL_EPSILON <= denom <= PARALLEL_EPSILON:
            if num < 0.0:
                return None
            continue
        t = -num / denom
        if denom > 0.0:
            if t > lower:
                lower = t
        elif t < upper:
            upper = t
        if lower > upper:
            return None
    return lower, upper


def solve_closest(lines: Sequence[HalfPlane], radius: float,
                  prefx: float, prefy: float) -> tuple[float, float, int]:
    """Velocity in the disc and every half-plane closest to p, constraints in list order.

    Start: v = p when |p| <= R (|p| = sqrt(p.p), note 9), else (p / |p|) * R.  On a violated
    line i, t = d . (p - P) clamped to the interval, v = P + d * t.
    """
    plen = sqrt(prefx * prefx + prefy * prefy)
    if plen <= radius:
        vx = prefx
        vy = prefy
    else:
        vx = prefx / plen * radius
        vy = prefy / plen * radius
    for i in range(len(lines)):
        px, py, nx, ny = lines[i]
        if (vx - px) * nx + (vy - py) * ny >= 0.0:
            continue
        interval = line_interval(lines, i, radius)
        if interval is None:
            return vx, vy, i
        lower, upper = interval
        dx = -ny
        dy = nx
        t = dx * (prefx - px) + dy * (prefy - py)
        if t < lower:
            t = lower
        elif t > upper:
            t = upper
        vx = px + dx * t
        vy = py + dy * t
    return vx, vy, -1


def solve_direction(lines: Sequence[HalfPlane], radius: float,
                    objx: float, objy: float) -> tuple[float, float, int]:
    """Velocity in the disc and every half-plane furthest along the objective direction.

    Start: v = (N / |N|) * R.  On a violated line: t = upper when d.N > 0, lower when
    d.N < 0, and d . (v - P) clamped to the interval when d.N == 0 (v the current velocity).
    """
    olen = sqrt(objx * objx + objy * objy)
    vx = objx / olen * radius
    vy = objy / olen * radius
    for i in range(len(lines)):
        px, py, nx, ny = lines[i]
        if (vx - px) * nx + (vy - py) * ny >= 0.0:
            continue
        interval = line_interval(lines, i, radius)
        if interval is None:
            return vx, vy, i
        lower, upper = interval
        dx = -ny
        dy = nx
        dn = dx * objx + dy * objy
        if dn > 0.0:
            t = upper
        elif dn < 0.0:
            t = lower
        else:
            t = dx * (vx - px) + dy * (vy - py)
            if t < lower:
                t = lower
            elif t > upper:
                t = upper
        vx = px + dx * t
        vy = py + dy * t
    return vx, vy, -1
