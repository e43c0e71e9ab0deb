"""Velocity-obstacle geometry: the closest boundary point of S to a velocity x.

Everything is relative to the steered agent, which sits at the origin.  The obstacle is the
segment a-b (a point when a == b) grown by r.  Two evaluations are given:

* ``support_distance``: the support-function form of the text (segments, and every overlap);
* ``agent_case_form``: the closed cutoff/leg case form (non-overlapping agents).

Both follow the normative text operation by operation; see docs/spec-notes.md for every
choice the text leaves open (marked "note N" below).
"""

from __future__ import annotations

from math import sqrt

TOLERANCE = 1e-9
"""Relative tolerance of the domain test: tol = 1e-9 * (|p| + r)."""


def segment_distance_squared(ax: float, ay: float, bx: float, by: float) -> float:
    """Squared distance from the origin to the segment a-b (note 1).

    e = b - a; if e.e == 0 the answer is a.a.  Otherwise t = -(a.e) / (e.e) clamped to [0, 1]
    (t < 0 -> 0, then t > 1 -> 1), c = a + e*t component-wise, and the answer is c.c.
    """
    ex = bx - ax
    ey = by - ay
    ee = ex * ex + ey * ey
    if ee == 0.0:
        return ax * ax + ay * ay
    t = -(ax * ex + ay * ey) / ee
    if t < 0.0:
        t = 0.0
    elif t > 1.0:
        t = 1.0
    cx = ax + ex * t
    cy = ay + ey * t
    return cx * cx + cy * cy


def support_distance(ax: float, ay: float, bx: float, by: float, r: float, tau: float,
                     xx: float, xy: float, overlap: bool) -> tuple[float, float, float]:
    """Signed distance d of x from S and the maximizing unit normal n, as (d, n.x, n.y).

    Non-overlap: S = {s*k : k in K, s >= 1/tau}; candidates are tried in the text's order
    (radial a, radial b, +nn, -nn, legs of a, legs of b), skipped when outside the domain,
    and replace the best only when strictly greater.  Overlap: the caller passes tau = dt,
    the domain test is off and the leg normals are not tried (note 4).
    """
    wax = xx - ax / tau
    way = xy - ay / tau
    wbx = xx - bx / tau
    wby = xy - by / tau
    segment = ax != bx or ay != by
    if overlap:
        tol_a = tol_b = 0.0
    else:
        tol_a = TOLERANCE * (sqrt(ax * ax + ay * ay) + r)
        tol_b = TOLERANCE * (sqrt(bx * bx + by * by) + r)

    best = 0.0
    best_nx = 0.0
    best_ny = 0.0
    found = False

    # Candidate list in the order of the text.  Each entry is a unit normal (nx, ny).
    candidates: list[tuple[float, float]] = []
    la = sqrt(wax * wax + way * way)
    if la != 0.0:  # note 3: "wa = 0" is tested as |wa| == 0
        candidates.append((wax / la, way / la))
    if segment:
        lb = sqrt(wbx * wbx + wby * wby)
        if lb != 0.0:
            candidates.append((wbx / lb, wby / lb))
        ex = bx - ax
        ey = by - ay
        le = sqrt(ex * ex + ey * ey)
        if le > 0.0:
            nnx = -ey / le
            nny = ex / le
            candidates.append((nnx, nny))
            candidates.append((-nnx, -nny))
    if not overlap:
        _append_legs(candidates, ax, ay, r)
        if segment:
            _append_legs(candidates, bx, by, r)

    for nx, ny in candidates:
        if not overlap:
            if not (nx * ax + ny * ay + r <= tol_a and nx * bx + ny * by + r <= tol_b):
                continue
        va = nx * wax + ny * way
        vb = nx * wbx + ny * wby
        value = vb if vb < va else va
        if not found or value > best:
            best = value
            best_nx = nx
            best_ny = ny
            found = True

    if not found:
        # note 6: the formula -(a + b)/|a + b| of the text, or (1, 0) when a + b = 0.
        sx = ax + bx
        sy = ay + by
        ls = sqrt(sx * sx + sy * sy)
        if ls == 0.0:
            best_nx, best_ny = 1.0, 0.0
        else:
            best_nx = -sx / ls
            best_ny = -sy / ls
        va = best_nx * wax + best_ny * way
        vb = best_nx * wbx + best_ny * wby
        best = vb if vb < va else va
    return best - r / tau, best_nx, best_ny


def _append_legs(candidates: list[tuple[float, float]], px: float, py: float, r: float) -> None:
    """The two leg normals of the point p: ((c + q) / rho2) then ((c - q) / rho2).

    rho2 = p.p, l = sqrt(rho2 - r*r), c = -r*p, q = (-p.y*l, p.x*l).  When rho2 - r*r < 0
    (only through rounding on a touching segment) both legs are skipped (note 5).
    """
    rho2 = px * px + py * py
    ll = rho2 - r * r
    if ll < 0.0:
        return
    l = sqrt(ll)
    cx = -r * px
    cy = -r * py
    qx = -py * l
    qy = px * l
    candidates.append(((cx + qx) / rho2, (cy + qy) / rho2))
    candidates.append(((cx - qx) / rho2, (cy - qy) / rho2))


def agent_case_form(ax: float, ay: float, r: float, tau: float,
                    xx: float, xy: float) -> tuple[float, float, float, float]:
    """Closed case form for another agent at a (a.a > r*r): returns (u.x, u.y, n.x, n.y).

    w = x - a/tau; cutoff case when w.a < 0 and (w.a)^2 > (r*r)*(w.w); otherwise the left leg
    when cross(a, w) > 0 and the right leg otherwise (the tie cross == 0 takes the right leg).
    """
    wx = xx - ax / tau
    wy = xy - ay / tau
    dot1 = wx * ax + wy * ay
    ww = wx * wx + wy * wy
    if dot1 < 0.0 and dot1 * dot1 > r * r * ww:
        wl = sqrt(ww)
        nx = wx / wl
        ny = wy / wl
        s = r / tau - wl
        return nx * s, ny * s, nx, ny
    aa = ax * ax + ay * ay
    leg = sqrt(aa - r * r)
    if ax * wy - ay * wx > 0.0:
        dx = (ax * leg - ay * r) / aa
        dy = (ax * r + ay * leg) / aa
        nx = -dy
        ny = dx
    else:
        dx = (ax * leg + ay * r) / aa
        dy = (ay * leg - ax * r) / aa
        nx = dy
        ny = -dx
    along = xx * dx + xy * dy
    return dx * along - xx, dy * along - xy, nx, ny
