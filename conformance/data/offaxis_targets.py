"""More fused-reading targets of the off-axis search: the signed distance of the programs and of
the fallback's level, the support form's domain test and fallback direction, ForBoundary's
corner test, the driver's waypoint test, the obstacle reach and the responsibility sum.

Contract: ``MORE_TARGETS`` are ``offaxis_search.Target`` records like ``TARGETS`` (same
meaning: a decision or value within a few ulps of its boundary, found on inputs built along
off-axis directions and nudged by ulps, on which a fused reading answers otherwise).
"""

from __future__ import annotations

import math
from typing import Iterator

from ..contract.fused import fma
from ..solver import constraint, fallback, linear_program, obstacle
from .offaxis_search import SLOPES, Target, nudged, unit


def _dot(ax: float, ay: float, bx: float, by: float, reading: str) -> float:
    """a . b as the text rounds it (``text``) or with one product fused (``first``/``second``)."""
    if reading == "first":
        return fma(ax, bx, ay * by)
    if reading == "second":
        return fma(ay, by, ax * bx)
    return ax * bx + ay * by


# ------------------------------------------------------------------------- signed distances

def _closest_candidates() -> Iterator[list]:
    """One line through the preferred velocity (inside the disc, so v = preferred): v - P along
    the line's direction, nudged."""
    for k in SLOPES:
        nx, ny = unit(k)
        px, py = 0.3 * nx - 0.2 * ny, 0.3 * ny + 0.2 * nx
        for s in (0.7, -1.1):
            for qx, qy in nudged(px - s * ny, py + s * nx):
                yield [[(px, py, nx, ny)], 10.0, qx, qy]


def _signed_differs(args: list, reading: str) -> bool:
    """The visit test (v - P) . N >= 0 of a one-line program goes the other way, and visiting
    moves v: P + d t, t = d . (v - P), has other bits than v."""
    (px, py, nx, ny), = args[0]
    vx, vy = args[2], args[3]
    if (_dot(vx - px, vy - py, nx, ny, reading) >= 0.0) == (_dot(vx - px, vy - py, nx, ny, "text") >= 0.0):
        return False
    dx, dy = -ny, nx
    t = dx * (vx - px) + dy * (vy - py)
    return (px + dx * t, py + dy * t) != (vx, vy)


def _direction_candidates() -> Iterator[list]:
    """The direction program's start v = (D/|D|) R and one line through it, nudged."""
    for k in SLOPES:
        dx, dy = unit(k)
        olen = math.sqrt(dx * dx + dy * dy)
        vx, vy = dx / olen * 2.0, dy / olen * 2.0
        nx, ny = unit(-1.0 / (k + 0.25))
        for s in (0.5, -0.8):
            for px, py in nudged(vx - s * ny, vy + s * nx):
                yield [[(px, py, nx, ny)], 2.0, dx, dy]


def _start_differs(args: list, reading: str) -> bool:
    """The direction program's test at its start v = (D/|D|) R."""
    dx, dy = args[2], args[3]
    olen = math.sqrt(dx * dx + dy * dy)
    return _signed_differs([args[0], args[1], dx / olen * args[1], dy / olen * args[1]], reading)


def _level_candidates() -> Iterator[list]:
    """relax with no hard line: v = N_0 R / |N_0|, level = g_0(v); line 1 through v - level N_1
    (g_1(v) = level) nudged; and a third line likewise at the level after line 1 moved v."""
    for k in SLOPES:
        n0x, n0y = unit(k)
        n1x, n1y = unit(-1.0 / k + 0.3)
        p0x, p0y = 0.4 * n0x + 0.1 * n0y, 0.4 * n0y - 0.1 * n0x
        vx, vy = n0x * 2.0, n0y * 2.0
        level = (vx - p0x) * n0x + (vy - p0y) * n0y
        for p1x, p1y in nudged(vx - level * n1x, vy - level * n1y, 4):
            yield [[(p0x, p0y, n0x, n0y), (p1x, p1y, n1x, n1y)], 0, 2.0, 0]
        # line 1 well below the level (v moves, the level is updated), then line 2 at the new level
        first = [(p0x, p0y, n0x, n0y), (vx - (level - 0.5) * n1x, vy - (level - 0.5) * n1y, n1x, n1y)]
        wx, wy = fallback.relax(first, 0, 2.0, 0)
        if (wx, wy) == fallback.relax(first[:1], 0, 2.0, 0):
            continue  # line 1's program failed: the level was not updated
        level1 = (wx - first[1][0]) * n1x + (wy - first[1][1]) * n1y
        n2x, n2y = unit(k + 2.5)
        for p2x, p2y in nudged(wx - level1 * n2x, wy - level1 * n2y, 4):
            yield [[*first, (p2x, p2y, n2x, n2y)], 0, 2.0, 0]


def _level_differs(args: list, reading: str) -> bool:
    """Whether the last line's test g_j(v) >= level goes the other way with g_j (``sd-``), the
    first level (``level-``, two lines) or the level updated after line 1 (``update-``, three
    lines) fused, v and the level being the text's up to the last line."""
    lines = args[0]
    vx, vy = fallback.relax(lines[:-1], 0, 2.0, 0)
    prev = lines[-2] if len(lines) > 2 else lines[0]
    px, py, nx, ny = lines[-1]
    qx, qy, mx, my = prev
    which, how = reading.split("-")
    if which in ("level", "update") and (which == "update") != (len(lines) > 2):
        return False  # the first level (two lines) or the level updated after line 1 (three lines)
    level_text = _dot(vx - qx, vy - qy, mx, my, "text")
    sd_text = _dot(vx - px, vy - py, nx, ny, "text")
    level = _dot(vx - qx, vy - qy, mx, my, how) if which in ("level", "update") else level_text
    sd = _dot(vx - px, vy - py, nx, ny, how) if which == "sd" else sd_text
    if (sd >= level) == (sd_text >= level_text):
        return False
    # the other branch must give other bits: skipping keeps v, processing takes the program's answer
    return _processed(lines, vx, vy) != (vx, vy)


def _processed(lines: list, vx: float, vy: float) -> tuple[float, float]:
    """The text's treatment of the last soft line as if its test had sent it on (no hard line):
    the bisector program with every earlier line, maximized along its normal (v when it fails)."""
    pjx, pjy, njx, njy = lines[-1]
    pj_nj = pjx * njx + pjy * njy
    program = []
    for pkx, pky, nkx, nky in lines[:-1]:
        mx, my = nkx - njx, nky - njy
        mm = mx * mx + my * my
        if mm <= fallback.PARALLEL_NORMALS:
            continue
        ml = math.sqrt(mm)
        mhx, mhy = mx / ml, my / ml
        q = ((pkx * nkx + pky * nky) - pj_nj) / ml
        program.append((mhx * q, mhy * q, mhx, mhy))
    rx, ry, failed = linear_program.solve_direction(program, 2.0, njx, njy)
    return (rx, ry) if failed < 0 else (vx, vy)


# ------------------------------------------------------------------------- the support form

def _domain_candidates() -> Iterator[list]:
    """A point obstacle a off the axes and x = a/tau + n: n at the tangent angle, n.a = -r + tol
    (the domain test's boundary), nudged; the overlap flag clear.  Then, for the tolerance's own
    rounding, a radius of the tolerance's size (n almost across a), nudged by ulps so that n.a + r
    falls between the text's tolerance and the fused one."""
    for k in SLOPES:
        ux, uy = unit(k)
        for length, r, tau in ((3.0, 1.0, 2.0), (1.7, 0.9, 1.0)):
            ax, ay = length * ux, length * uy
            tol = obstacle.TOLERANCE * (math.sqrt(ax * ax + ay * ay) + r)
            c = (r - tol) / length
            s = math.sqrt(1.0 - c * c)
            nx, ny = -(c * ux) - s * uy, -(c * uy) + s * ux
            for xx, xy in nudged(ax / tau + 0.5 * nx, ay / tau + 0.5 * ny):
                yield [ax, ay, ax, ay, r, tau, xx, xy, 0]
    for k in SLOPES:
        ux, uy = unit(k)
        for ax, ay in nudged(3.3 * ux, 3.3 * uy, 3):
            tols = {obstacle.TOLERANCE * (math.sqrt(_dot(ax, ay, ax, ay, h)) + 3e-9) for h in ("text", "first", "second")}
            if len(tols) == 1:
                continue
            e = 3e-10 * 0.75 / 3.3
            xx, xy = ax / 2.0 - uy * 0.75 + ux * e, ay / 2.0 + ux * 0.75 + uy * e
            wx, wy = xx - ax / 2.0, xy - ay / 2.0
            la = math.sqrt(wx * wx + wy * wy)
            dot = (wx / la) * ax + (wy / la) * ay
            tol = obstacle.TOLERANCE * (math.sqrt(ax * ax + ay * ay) + 3e-9)
            r0 = tol - dot
            for n in range(-40, 41):
                r = r0
                for _ in range(abs(n)):
                    r = math.nextafter(r, math.inf if n > 0 else -math.inf)
                yield [ax, ay, ax, ay, r, 2.0, xx, xy, 0]


def _domain_differs(args: list, reading: str) -> bool:
    """The radial candidate's domain test n.a + r <= tolA and n.b + r <= tolB (a point: b = a)
    with n.a (``dot-``) or |a| in tolA (``tol-``) fused on the a side only, as one site is."""
    ax, ay, _, _, r, tau, xx, xy, _ = args
    wx, wy = xx - ax / tau, xy - ay / tau
    la = math.sqrt(wx * wx + wy * wy)
    nx, ny = wx / la, wy / la
    which, how = reading.split("-")
    tol_text = obstacle.TOLERANCE * (math.sqrt(ax * ax + ay * ay) + r)
    dot_text = _dot(nx, ny, ax, ay, "text")
    tol = obstacle.TOLERANCE * (math.sqrt(_dot(ax, ay, ax, ay, how)) + r) if which == "tol" else tol_text
    dot = _dot(nx, ny, ax, ay, how) if which == "dot" else dot_text
    text = dot_text + r <= tol_text
    return (dot + r <= tol and text) != text


def _fallback_candidates() -> Iterator[list]:
    """Both ends inside the radius with the overlap flag clear: no candidate survives and the
    fallback direction -(a + b)/|a + b| decides, off the axes."""
    for k in SLOPES:
        ux, uy = unit(k)
        vx, vy = unit(k + 1.3)
        for ax, ay in nudged(0.3 * ux, 0.3 * uy, 3):
            for xx, xy in nudged(0.35 * vx + 0.1, 0.35 * vy - 0.2, 2):
                yield [ax, ay, 0.2 * vx, 0.2 * vy, 1.0, 2.0, xx, xy, 0]
                yield [0.2 * vx, 0.2 * vy, ax, ay, 1.0, 2.0, -xx, -xy, 0]


def _fallback_differs(args: list, reading: str) -> bool:
    """The fallback's value min(n.wb, n.wa) with |a + b| (``len-``) or one of the two dots
    (``va-``, ``vb-``) fused."""
    ax, ay, bx, by, r, tau, xx, xy, _ = args
    sx, sy = ax + bx, ay + by
    which, how = reading.split("-")

    def value(len_how: str, va_how: str, vb_how: str) -> float:
        ls = math.sqrt(_dot(sx, sy, sx, sy, len_how))
        nx, ny = -sx / ls, -sy / ls
        va = _dot(nx, ny, xx - ax / tau, xy - ay / tau, va_how)
        vb = _dot(nx, ny, xx - bx / tau, xy - by / tau, vb_how)
        return vb if vb < va else va
    fused = value(*(how if which == w else "text" for w in ("len", "va", "vb")))
    text = value("text", "text", "text")
    return fused != text and obstacle.support_distance(*args[:8], False)[0] == text - r / tau


# ------------------------------------------------------------------------- ForBoundary, driver, reach

def _boundary_candidates() -> Iterator[list]:
    """A boundary stretch off the axes whose s = -(a.e)/(e.e) sits on the corner margin m."""
    for k in SLOPES:
        ex, ey = unit(k)
        ex, ey = 3.0 * ex, 3.0 * ey
        le = math.sqrt(ex * ex + ey * ey)
        m = (0.5 + constraint.BOUNDARY_EPSILON) / le
        for s in (m, 1.0 - m):
            ax, ay = -s * ex + 0.8 * ey / le, -s * ey - 0.8 * ex / le
            for nax, nay in nudged(ax, ay):
                yield [nax, nay, nax + ex, nay + ey, 0.5, 2.0]


def _boundary_differs(args: list, reading: str) -> bool:
    ax, ay, bx, by, clearance, _ = args
    ex, ey = bx - ax, by - ay
    ee = ex * ex + ey * ey
    m = (clearance + constraint.BOUNDARY_EPSILON) / math.sqrt(ee)
    s_text = -_dot(ax, ay, ex, ey, "text") / ee
    s = -_dot(ax, ay, ex, ey, reading) / ee
    return (s <= m or s >= 1.0 - m) != (s_text <= m or s_text >= 1.0 - m)


def _waypoint_candidates() -> Iterator[list]:
    """The second waypoint at the goal radius off the axes (after the first, which is reached)."""
    for k in SLOPES:
        ux, uy = unit(k)
        for wx, wy in nudged(0.5 * ux, 0.5 * uy):
            yield [0.0, 0.0, [(0.0, 0.1), (wx, wy), (4.0, 3.0)], 0, 0.5, 1.0, 0.5, 0, 0.0, 0, 0, 1]


def _waypoint_differs(args: list, reading: str) -> bool:
    wx, wy = args[2][1]
    reach2 = args[4] * args[4]
    return (_dot(wx, wy, wx, wy, reading) <= reach2) != (_dot(wx, wy, wx, wy, "text") <= reach2)


def _reach_candidates() -> Iterator[list]:
    """One agent and a wall at the obstacle reach, where the fused reach is an ulp away."""
    for tho in (0.1, 0.3, 0.7, 1.1, 2.3):
        for speed in (1.3, 1.7, 2.9):
            for radius in (0.3, 0.5, 0.35):
                text, fused = tho * speed + radius, fma(tho, speed, radius)
                if text == fused:
                    continue
                c = max(text, fused)
                yield [0, [0.0], [0.0], [0.0], [0.0], [1.0], [0.0], [radius], [speed], [3.0], [4], [2.0], [tho],
                       [(-1.0, c, 1.0, c)], 0.125]


def _reach_differs(args: list, reading: str) -> bool:
    radius, speed, tho = args[7][0], args[8][0], args[12][0]
    c = args[13][0][1]
    text, fused = tho * speed + radius, fma(tho, speed, radius)
    return (c * c <= text * text) != (c * c <= fused * fused)


def _responsibility_candidates() -> Iterator[list]:
    """Overlapping agents a few subnormal quanta apart: u = n * -d is a few quanta, and half of
    an odd one is a tie that P = vA + u/2 rounds once (fused) or twice (the text)."""
    q = 5e-324
    for i in range(-3, 4):
        for m in (1, 2, 5):
            for k in range(-6, 7):
                yield [i * q, 2 * q, m * q, 2.0, 0.1, k * q, 3 * q, 0.0, 0.0]


def _responsibility_differs(args: list, reading: str) -> bool:
    ax, ay, r, _, dt, vax, vay, _, _ = args
    if not ax * ax + ay * ay <= r * r:
        return False
    d, nx, ny = obstacle.support_distance(ax, ay, ax, ay, r, dt, vax, vay, True)
    ux, uy = nx * -d, ny * -d
    return fma(ux, 0.5, vax) != vax + ux * 0.5 or fma(uy, 0.5, vay) != vay + uy * 0.5


MORE_TARGETS: tuple[Target, ...] = (
    Target("solve_closest", "solver.linear_program.solve_closest: (vx - px) * nx + (vy - py) * ny >= 0.0",
           "lp.visit", ("first", "second"), _closest_candidates, _signed_differs),
    Target("solve_direction", "solver.linear_program.solve_direction: (vx - px) * nx + (vy - py) * ny >= 0.0",
           "lp.direction", ("first", "second"), _direction_candidates, _start_differs),
    Target("relax", "solver.fallback.maximize_smallest_distance: g_j(v) >= level", "fallback.skip",
           ("level-first", "level-second", "update-first", "update-second", "sd-first", "sd-second"),
           _level_candidates, _level_differs),
    Target("support_distance", "solver.obstacle.support_distance: not (na + r <= tol_a and nb + r <= tol_b)",
           "support.domain-test", ("dot-first", "dot-second", "tol-first", "tol-second"), _domain_candidates,
           _domain_differs),
    Target("support_distance", "solver.obstacle.support_distance: fallback direction -(a + b)/|a + b|",
           "support.fallback-direction", ("len-first", "len-second", "va-first", "va-second", "vb-first", "vb-second"),
           _fallback_candidates, _fallback_differs),
    Target("for_boundary", "solver.constraint.for_boundary: s <= m or s >= 1.0 - m", "boundary.corner",
           ("first", "second"), _boundary_candidates, _boundary_differs),
    Target("preferred_velocity", "contract.driver.Driver.preferred_velocity: dist2 <= reach2", "driver.waypoints",
           ("first", "second"), _waypoint_candidates, _waypoint_differs),
    Target("agent_step", "solver.simulator.Simulator.constraints: reach = obstacle horizon * max speed + radius",
           "neighbors.obstacles", ("sum",), _reach_candidates, _reach_differs),
    Target("agent_constraint", "solver.constraint.agent_constraint: P = vA + u * RESPONSIBILITY",
           "agents.responsibility", ("sum",), _responsibility_candidates, _responsibility_differs),
)
