"""More encodings for selftest/census/band_solver.py: the domain test and the fallback of support_distance.

Contract: ``SUPPORT_TARGETS`` lists ``Target``s (selftest/census/band_targets.py) for two decisions of
solver/obstacle.support_distance that the encodings of band_targets.py do not reach: the domain
test's second half ``nx * bx + ny * by + r <= tol_b`` for the first candidate (the radial normal
of a), and the selection ``vb < va`` of the fallback direction when no candidate is found.  The
first fixes a, x, r and tau to help the solver; the other two encode sufficient cases only (every
candidate vanishes: |wa| == |wb| == |e| == 0 through underflow, and both points' legs are
skipped; or a and b lie well inside r, so that the domain test refuses every candidate).  An ``unsat`` of any of them would prove nothing:
their targets say so and selftest/census/band_solver.py keeps no proof of them (``Target.proves``).
"""

from __future__ import annotations

from .band_smt import B, Problem, in_band
from .band_targets import Target, _box

_S = "solver.obstacle.support_distance: "
_TOLERANCE = 1e-9
"""solver/obstacle.TOLERANCE, the domain test's relative tolerance."""


def _domain_b(p: Problem, kind: str) -> tuple[list, B]:
    """No overlap, a = (2, 0), x = 0, r = tau = 1 (fixed to help the solver: no proof): the radial
    normal of a passes the test's first half (tol_a); the legs of a and b, when appended,
    divide by a nonzero rho2."""
    bx, by = _box(p, "bx by")
    ax, ay = p.const(2.0), p.const(0.0)  # fixed to help the solver: no proof
    xx, xy, r, tau = p.const(0.0), p.const(0.0), p.const(1.0), p.const(1.0)
    wx, wy = xx - ax / tau, xy - ay / tau
    la = (wx * wx + wy * wy).sqrt()
    nx, ny = wx / la, wy / la
    tol_a = _TOLERANCE * ((ax * ax + ay * ay).sqrt() + r)
    tol_b = _TOLERANCE * ((bx * bx + by * by).sqrt() + r)
    reach = (ax.ne(bx) | ay.ne(by)) & la.ne(0.0) & (nx * ax + ny * ay + r).le(tol_a)
    for px, py in ((ax, ay), (bx, by)):  # legs appended (ll >= 0) divide by rho2: not by zero
        rho2 = px * px + py * py
        reach = reach & ((rho2 - r * r).lt(0.0) | rho2.ne(0.0))
    return [2.0, 0.0, bx, by, 1.0, 1.0, 0.0, 0.0, 0], reach & in_band(kind, "<=", nx * bx + ny * by + r, tol_b)


def _fallback_pick(p: Problem, kind: str) -> tuple[list, B]:
    """No overlap, a != b, no candidate: wa, wb and e vanish, rho2 < r*r at a and at b; the
    fallback normal (1, 0) when a + b == 0, else -(a + b)/|a + b|; va, vb its values."""
    ax, ay, bx, by, xx, xy = _box(p, "ax ay bx by xx xy")
    r = _box(p, "r", 0.0, 100.0)[0]
    tau = _box(p, "tau", 1e-3, 100.0)[0]
    wax, way, wbx, wby = xx - ax / tau, xy - ay / tau, xx - bx / tau, xy - by / tau
    ex, ey = bx - ax, by - ay
    none = ((wax * wax + way * way).sqrt().eq(0.0) & (wbx * wbx + wby * wby).sqrt().eq(0.0)
            & (ex * ex + ey * ey).sqrt().eq(0.0))
    legs_skipped = ((ax * ax + ay * ay) - r * r).lt(0.0) & ((bx * bx + by * by) - r * r).lt(0.0)
    sx, sy = ax + bx, ay + by
    ls = (sx * sx + sy * sy).sqrt()
    p.assume(ls.eq(0.0))  # the normal (1, 0): the sign pattern the band needs, and no division
    va = 1.0 * wax + 0.0 * way
    vb = 1.0 * wbx + 0.0 * wby
    reach = (ax.ne(bx) | ay.ne(by)) & none & legs_skipped
    return [ax, ay, bx, by, r, tau, xx, xy, 0], reach & in_band(kind, "<", vb, va)


def _fallback_inside(p: Problem, kind: str) -> tuple[list, B]:
    """No overlap, a != b, both within 0.25 of the origin per coordinate, r = tau = 1 and x = a (a
    sufficient case only): n.a + r >= 1 - |a| > tol_a for every candidate n (|n| <= 1; a NaN one fails the
    test too) and rho2 < r*r skips the legs, so no candidate is found; the fallback normal is
    (1, 0) when a + b == 0, else -(a + b)/|a + b|; va, vb its values."""
    ax, ay, bx, by = _box(p, "ax ay bx by", -0.25, 0.25)
    xx, xy, tau = ax, ay, p.const(1.0)  # x = a / tau, fixed to help the solver
    wax, way, wbx, wby = xx - ax / tau, xy - ay / tau, xx - bx / tau, xy - by / tau
    sx, sy = ax + bx, ay + by
    ls = (sx * sx + sy * sy).sqrt()
    p.assume(ls.ne(0.0))
    nx, ny = -sx / ls, -sy / ls
    va = nx * wax + ny * way
    vb = nx * wbx + ny * wby
    reach = ax.ne(bx) | ay.ne(by)
    return [ax, ay, bx, by, 1.0, 1.0, ax, ay, 0], reach & in_band(kind, "<", vb, va)


SUPPORT_TARGETS: tuple[Target, ...] = (
    Target(_S + "nx * bx + ny * by + r <= tol_b", ("float32",), "support_distance", "support.domain-test",
           "no overlap, a = (2, 0), x = 0, r = tau = 1 (no proof), the radial normal of a past tol_a: n.b + r against "
           "tol_b", _domain_b, proves=False),
    Target(_S + "vb < va #2", ("signed-zeros",), "support_distance", "support.fallback-direction",
           "a sufficient case only (no proof): no overlap, a != b, wa, wb and e vanish by underflow, "
           "legs skipped, a + b == 0 (normal (1, 0)): vb against va", _fallback_pick, proves=False),
    Target(_S + "vb < va #2", ("float32",), "support_distance", "support.fallback-direction",
           "a sufficient case only (no proof): no overlap, a != b well inside r = 1 (every candidate "
           "refused, legs skipped), tau = 1, x = a, a + b != 0: vb against va", _fallback_inside, proves=False),
)
