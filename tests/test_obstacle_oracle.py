"""The velocity obstacle's closest point and normal against a membership oracle of the set S.

S is the text's velocity obstacle, relative to the steered agent at the origin, for the obstacle
segment a-b (a point for an agent) grown by r into the capsule K:

* non-overlap form (origin farther than r from the segment), horizon tau:
  S = { s*k : k in K, s >= 1/tau }, so v is in S iff some t in (0, tau] has dist(v*t, a-b) <= r;
* overlap form (origin within r of the segment), one step dt: S = { k/dt : k in K }, so v is in
  S iff dist(v*dt, a-b) <= r.

Membership is computed exactly: dist(v*t, a-b)^2 = min over s in [0, 1] of |t v - a - s e|^2
(e = b - a) is a convex quadratic in (t, s) minimized over the box [0, tau] x [0, 1]; its
minimum is the interior stationary point (if inside the box) or the clamped minimizer along one
of the four edges.  Every such candidate is evaluated directly and the least value is taken
(t = 0 is harmless: dist(0, a-b) > r in the non-overlap form).

For each random case the solver's (d, n) gives the boundary point c = x - d n (u = -d n) and:
|n| = 1 within 1e-12; c is on the boundary (c + eps n outside, c - eps n inside); d > 0 iff x
is outside S (near-zero |d| skipped, counted); x outside: no sampled point of S (random k in K,
random s >= 1/tau, points on the boundary of K at s = 1/tau, points of S near c) is closer to x
than d; x inside: every sampled point at distance < |d|(1 - DELTA) from x is in S.
For agents the closed case form and the support form are checked alike, and compared.
"""

from __future__ import annotations

import random
import time
from math import cos, pi, sin, sqrt

from conformance.solver.obstacle import agent_case_form, segment_distance_squared, support_distance

SEED = 20261201
CASES = 3_000          # per family (agents, segments, overlap agents, overlap segments)
SAMPLES = 24           # sampled points of S (or of the inner ball) per case
NEAR_SAMPLES = 12      # sampled points around c per case
DELTA = 1e-6           # inner-ball shrink factor when x is inside S
TOL_NORMAL = 1e-12
TOL_DIST = 1e-9        # relative to (1 + |x| + |c|)
TOL_FORMS = 1e-9       # case form vs support form, relative to (1 + |x| + |a|/tau)


# ----------------------------------------------------------------------------------------------
# membership oracle


def min_dist2(vx: float, vy: float, ax: float, ay: float, bx: float, by: float,
              tmax: float) -> float:
    """min over t in [0, tmax], s in [0, 1] of |t v - a - s (b - a)|^2 (exact enumeration)."""
    ex = bx - ax
    ey = by - ay
    vv = vx * vx + vy * vy
    ee = ex * ex + ey * ey
    ve = vx * ex + vy * ey
    va = vx * ax + vy * ay
    ea = ex * ax + ey * ay
    pts = []
    for t in (0.0, tmax):               # edges t = const: s clamped
        s = 0.0
        if ee > 0.0:
            s = ((t * vx - ax) * ex + (t * vy - ay) * ey) / ee
            s = 0.0 if s < 0.0 else (1.0 if s > 1.0 else s)
        pts.append((t, s))
    for s in ((0.0, 1.0) if ee > 0.0 else (0.0,)):   # edges s = const: t clamped
        t = 0.0
        if vv > 0.0:
            t = (va + s * ve) / vv
            t = 0.0 if t < 0.0 else (tmax if t > tmax else t)
        pts.append((t, s))
    # interior: t vv - s ve = va ; t ve - s ee = ea
    det = ve * ve - vv * ee
    if ee > 0.0 and vv > 0.0 and abs(det) > 1e-14 * vv * ee:
        t = (ve * ea - ee * va) / det
        s = (vv * ea - ve * va) / det
        if 0.0 < t < tmax and 0.0 < s < 1.0:
            pts.append((t, s))
    best = None
    for t, s in pts:
        qx = t * vx - ax - s * ex
        qy = t * vy - ay - s * ey
        q = qx * qx + qy * qy
        if best is None or q < best:
            best = q
    return best


def point_segment_dist2(px: float, py: float, ax: float, ay: float, bx: float,
                        by: float) -> float:
    ex = bx - ax
    ey = by - ay
    ee = ex * ex + ey * ey
    s = 0.0
    if ee > 0.0:
        s = ((px - ax) * ex + (py - ay) * ey) / ee
        s = 0.0 if s < 0.0 else (1.0 if s > 1.0 else s)
    qx = px - ax - s * ex
    qy = py - ay - s * ey
    return qx * qx + qy * qy


class Obstacle:
    """S for segment a-b grown by r, horizon tau (non-overlap) or step dt (overlap)."""

    def __init__(self, ax, ay, bx, by, r, tau, overlap):
        self.a = (ax, ay)
        self.b = (bx, by)
        self.r = r
        self.tau = tau
        self.overlap = overlap

    def member(self, vx: float, vy: float) -> bool:
        ax, ay = self.a
        bx, by = self.b
        if self.overlap:
            q = point_segment_dist2(vx * self.tau, vy * self.tau, ax, ay, bx, by)
        else:
            q = min_dist2(vx, vy, ax, ay, bx, by, self.tau)
        return q <= self.r * self.r

    def sample(self, rng: random.Random) -> tuple[float, float]:
        """A random point of S: s*k with k in K (often on the boundary of K), s >= 1/tau."""
        ax, ay = self.a
        bx, by = self.b
        u = rng.random()
        s = 0.0 if u < 0.15 else (1.0 if u < 0.3 else rng.random())
        rho = self.r if rng.random() < 0.5 else self.r * sqrt(rng.random())
        phi = rng.uniform(-pi, pi)
        kx = ax + s * (bx - ax) + rho * cos(phi)
        ky = ay + s * (by - ay) + rho * sin(phi)
        if self.overlap:
            scale = 1.0 / self.tau
        else:
            w = rng.random()
            if w < 0.5:
                scale = 1.0 / self.tau
            elif w < 0.8:
                scale = (1.0 + rng.expovariate(1.0)) / self.tau
            else:
                scale = 1.0 / (self.tau * max(rng.random(), 1e-3))
        return kx * scale, ky * scale


# ----------------------------------------------------------------------------------------------
# the checks


class Record:
    def __init__(self, name: str):
        self.name = name
        self.cases = 0
        self.outside = 0
        self.inside = 0
        self.sign_skipped = 0
        self.samples = 0
        self.worst_normal = 0.0
        self.worst_closer = float("-inf")  # outside: max over samples of (d - |y - x|) / scale
        # (<= 0 when no sample is closer than d; near-c samples bring it close to 0)
        self.inner_misses = 0        # inside: ball samples not in S
        self.failures: list[str] = []

    def fail(self, msg: str) -> None:
        if len(self.failures) < 20:
            self.failures.append(msg)
        else:
            self.failures.append("...")

    def summary(self) -> str:
        return (f"{self.name}: {self.cases} cases ({self.outside} outside, {self.inside} inside, "
                f"{self.sign_skipped} with |d| ~ 0), {self.samples} sampled points; worst |n|-1 "
                f"{self.worst_normal:.2e}, largest (d - |y - x|)/scale over samples y of S {self.worst_closer:.2e}, "
                f"failures {len(self.failures)}")


def check(rec: Record, obs: Obstacle, xx: float, xy: float, d: float, nx: float, ny: float,
          rng: random.Random, label: str) -> None:
    rec.cases += 1
    where = f"{label} a={obs.a} b={obs.b} r={obs.r!r} tau={obs.tau!r} x=({xx!r}, {xy!r})"
    nerr = abs(sqrt(nx * nx + ny * ny) - 1.0)
    rec.worst_normal = max(rec.worst_normal, nerr)
    if nerr > TOL_NORMAL:
        rec.fail(f"|n| - 1 = {nerr:.3e} at {where}")
    cx = xx - d * nx
    cy = xy - d * ny
    clen = sqrt(cx * cx + cy * cy)
    xlen = sqrt(xx * xx + xy * xy)
    scale = 1.0 + xlen + clen
    eps = 1e-6 * (1.0 + clen)
    if obs.member(cx + eps * nx, cy + eps * ny):
        rec.fail(f"c + eps n is inside S (d={d!r}, n=({nx!r}, {ny!r})) at {where}")
    if not obs.member(cx - eps * nx, cy - eps * ny):
        rec.fail(f"c - eps n is outside S (d={d!r}, n=({nx!r}, {ny!r})) at {where}")
    if abs(d) <= 1e-8 * scale:
        rec.sign_skipped += 1
        return
    inside = obs.member(xx, xy)
    if inside != (d < 0.0):
        rec.fail(f"sign of d={d!r} but x {'inside' if inside else 'outside'} at {where}")
        return
    tol = TOL_DIST * scale
    if d > 0.0:
        rec.outside += 1
        for _ in range(SAMPLES):
            yx, yy = obs.sample(rng)
            closer = d - sqrt((yx - xx) ** 2 + (yy - xy) ** 2)
            rec.samples += 1
            rec.worst_closer = max(rec.worst_closer, closer / scale)
            if closer > tol:
                rec.fail(f"sample ({yx!r}, {yy!r}) of S is {closer:.3e} closer than d={d!r} "
                         f"at {where}")
        for i in range(NEAR_SAMPLES):
            rho = (1e-4, 1e-2, 1e-1)[i % 3] * (1.0 + clen) * rng.random()
            phi = rng.uniform(-pi, pi)
            yx = cx + rho * cos(phi)
            yy = cy + rho * sin(phi)
            if not obs.member(yx, yy):
                continue
            closer = d - sqrt((yx - xx) ** 2 + (yy - xy) ** 2)
            rec.samples += 1
            rec.worst_closer = max(rec.worst_closer, closer / scale)
            if closer > tol:
                rec.fail(f"point ({yx!r}, {yy!r}) of S near c is {closer:.3e} closer than "
                         f"d={d!r} at {where}")
    else:
        rec.inside += 1
        reach = -d * (1.0 - DELTA)
        for i in range(SAMPLES + NEAR_SAMPLES):
            phi = rng.uniform(-pi, pi)
            rho = reach if i % 2 == 0 else reach * sqrt(rng.random())
            yx = xx + rho * cos(phi)
            yy = xy + rho * sin(phi)
            rec.samples += 1
            if not obs.member(yx, yy):
                rec.inner_misses += 1
                rec.fail(f"point ({yx!r}, {yy!r}) within |d|(1-delta) of x is outside S, "
                         f"d={d!r} at {where}")


def _report_and_assert(rec: Record, t0: float, min_outside: int, min_inside: int) -> None:
    print()
    print(rec.summary(), f"{time.perf_counter() - t0:.2f} s")
    for msg in rec.failures[:10]:
        print("  FAIL:", msg)
    assert rec.cases > 0
    assert rec.outside >= min_outside and rec.inside >= min_inside
    assert rec.sign_skipped <= 0.01 * rec.cases
    assert rec.samples >= (rec.outside + rec.inside) * SAMPLES
    assert not rec.failures, rec.failures[0]


# ----------------------------------------------------------------------------------------------
# random inputs


def _velocity(rng: random.Random, cx: float, cy: float, spread: float) -> tuple[float, float]:
    """x around the obstacle's centre at the cut-off (cx, cy) or around the origin."""
    phi = rng.uniform(-pi, pi)
    rho = spread * rng.random()
    if rng.random() < 0.7:
        return cx + rho * cos(phi), cy + rho * sin(phi)
    return rho * cos(phi), rho * sin(phi)


def _agent(rng: random.Random, overlap: bool):
    r = rng.uniform(0.1, 2.0)
    if overlap:
        rho = r * sqrt(rng.random())
        phi = rng.uniform(-pi, pi)
        ax, ay = rho * cos(phi), rho * sin(phi)
        tau = rng.uniform(0.02, 0.5)
    else:
        while True:
            ax = rng.uniform(-5.0, 5.0)
            ay = rng.uniform(-5.0, 5.0)
            if ax * ax + ay * ay > (r * 1.001) ** 2:
                break
        tau = rng.uniform(0.5, 5.0)
    spread = 3.0 * (sqrt(ax * ax + ay * ay) + r) / tau
    xx, xy = _velocity(rng, ax / tau, ay / tau, spread)
    return ax, ay, r, tau, xx, xy


def _segment(rng: random.Random, overlap: bool):
    while True:
        r = rng.uniform(0.1, 1.5)
        ax, ay = rng.uniform(-5.0, 5.0), rng.uniform(-5.0, 5.0)
        if rng.random() < 0.1:   # short segments
            length = rng.choice([1e-6, 1e-3, 0.1])
            phi = rng.uniform(-pi, pi)
            bx, by = ax + length * cos(phi), ay + length * sin(phi)
        else:
            bx, by = rng.uniform(-5.0, 5.0), rng.uniform(-5.0, 5.0)
        if overlap:
            # put the origin within r of the segment by shifting the segment
            s = rng.random()
            rho = r * 0.999 * sqrt(rng.random())
            phi = rng.uniform(-pi, pi)
            ox = ax + s * (bx - ax) + rho * cos(phi)
            oy = ay + s * (by - ay) + rho * sin(phi)
            ax, ay, bx, by = ax - ox, ay - oy, bx - ox, by - oy
            if segment_distance_squared(ax, ay, bx, by) <= r * r:
                break
        elif segment_distance_squared(ax, ay, bx, by) > (r * 1.001) ** 2:
            break
    tau = rng.uniform(0.02, 0.5) if overlap else rng.uniform(0.5, 5.0)
    mx, my = (ax + bx) / (2.0 * tau), (ay + by) / (2.0 * tau)
    half = 0.5 * sqrt((bx - ax) ** 2 + (by - ay) ** 2)
    spread = 3.0 * (sqrt(mx * mx + my * my) * tau + half + r) / tau
    xx, xy = _velocity(rng, mx, my, spread)
    return ax, ay, bx, by, r, tau, xx, xy


# ----------------------------------------------------------------------------------------------
# tests


def test_membership_oracle_known_points() -> None:
    """The oracle itself: an agent at (4, 0), r = 1, tau = 2 (cut-off disc at (2, 0) radius 1/2,
    cone half-angle asin(1/4))."""
    obs = Obstacle(4.0, 0.0, 4.0, 0.0, 1.0, 2.0, False)
    assert obs.member(2.0, 0.0) and obs.member(1.6, 0.0) and not obs.member(1.4, 0.0)
    assert obs.member(100.0, 0.0) and obs.member(100.0, 25.0) and not obs.member(100.0, 26.5)
    assert not obs.member(-1.0, 0.0) and not obs.member(0.0, 0.0)
    # wall x = 1, |y| <= 1, r = 1/2: legs at 45 + asin(1/(2 sqrt 2)) = 65.7 degrees (slope 2.21)
    seg = Obstacle(1.0, -1.0, 1.0, 1.0, 0.5, 1.0, False)
    assert seg.member(0.5, 0.0) and not seg.member(0.45, 0.0)
    assert seg.member(10.0, 21.0) and not seg.member(10.0, 23.0)
    assert seg.member(10.0, -21.0) and not seg.member(10.0, -23.0)
    ov = Obstacle(0.2, 0.0, 0.2, 0.0, 1.0, 0.1, True)        # disc centre (2, 0) radius 10
    assert ov.member(11.9, 0.0) and not ov.member(12.1, 0.0) and ov.member(-7.9, 0.0)


def test_agents_case_form_and_support_form() -> None:
    rng = random.Random(SEED)
    t0 = time.perf_counter()
    case_rec = Record("agents, case form")
    supp_rec = Record("agents, support form")
    worst = 0.0
    worst_at = None
    counts = {"cutoff": 0, "leg": 0}
    for _ in range(CASES):
        ax, ay, r, tau, xx, xy = _agent(rng, False)
        obs = Obstacle(ax, ay, ax, ay, r, tau, False)
        ux, uy, nx, ny = agent_case_form(ax, ay, r, tau, xx, xy)
        wx, wy = xx - ax / tau, xy - ay / tau
        dot1 = wx * ax + wy * ay
        counts["cutoff" if dot1 < 0.0 and dot1 * dot1 > r * r * (wx * wx + wy * wy)
               else "leg"] += 1
        d_case = -(ux * nx + uy * ny)
        # u must be -d n (u is along n): then c = x + u = x - d n
        scale = 1.0 + sqrt(xx * xx + xy * xy) + sqrt(ax * ax + ay * ay) / tau
        along = max(abs(ux + d_case * nx), abs(uy + d_case * ny)) / scale
        if along > TOL_FORMS:
            case_rec.fail(f"case form u not along n ({along:.3e}) at a=({ax}, {ay}) r={r} "
                          f"tau={tau} x=({xx}, {xy})")
        check(case_rec, obs, xx, xy, d_case, nx, ny, rng, "case form")
        d, mx, my = support_distance(ax, ay, ax, ay, r, tau, xx, xy, False)
        check(supp_rec, obs, xx, xy, d, mx, my, rng, "support form")
        err = max(abs(ux - mx * -d), abs(uy - my * -d)) / scale
        if err > worst:
            worst = err
            worst_at = (ax, ay, r, tau, xx, xy)
    print()
    print(f"agents: case form u vs support form -d n, {CASES} cases ({counts}), worst "
          f"disagreement {worst:.3e} (relative to 1 + |x| + |a|/tau) at {worst_at}")
    _report_and_assert(case_rec, t0, CASES // 5, CASES // 20)
    _report_and_assert(supp_rec, t0, CASES // 5, CASES // 20)
    assert counts["cutoff"] >= CASES // 10 and counts["leg"] >= CASES // 10
    assert worst <= TOL_FORMS


def test_segments_support_form() -> None:
    rng = random.Random(SEED + 1)
    t0 = time.perf_counter()
    rec = Record("segments")
    for _ in range(CASES):
        ax, ay, bx, by, r, tau, xx, xy = _segment(rng, False)
        d, nx, ny = support_distance(ax, ay, bx, by, r, tau, xx, xy, False)
        check(rec, Obstacle(ax, ay, bx, by, r, tau, False), xx, xy, d, nx, ny, rng, "segment")
    _report_and_assert(rec, t0, CASES // 5, CASES // 20)


def test_overlap_agents_support_form() -> None:
    rng = random.Random(SEED + 2)
    t0 = time.perf_counter()
    rec = Record("overlapping agents")
    for _ in range(CASES):
        ax, ay, r, dt, xx, xy = _agent(rng, True)
        d, nx, ny = support_distance(ax, ay, ax, ay, r, dt, xx, xy, True)
        check(rec, Obstacle(ax, ay, ax, ay, r, dt, True), xx, xy, d, nx, ny, rng, "overlap agent")
    _report_and_assert(rec, t0, CASES // 5, CASES // 20)


def test_overlap_segments_support_form() -> None:
    rng = random.Random(SEED + 3)
    t0 = time.perf_counter()
    rec = Record("overlapping segments")
    for _ in range(CASES):
        ax, ay, bx, by, r, dt, xx, xy = _segment(rng, True)
        d, nx, ny = support_distance(ax, ay, bx, by, r, dt, xx, xy, True)
        check(rec, Obstacle(ax, ay, bx, by, r, dt, True), xx, xy, d, nx, ny, rng,
              "overlap segment")
    _report_and_assert(rec, t0, CASES // 5, CASES // 20)
