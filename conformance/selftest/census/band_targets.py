"""The encodings selftest/census/band_solver.py solves: one primitive (the part that feeds one decision) per
census site, written in binary64 SMT terms operation by operation as the reference computes it.

Contract: ``TARGETS`` lists ``Target``s: a census site, the band kinds asked of it, the vector
family whose case reaches it, the clause it serves, a sentence saying what is encoded, and
``encode(p, kind)`` returning the family's argument template (``F`` inputs and plain values,
in the family's layout) and the formula "the site is evaluated with these arguments and its two
operands sit in the band".  Inputs are finite doubles in the boxes ``_box`` records on the problem
(``Problem.boxes``; ``BOUND`` unless a target says otherwise), so that an ``unsat`` is a statement
about every input in those boxes; a target fixes an input to a constant only where that helps the
solver find a model (roots), never where it could prove a band empty.  Each encoding
follows the source line for line; the solver module checks every model it finds on the
instrumented reference, so a wrong encoding cannot put a wrong case in the vectors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .band_smt import B, F, Problem, in_band

BOUND = 1e6
"""|input| <= BOUND for every coordinate, velocity, radius and horizon of an encoding."""


@dataclass(frozen=True)
class Target:
    site: str
    kinds: tuple[str, ...]
    family: str
    clause: str
    encoding: str
    encode: Callable[[Problem, str], tuple[list, B]]
    proves: bool = True
    """False for an encoding of a sufficient case only: its ``unsat`` is no proof."""


def _box(p: Problem, names: str, low: float = -BOUND, high: float = BOUND) -> list[F]:
    p.boxes.append(f"{', '.join(names.split())} in [{low:g}, {high:g}]")
    out = []
    for name in names.split():
        x = p.var(name)
        p.assume(x.ge(low) & x.le(high))
        out.append(x)
    return out


def _seg_ee(p: Problem, kind: str) -> tuple[list, B]:
    ax, ay, bx, by = _box(p, "ax ay bx by")
    ex, ey = bx - ax, by - ay
    ee = ex * ex + ey * ey
    return [ax, ay, bx, by], in_band(kind, "==", ee, p.const(0.0))


def _seg_t(p: Problem, kind: str) -> tuple[list, B]:
    ax, ay, bx, by = _box(p, "ax ay bx by")
    ex, ey = bx - ax, by - ay
    ee = ex * ex + ey * ey
    t = -(ax * ex + ay * ey) / ee
    return [ax, ay, bx, by], ee.ne(0.0) & in_band(kind, "<", t, p.const(0.0))


def _seg_t_upper(p: Problem, kind: str) -> tuple[list, B]:
    ax, ay, bx, by = _box(p, "ax ay bx by")
    ex, ey = bx - ax, by - ay
    ee = ex * ex + ey * ey
    t = -(ax * ex + ay * ey) / ee
    return [ax, ay, bx, by], ee.ne(0.0) & t.ge(0.0) & in_band(kind, ">", t, p.const(1.0))


def _support_radial(which: str) -> Callable[[Problem, str], tuple[list, B]]:
    def encode(p: Problem, kind: str) -> tuple[list, B]:
        ax, ay, bx, by, xx, xy = _box(p, "ax ay bx by xx xy")
        r = _box(p, "r", 0.0, 100.0)[0]
        tau = _box(p, "tau", 1e-3, 100.0)[0]
        px, py = (ax, ay) if which == "a" else (bx, by)
        wx, wy = xx - px / tau, xy - py / tau
        length = (wx * wx + wy * wy).sqrt()
        reached = p.const(0.0).eq(0.0) if which == "a" else (ax.ne(bx) | ay.ne(by))
        return [ax, ay, bx, by, r, tau, xx, xy, 1], reached & in_band(kind, "!=", length, p.const(0.0))
    return encode


def _support_le(p: Problem, kind: str) -> tuple[list, B]:
    ax, ay, bx, by, xx, xy = _box(p, "ax ay bx by xx xy")
    ex, ey = bx - ax, by - ay
    le = (ex * ex + ey * ey).sqrt()
    return [ax, ay, bx, by, 1.0, 1.0, xx, xy, 1], (ax.ne(bx) | ay.ne(by)) & in_band(kind, ">", le, p.const(0.0))


def _support_ls(p: Problem, kind: str) -> tuple[list, B]:
    # overlap, a == b, x == a / tau: the only candidate (radial a) has |wa| == 0, so the fallback
    # direction runs: ls = |a + b|
    ax, ay = _box(p, "ax ay")
    tau = _box(p, "tau", 1e-3, 100.0)[0]
    xx, xy = ax / tau, ay / tau
    wx, wy = xx - ax / tau, xy - ay / tau
    la = (wx * wx + wy * wy).sqrt()
    sx, sy = ax + ax, ay + ay
    ls = (sx * sx + sy * sy).sqrt()
    return [ax, ay, ax, ay, 1.0, tau, xx, xy, 1], la.eq(0.0) & in_band(kind, "==", ls, p.const(0.0))


def _legs(p: Problem, kind: str) -> tuple[list, B]:
    ax, ay, xx, xy = _box(p, "ax ay xx xy")
    r = _box(p, "r", 0.0, 100.0)[0]
    ll = (ax * ax + ay * ay) - r * r
    return [ax, ay, ax, ay, r, 1.0, xx, xy, 0], in_band(kind, "<", ll, p.const(0.0))


def _case_form(which: str) -> Callable[[Problem, str], tuple[list, B]]:
    def encode(p: Problem, kind: str) -> tuple[list, B]:
        ax, ay, xx, xy = _box(p, "ax ay xx xy")
        r = _box(p, "r", 0.0, 100.0)[0]
        tau = _box(p, "tau", 1e-3, 100.0)[0]
        wx, wy = xx - ax / tau, xy - ay / tau
        dot1 = wx * ax + wy * ay
        ww = wx * wx + wy * wy
        reach = (ax * ax + ay * ay).gt(r * r)
        if which == "dot1":
            return [ax, ay, r, tau, xx, xy], reach & in_band(kind, "<", dot1, p.const(0.0))
        cutoff = dot1.lt(0.0) & (dot1 * dot1).gt(r * r * ww)
        cross = ax * wy - ay * wx
        return [ax, ay, r, tau, xx, xy], reach & ~cutoff & in_band(kind, ">", cross, p.const(0.0))
    return encode


def _neighbors(p: Problem, kind: str) -> tuple[list, B]:
    x0, y0, x1, y1 = _box(p, "x0 y0 x1 y1", -1e3, 1e3)
    nd = p.const(1.25) if kind == "roots" else _box(p, "nd", 0.0, 1e3)[0]
    dx, dy = x1 - x0, y1 - y0
    d2 = dx * dx + dy * dy
    return [0, [x0, x1], [y0, y1], nd, 10], in_band(kind, "<", d2, nd * nd)


def _obstacle_reach(p: Problem, kind: str) -> tuple[list, B]:
    x, y, ax, ay, bx, by = _box(p, "x y ax ay bx by", -1e3, 1e3)
    reach = p.const(2.3) if kind == "roots" else _box(p, "reach", 0.0, 1e3)[0]
    rx, ry, sx, sy = ax - x, ay - y, bx - x, by - y
    ex, ey = sx - rx, sy - ry
    ee = ex * ex + ey * ey
    return [x, y, reach, [(ax, ay, bx, by)]], ee.eq(0.0) & in_band(kind, "<=", rx * rx + ry * ry, reach * reach)


def _driver_reach(p: Problem, kind: str) -> tuple[list, B]:
    px, py, gx, gy = _box(p, "px py gx gy", -1e3, 1e3)
    goal = p.const(0.5) if kind == "roots" else _box(p, "goal", 0.0, 1e3)[0]
    dx, dy = gx - px, gy - py
    dist2 = dx * dx + dy * dy
    args = [px, py, [(gx, gy), (0.0, 0.0)], 0, goal, 1.0, 0.5, 0, 0.0, 0, 0, 1]
    return args, in_band(kind, "<=", dist2, goal * goal)


def _driver_arrive(p: Problem, kind: str) -> tuple[list, B]:
    px, py, gx, gy = _box(p, "px py gx gy", -1e3, 1e3)
    speed, dt = _box(p, "speed dt", 0.0, 1e2)
    dx, dy = gx - px, gy - py
    dist = (dx * dx + dy * dy).sqrt()
    p.assume(dt.gt(0.0))
    args = [px, py, [(gx, gy)], 0, 0.0, speed, dt, 0, 0.0, 0, 0, 1]
    return args, in_band(kind, "<=", dist, speed * dt)


def _driver_magnitude(p: Problem, kind: str) -> tuple[list, B]:
    m = _box(p, "m", 0.0, 1.0)[0]
    return [0.0, 0.0, [(3.0, 4.0)], 0, 0.5, 1.0, 0.5, 7, m, 0, 0, 1], in_band(kind, ">", m, p.const(0.0))


def _lp_start(p: Problem, kind: str) -> tuple[list, B]:
    px, py = _box(p, "px py", -1e3, 1e3)
    radius = _box(p, "radius", 0.0, 1e3)[0]
    plen = (px * px + py * py).sqrt()
    return [[], radius, px, py], in_band(kind, "<=", plen, radius)


def _lp_visit(p: Problem, kind: str) -> tuple[list, B]:
    qx, qy, nx, ny, px, py = _box(p, "qx qy nx ny px py", -10.0, 10.0)
    radius = p.const(100.0)
    g = (px - qx) * nx + (py - qy) * ny
    return [[(qx, qy, nx, ny)], 100.0, px, py], (px * px + py * py).sqrt().le(radius) & in_band(kind, ">=", g, p.const(0.0))


def _lp_disc(p: Problem, kind: str) -> tuple[list, B]:
    qx, qy, nx, ny = _box(p, "qx qy nx ny", -10.0, 10.0)
    radius = _box(p, "radius", 0.0, 10.0)[0]
    dx, dy = -ny, nx
    pd = qx * dx + qy * dy
    disc = pd * pd + radius * radius - (qx * qx + qy * qy)
    violated = ((0.0 - qx) * nx + (0.0 - qy) * ny).lt(0.0)
    return [[(qx, qy, nx, ny)], radius, 0.0, 0.0], violated & in_band(kind, "<", disc, p.const(0.0))


def _lp_pair(site: str) -> Callable[[Problem, str], tuple[list, B]]:
    """Two lines, the start (pref, inside the disc) satisfies line 0 and violates line 1, so
    line_interval(lines, 1) compares line 1 with line 0."""
    def encode(p: Problem, kind: str) -> tuple[list, B]:
        q0x, q0y, m0x, m0y, q1x, q1y, n1x, n1y, px, py = _box(p, "q0x q0y m0x m0y q1x q1y n1x n1y px py", -4.0, 4.0)
        radius = p.const(8.0)
        reach = ((px - q0x) * m0x + (py - q0y) * m0y).ge(0.0) & ((px - q1x) * n1x + (py - q1y) * n1y).lt(0.0)
        reach = reach & (px * px + py * py).sqrt().le(radius)
        dx, dy = -n1y, n1x
        pd = q1x * dx + q1y * dy
        reach = reach & (pd * pd + radius * radius - (q1x * q1x + q1y * q1y)).ge(0.0)
        denom = dx * m0x + dy * m0y
        num = (q1x - q0x) * m0x + (q1y - q0y) * m0y
        eps = p.const(1e-12)
        parallel = (-eps).le(denom) & denom.le(eps)
        cond = {"-PARALLEL_EPSILON <= denom": in_band(kind, "<=", -eps, denom),
                "denom <= PARALLEL_EPSILON": (-eps).le(denom) & in_band(kind, "<=", denom, eps),
                "num < 0.0": parallel & in_band(kind, "<", num, p.const(0.0)),
                "denom > 0.0": ~parallel & in_band(kind, ">", denom, p.const(0.0))}[site]
        return [[(q0x, q0y, m0x, m0y), (q1x, q1y, n1x, n1y)], 8.0, px, py], reach & cond
    return encode


def _direction(site: str) -> Callable[[Problem, str], tuple[list, B]]:
    def encode(p: Problem, kind: str) -> tuple[list, B]:
        qx, qy, nx, ny = _box(p, "qx qy nx ny", -4.0, 4.0)
        ox, oy = p.const(1.0), p.const(0.0)
        radius = p.const(2.0)
        olen = (ox * ox + oy * oy).sqrt()
        vx, vy = ox / olen * radius, oy / olen * radius
        g = (vx - qx) * nx + (vy - qy) * ny
        args = [[(qx, qy, nx, ny)], 2.0, 1.0, 0.0]
        if site == "visit":
            return args, olen.ne(0.0) & in_band(kind, ">=", g, p.const(0.0))
        dx, dy = -ny, nx
        pd = qx * dx + qy * dy
        reach = olen.ne(0.0) & g.lt(0.0) & (pd * pd + radius * radius - (qx * qx + qy * qy)).ge(0.0)
        dn = dx * ox + dy * oy
        if site == "dn > 0.0":
            return args, reach & in_band(kind, ">", dn, p.const(0.0))
        return args, reach & ~dn.gt(0.0) & in_band(kind, "<", dn, p.const(0.0))
    return encode


def _fallback_mm(p: Problem, kind: str) -> tuple[list, B]:
    q0x, q0y, q1x, q1y, n1x, n1y = _box(p, "q0x q0y q1x q1y n1x n1y", -4.0, 4.0)
    n0x, n0y = p.const(0.0), p.const(-1.0)
    radius = p.const(2.0)
    olen = (n0x * n0x + n0y * n0y).sqrt()
    vx, vy = n0x / olen * radius, n0y / olen * radius
    level = (vx - q0x) * n0x + (vy - q0y) * n0y
    reach = olen.ne(0.0) & ((vx - q1x) * n1x + (vy - q1y) * n1y).lt(level)
    mx, my = n0x - n1x, n0y - n1y
    mm = mx * mx + my * my
    return [[(q0x, q0y, 0.0, -1.0), (q1x, q1y, n1x, n1y)], 0, 2.0, 0], reach & in_band(kind, "<=", mm, p.const(1e-24))


def _boundary(site: str) -> Callable[[Problem, str], tuple[list, B]]:
    def encode(p: Problem, kind: str) -> tuple[list, B]:
        ax, ay, bx, by = _box(p, "ax ay bx by", -1e3, 1e3)
        clearance, tau = _box(p, "clearance tau", 0.0, 10.0)
        if site == "d":  # a horizontal stretch: n = (-0.0, 1) and d = -a.y exactly
            by = ay
        ex, ey = bx - ax, by - ay
        ee = ex * ex + ey * ey
        args = [ax, ay, bx, by, clearance, tau]
        if site == "ee":
            return args, in_band(kind, "==", ee, p.const(0.0))
        s = -(ax * ex + ay * ey) / ee
        le = ee.sqrt()
        nx, ny = -ey / le, ex / le
        d = -(ax * nx + ay * ny)
        m = (clearance + 1e-6) / le
        reach = ee.ne(0.0) & tau.ge(0.1) & ~s.le(m) & ~s.ge(1.0 - m)
        return args, reach & in_band(kind, "<", d, p.const(-1e-6))
    return encode


def _grid(site: str) -> Callable[[Problem, str], tuple[list, B]]:
    """agent_step with two agents on the x axis, agent 1 at x = w >= 0 (the widest coordinate),
    both of neighbor distance nd: cell = nd * (1 + 1/1024)."""
    def encode(p: Problem, kind: str) -> tuple[list, B]:
        w = _box(p, "w", 0.0, 1e3)[0]
        nd = _box(p, "nd", 0.0, 1e3)[0]
        cell = nd * (1.0 + 1.0 / 1024.0)
        args = [0, [0.0, w], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.5, 0.5], [1.0, 1.0],
                [nd, nd], [4, 4], [2.0, 2.0], [2.0, 2.0], [], 0.125]
        limit = p.const(4503599627370496.0)
        cond = {"ratio": cell.gt(0.0) & in_band(kind, "<", w / cell, limit),
                "cell": in_band(kind, ">", cell, p.const(0.0)),
                "cell2": cell.gt(0.0) & (w / cell).lt(limit) & in_band(kind, ">", cell, p.const(0.0)),
                "nd": in_band(kind, "<=", nd, p.const(0.0)),
                "cell<=": nd.gt(0.0) & in_band(kind, "<=", cell, p.const(0.0))}[site]
        return args, cond
    return encode


def _ties(site: str) -> Callable[[Problem, str], tuple[list, B]]:
    """Two candidates at distinct squared distances with equal roots: one at (1.25, 0), so
    d2 = 1.5625 exactly, the other free; for nsmallest, four more far-off agents and max 1."""
    def encode(p: Problem, kind: str) -> tuple[list, B]:
        x, y = _box(p, "x y", -4.0, 4.0)
        d2 = x * x + y * y
        band = d2.ne(1.5625) & d2.sqrt().eq(1.25)
        if site == "obstacles":
            return [0.0, 0.0, 2.0, [(1.25, 0.0, 1.25, 0.0), (x, y, x, y)]], band
        far = [2.5, -2.5, 0.0, 0.0] if site == "nsmallest" else []
        xs, ys = [0.0, 1.25, x] + far, [0.0, 0.0, y] + [0.0, 0.0, 2.5, -2.5][:len(far)]
        return [0, xs, ys, 3.0, 1 if site == "nsmallest" else 10], band
    return encode


_G = "solver.neighbors.AgentGrid."
_S = "solver.obstacle.support_distance: "
_L = "solver.linear_program."
def _grid_range(p: Problem, kind: str) -> tuple[list, B]:
    """agent_step, agent 0 at the origin and agent 1 at (x, y), neighbor distance 1.25: the grid's
    own range test (d2 := (x - xi)^2 + (y - yi)^2) < limit."""
    x, y = _box(p, "x y", -4.0, 4.0)
    d2 = (x - 0.0) * (x - 0.0) + (y - 0.0) * (y - 0.0)
    args = [0, [0.0, x], [0.0, y], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.5, 0.5], [1.0, 1.0],
            [1.25, 1.25], [4, 4], [2.0, 2.0], [2.0, 2.0], [], 0.125]
    return args, in_band(kind, "<", d2, p.const(1.5625))


TARGETS: tuple[Target, ...] = (
    Target(_G + "neighbors: (d2 := ((x - xi) * (x - xi) + (y - yi) * (y - yi))) < limit", ("roots",), "agent_step",
           "neighbors.agents", "two agents, the grid's range test with nd = 1.25 (limit 1.5625)", _grid_range),
    Target("solver.neighbors.obstacle_neighbors: found.sort() ties", ("ties",), "obstacle_neighbors",
           "neighbors.obstacles", "two point segments at squared distances d2 != 1.5625 with sqrt(d2) == 1.25",
           _ties("obstacles")),
    Target("solver.neighbors._smallest: found.sort() ties", ("ties",), "agent_neighbors", "neighbors.agents",
           "two neighbors at squared distances d2 != 1.5625 with sqrt(d2) == 1.25", _ties("sort")),
    Target("solver.neighbors._smallest: nsmallest(found) ties", ("ties",), "agent_neighbors", "neighbors.agents",
           "six agents, max_neighbors 1: two at d2 != 1.5625 with sqrt(d2) == 1.25", _ties("nsmallest")),
    Target(_G + "__init__: widest / self.cell < EXACT_CELL_LIMIT", ("tolerance", "float32"), "agent_step",
           "neighbors.structure", "widest / cell, cell = nd * (1 + 1/1024) > 0", _grid("ratio")),
    Target(_G + "__init__: self.cell > 0.0", ("tolerance", "float32"), "agent_step", "neighbors.structure",
           "cell = nd * (1 + 1/1024)", _grid("cell")),
    Target(_G + "__init__: self.cell > 0.0 #2", ("tolerance", "float32"), "agent_step", "neighbors.structure",
           "cell = nd * (1 + 1/1024), widest / cell < 2^52", _grid("cell2")),
    Target(_G + "neighbors: neighbor_distance <= 0.0", ("tolerance", "float32"), "agent_step",
           "neighbors.agents", "the agent's neighbor distance nd", _grid("nd")),
    Target(_G + "neighbors: self.cell <= 0.0", ("tolerance", "float32"), "agent_step", "neighbors.structure",
           "cell = nd * (1 + 1/1024), nd > 0", _grid("cell<=")),
    Target("solver.obstacle.segment_distance_squared: ee == 0.0", ("float32", "roots"), "segment_distance_squared",
           "note.segment-distance", "ee = e.e with e = b - a", _seg_ee),
    Target("solver.obstacle.segment_distance_squared: t < 0.0", ("float32",), "segment_distance_squared",
           "note.segment-distance", "t = -(a.e)/(e.e), e.e != 0", _seg_t),
    Target("solver.obstacle.segment_distance_squared: t > 1.0", ("signed-zeros",), "segment_distance_squared",
           "note.segment-distance", "t = -(a.e)/(e.e) against the constant 1.0", _seg_t_upper),
    Target(_S + "la != 0.0", ("float32", "squares"), "support_distance", "note.radial-skip",
           "la = sqrt(wa.wa), wa = x - a/tau, r and tau in [1e-3, 100]", _support_radial("a")),
    Target(_S + "lb != 0.0", ("tolerance", "float32", "squares"), "support_distance", "note.radial-skip",
           "lb = sqrt(wb.wb), wb = x - b/tau, a != b", _support_radial("b")),
    Target(_S + "le > 0.0", ("tolerance", "float32", "squares"), "support_distance", "support.segment-normals",
           "le = sqrt(e.e), e = b - a, a != b", _support_le),
    Target(_S + "ls == 0.0", ("squares",), "support_distance", "note.fallback-direction",
           "overlap, a == b, x == a/tau (|wa| == 0, no candidate), ls = |a + b|", _support_ls),
    Target("solver.obstacle._append_legs: ll < 0.0", ("float32",), "support_distance", "support.legs",
           "ll = a.a - r*r (the legs of a, no overlap)", _legs),
    Target("solver.obstacle.agent_case_form: dot1 < 0.0", ("float32",), "agent_case_form", "agents.cutoff",
           "dot1 = w.a, w = x - a/tau, a.a > r*r", _case_form("dot1")),
    Target("solver.obstacle.agent_case_form: ax * wy - ay * wx > 0.0", ("float32",), "agent_case_form",
           "agents.leg-side", "cross(a, w) where the cutoff test failed", _case_form("cross")),
    Target("solver.neighbors.agent_neighbors_brute_force: d2 < limit", ("tolerance", "float32", "roots"),
           "agent_neighbors", "neighbors.agents", "d2 = d.d of two agents, limit = nd*nd", _neighbors),
    Target("solver.neighbors.obstacle_neighbors: d2 <= reach2", ("float32", "roots"), "obstacle_neighbors",
           "neighbors.obstacles", "a point segment (e.e == 0): d2 = a.a relative to (x, y)", _obstacle_reach),
    Target("contract.driver.Driver.preferred_velocity: dist2 <= reach2", ("tolerance", "float32", "roots"),
           "preferred_velocity", "driver.waypoints", "dist2 = d.d to the first of two waypoints", _driver_reach),
    Target("contract.driver.Driver.preferred_velocity: dist <= speed * dt", ("tolerance", "float32", "squares"),
           "preferred_velocity", "driver.arrive", "dist = sqrt(d.d) to the only waypoint", _driver_arrive),
    Target("contract.driver.Driver.preferred_velocity: m > 0.0", ("tolerance", "float32"), "preferred_velocity",
           "driver.perturbation", "the scene's magnitude m in [0, 1]", _driver_magnitude),
    Target(_L + "solve_closest: plen <= radius", ("tolerance", "float32", "squares"), "solve_closest", "lp.start",
           "plen = sqrt(p.p), no lines", _lp_start),
    Target(_L + "solve_closest: (vx - px) * nx + (vy - py) * ny >= 0.0", ("float32",), "solve_closest",
           "lp.visit", "one line, the start is p inside the disc", _lp_visit),
    Target(_L + "line_interval: disc < 0.0", ("float32",), "solve_closest", "lp.interval",
           "one line violated by the start v = 0", _lp_disc),
    Target(_L + "line_interval: -PARALLEL_EPSILON <= denom", ("float32",), "solve_closest", "lp.parallel",
           "two lines, line 1 cut by line 0", _lp_pair("-PARALLEL_EPSILON <= denom")),
    Target(_L + "line_interval: denom <= PARALLEL_EPSILON", ("float32",), "solve_closest", "lp.parallel",
           "two lines, line 1 cut by line 0", _lp_pair("denom <= PARALLEL_EPSILON")),
    Target(_L + "line_interval: num < 0.0", ("float32",), "solve_closest", "lp.parallel",
           "two parallel lines, line 1 cut by line 0", _lp_pair("num < 0.0")),
    Target(_L + "line_interval: denom > 0.0", ("float32",), "solve_closest", "lp.bound",
           "two lines, line 1 cut by line 0", _lp_pair("denom > 0.0")),
    Target(_L + "solve_direction: (vx - px) * nx + (vy - py) * ny >= 0.0", ("float32",), "solve_direction",
           "lp.direction", "one line, the start v = (N/|N|)*R", _direction("visit")),
    Target(_L + "solve_direction: dn > 0.0", ("float32",), "solve_direction", "lp.direction",
           "one violated line, dn = d.N", _direction("dn > 0.0")),
    Target(_L + "solve_direction: dn < 0.0", ("float32",), "solve_direction", "lp.direction",
           "one violated line, dn = d.N", _direction("dn < 0.0")),
    Target("solver.fallback.maximize_smallest_distance: mm <= PARALLEL_NORMALS", ("float32", "roots"), "relax",
           "fallback.bisector", "two soft lines, no hard one: m = N_0 - N_1", _fallback_mm),
    Target("solver.constraint.for_boundary: ee == 0.0", ("tolerance", "float32", "roots"), "for_boundary",
           "boundary.degenerate", "ee = e.e with e = b - a", _boundary("ee")),
    Target("solver.constraint.for_boundary: d < -BOUNDARY_EPSILON", ("float32",), "for_boundary",
           "boundary.far-side", "d = -(a.n) past the corner tests", _boundary("d")),
)
