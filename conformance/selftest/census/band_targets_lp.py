"""More encodings for selftest/census/band_solver.py: the clamps and cuts of the linear program.

Contract: ``LP_TARGETS`` lists ``Target``s (selftest/census/band_targets.py) for the decisions of
solver/linear_program.py that take a clamped or cut parameter t: solve_closest's clamp of
t = d.(p - P) to the interval of one violated line, the cuts ``t > lower`` and ``t < upper`` of
line_interval by an earlier line, and solve_direction's clamp when d.N == 0 (a line whose normal
is parallel to the objective).  Each encoding follows the source line for line like those of
band_targets.py; the solver checks every model on the instrumented reference.
"""

from __future__ import annotations

from typing import Callable

from .band_smt import B, F, Problem, in_band, ite
from .band_targets import Target, _box

_L = "solver.linear_program."


def _interval(p: Problem, qx: F, qy: F, nx: F, ny: F, radius: F) -> tuple[F, F, F, F, B]:
    """d = (-N.y, N.x), lower, upper of line (q, n) in the disc, and "disc >= 0"."""
    dx, dy = -ny, nx
    pd = qx * dx + qy * dy
    disc = pd * pd + radius * radius - (qx * qx + qy * qy)
    s = disc.sqrt()
    return dx, dy, -pd - s, -pd + s, disc.ge(0.0)


def _closest_clamp(site: str) -> Callable[[Problem, str], tuple[list, B]]:
    """solve_closest, one horizontal line (P = (0, qy), N = (0, 1), fixed to help the solver)
    violated by the start v (p inside the disc: v = p)."""
    def encode(p: Problem, kind: str) -> tuple[list, B]:
        qy, px, py = _box(p, "qy px py", -10.0, 10.0)
        qx, nx, ny = p.const(0.0), p.const(0.0), p.const(1.0)
        radius = _box(p, "radius", 0.0, 10.0)[0]
        inside = (px * px + py * py).sqrt().le(radius)
        violated = ((px - qx) * nx + (py - qy) * ny).lt(0.0)
        dx, dy, lower, upper, nonempty = _interval(p, qx, qy, nx, ny, radius)
        t = dx * (px - qx) + dy * (py - qy)
        reach = inside & violated & nonempty
        cond = in_band(kind, "<", t, lower) if site == "lower" else ~t.lt(lower) & in_band(kind, ">", t, upper)
        return [[(0.0, qy, 0.0, 1.0)], radius, px, py], reach & cond
    return encode


def _cut(site: str) -> Callable[[Problem, str], tuple[list, B]]:
    """solve_closest, two lines: the start p (inside the disc) satisfies line 0 and violates
    line 1 (horizontal, N_1 = (0, 1) at x = 0, fixed to help the solver), so line_interval(lines, 1)
    cuts line 1's interval by line 0."""
    def encode(p: Problem, kind: str) -> tuple[list, B]:
        q0x, q0y, m0x, m0y, q1y, px, py = _box(p, "q0x q0y m0x m0y q1y px py", -10.0, 10.0)
        q1x, n1x, n1y = p.const(0.0), p.const(0.0), p.const(1.0)
        radius = _box(p, "radius", 0.0, 10.0)[0]
        reach = ((px - q0x) * m0x + (py - q0y) * m0y).ge(0.0) & ((px - q1x) * n1x + (py - q1y) * n1y).lt(0.0)
        reach = reach & (px * px + py * py).sqrt().le(radius)
        dx, dy, lower, upper, nonempty = _interval(p, q1x, q1y, n1x, n1y, radius)
        denom = dx * m0x + dy * m0y
        num = (q1x - q0x) * m0x + (q1y - q0y) * m0y
        eps = p.const(1e-12)
        parallel = (-eps).le(denom) & denom.le(eps)
        t = -num / denom
        if site == "t > lower":
            cond = ~parallel & denom.gt(0.0) & in_band(kind, ">", t, lower)
        else:
            cond = ~parallel & ~denom.gt(0.0) & in_band(kind, "<", t, upper)
        return [[(q0x, q0y, m0x, m0y), (0.0, q1y, 0.0, 1.0)], radius, px, py], reach & nonempty & cond
    return encode


def _direction_clamp(p: Problem, kind: str) -> tuple[list, B]:
    """solve_direction, objective (1, 0), radius 2 (start v = (2, 0)): line 0 holds at v, line 1
    is violated, its normal parallel to the objective (d.N == 0), its interval cut by line 0;
    t = d.(v - P) against upper; N_1 = (-1, 0) is fixed (d.N == 0 needs N_1.y == 0)."""
    q0x, q0y, m0x, m0y, q1x, q1y = _box(p, "q0x q0y m0x m0y q1x q1y", -4.0, 4.0)
    n1x, n1y = p.const(-1.0), p.const(0.0)
    radius, ox, oy = p.const(2.0), p.const(1.0), p.const(0.0)
    olen = (ox * ox + oy * oy).sqrt()
    vx, vy = ox / olen * radius, oy / olen * radius
    reach = ((vx - q0x) * m0x + (vy - q0y) * m0y).ge(0.0) & ((vx - q1x) * n1x + (vy - q1y) * n1y).lt(0.0)
    dx, dy, lower, upper, nonempty = _interval(p, q1x, q1y, n1x, n1y, radius)
    denom = dx * m0x + dy * m0y
    num = (q1x - q0x) * m0x + (q1y - q0y) * m0y
    eps = p.const(1e-12)
    parallel = (-eps).le(denom) & denom.le(eps)
    t0 = -num / denom
    lower = ite(~parallel & denom.gt(0.0) & t0.gt(lower), t0, lower)
    upper = ite(~parallel & ~denom.gt(0.0) & t0.lt(upper), t0, upper)
    alive = (parallel & num.ge(0.0)) | (~parallel & ~lower.gt(upper))
    dn = dx * ox + dy * oy
    t = dx * (vx - q1x) + dy * (vy - q1y)
    cond = dn.eq(0.0) & ~t.lt(lower) & in_band(kind, ">", t, upper)
    return [[(q0x, q0y, m0x, m0y), (q1x, q1y, -1.0, 0.0)], 2.0, 1.0, 0.0], reach & nonempty & alive & cond


LP_TARGETS: tuple[Target, ...] = (
    Target(_L + "solve_closest: t < lower", ("float32", "signed-zeros"), "solve_closest", "lp.project",
           "one line violated by p inside the disc, t = d.(p - P) against lower", _closest_clamp("lower")),
    Target(_L + "solve_closest: t > upper", ("tolerance", "float32"), "solve_closest", "lp.project",
           "one line violated by p inside the disc, t = d.(p - P) against upper", _closest_clamp("upper")),
    Target(_L + "line_interval: t > lower", ("signed-zeros",), "solve_closest", "lp.bound",
           "two lines, line 1 cut by line 0 (denom > 0), radius free", _cut("t > lower")),
    Target(_L + "line_interval: t < upper", ("signed-zeros",), "solve_closest", "lp.bound",
           "two lines, line 1 cut by line 0 (denom < 0), radius free", _cut("t < upper")),
    Target(_L + "solve_direction: t > upper", ("float32",), "solve_direction", "lp.direction",
           "two lines, line 1 violated with d.N == 0, cut by line 0, t = d.(v - P) against upper",
           _direction_clamp),
)
