"""Primitive cases exactly on the decision boundaries of the misreading catalogue.

Contract: each list below (named for its family) holds literal inputs (exact doubles, written
as Python reprs); ``literal(cases)`` is the boundaries maker (data/family.py's kind
``boundaries``) data/vector_family.py gives that family, appending copies of them after the
family's random and edge cases, so the stored cases before them never move.
Each group names the catalogue entries (runners/c/misreadings/) whose alternative reading it
tells apart from the reference's, and how the inputs were found or constructed.  The same
boundaries are reached in a scenario too (scenarios/orca/boundary-*.yaml): the vectors say
which primitive is wrong, the scenes judge a port that implements only ``run``.
"""

from __future__ import annotations

import random
from typing import Callable


def literal(cases: list[list]) -> Callable[[str, random.Random], list[list]]:
    """A maker that returns copies of ``cases`` (the rng untouched)."""
    return lambda name, rng: [list(c) for c in cases]

# --- driver: preferred_velocity -------------------------------------------------------
PREFERRED_VELOCITY: list[list] = [
    # waypoint-advance-strict: first waypoint exactly goal_radius 0.5 away (dist2 == 0.25 ==
    # goal_radius^2 on a dyadic grid); <= advances to (20, 3), < stays (index and velocity differ)
    [20.0, 0.0, [(20.5, 0.0), (20.0, 3.0)], 0, 0.5, 1.0, 0.5, 0, 0.0, 0, 0, 1],
    # waypoint-advance-once: two waypoints both 0.25 away, within goal_radius 0.5; while skips
    # both (heads for (43, 0)), if stops at the second (arrives on it)
    [40.0, 0.0, [(40.25, 0.0), (40.0, 0.25), (43.0, 0.0)], 0, 0.5, 1.0, 0.5, 0, 0.0, 0, 0, 1],
    # arrive-strict: d = (0.4375, 1.5) is a 7-24-25 triangle, dist == max_speed*dt == 1.5625
    # exactly; d/dt = (0.875, 3.0) but (d/dist)*s = (0.8750000000000001, 3.0)
    [60.0, 0.0, [(60.4375, 1.5)], 0, 0.5, 3.125, 0.5, 0, 0.0, 0, 0, 1],
    # arrive-squares: ulp search around the circle |d| = s*dt = 1.25 (s 2.5, dt 0.5):
    # dist2 rounds above 1.5625 while sqrt(dist2) rounds to 1.25, so only <= on the length arrives
    [0.0, 0.0, [(1.2047200822442994, 0.33339094684362486)], 0, 0.5, 2.5, 0.5, 0, 0.0, 0, 0, 1],
    [0.0, 0.0, [(1.1961754196652612, 0.36285584656807773)], 0, 0.5, 2.5, 0.5, 0, 0.0, 0, 0, 1],
    # perturbation-always: dy = -0.0 - 0.0 = -0.0 with magnitude 0; U(9) = 0.904 (seed 0,
    # step 0, agent 4 of 5) >= 0, so -0.0 + 0 * U = +0.0 under the always reading
    [80.0, 0.0, [(83.0, -0.0)], 0, 0.5, 1.0, 0.5, 0, 0.0, 0, 4, 5],
]

# --- distances and neighbors ---------------------------------------------------------
SEGMENT_DISTANCE_SQUARED: list[list] = [
    # segment-far-end-as-b: agent beyond the far end b (random search around the end of a wall,
    # scene orca/boundary-wall-overlap agent 2): a + e*1 != b, d2 = 0.25000000000000006 vs
    # b.b = 0.24999999999999997, on the two sides of r*r = 0.25
    [-4.197835378190252, 1.4591962142007706, -0.197835378190252, 0.45919621420077056],
]

OBSTACLE_NEIGHBORS: list[list] = [
    # obstacle-reach-strict: d2 == reach2 (reach 2.3, closest point at t = 0.5 exactly, d2 = 2.3*2.3)
    [0.0, 2.3, 2.3, [(-2.0, 0.0, 2.0, 0.0)]],
    # obstacle-reach-sqrt: d2 > reach*reach by one rounding but sqrt(d2) <= reach (random search
    # over angles at distance 2.3 from the end (10, 0); scene orca/boundary-obstacle-reach agent 1)
    [11.095192594611852, 2.0225116021193448, 2.3, [(8.0, 0.0, 10.0, 0.0)]],
    # obstacle-world-coordinates: world-coordinate d2 = 5.2899999999999965 <= reach2 but relative
    # d2 > reach2 (random search of walls at distance 2.3; scene agent 2), before a far wall
    [20.960349694985165, -0.7638684434900758, 2.3,
     [(19.76291415060282, 1.7918506104454752, 18.59984798656654, -0.26589062391430196),
      (0.0, 0.0, 1.0, 0.0)]],
]

AGENT_NEIGHBORS: list[list] = [
    # agent-neighbor-nonstrict: agents exactly neighbor_distance 2 apart (d2 == 4 == nd*nd)
    [0, [20.0, 22.0, 20.0], [0.0, 0.0, 1.0], 2.0, 10],
]

SEGMENT_CONSTRAINT: list[list] = [
    # segment-overlap-strict: d2 == r*r exactly (0.0625) at a diagonal end (random search over
    # touching angles, kept where the dt and tau forms differ; scene orca/boundary-wall-overlap agent 0)
    [0.0867017533230618, -0.2344841273321223, 2.086701753323062, -0.2344841273321223, 0.25, 2.0, 0.1],
    # segment-overlap-sqrt: d2 = 0.25 + 2^-54 > r*r but sqrt(d2) rounds to 0.5 (agent 1)
    [0.5, -7.450580596923828e-09, 2.5, -7.450580596923828e-09, 0.5, 2.0, 0.1],
    # segment-far-end-as-b: beyond the far end, d2 > r*r but b.b < r*r (agent 2)
    [-4.197835378190252, 1.4591962142007706, -0.197835378190252, 0.45919621420077056, 0.5, 2.0, 0.1],
]

AGENT_CONSTRAINT: list[list] = [
    # agent-overlap-sqrt: a = (1, 2^-26), a.a = 1 + 2^-52 > r*r = 1, but sqrt(a.a) rounds to 1
    # (scene orca/boundary-agent-range agents 0-1)
    [1.0, 1.4901161193847656e-08, 1.0, 2.0, 0.125, 1.0, 0.0, -1.0, 0.0],
    [-1.0, -1.4901161193847656e-08, 1.0, 2.0, 0.125, -1.0, 0.0, 1.0, 0.0],
]

# --- support form and case form -------------------------------------------------------
SUPPORT_DISTANCE: list[list] = [
    # domain-test-rearranged: wall y = Y above the agent, beyond its end (|a| > r), x below
    # the middle of the cap so that -nn = (0, -1) wins when admitted; Y = -fl(tolA - r)
    # (iterated, tolA depends on Y) where that rounding went up, so n.a + r = r - Y (exact)
    # is one ulp of 0.5 above tolA: rejected, while n.a <= tolA - r admits it.
    [0.75, 0.49999999859861216, 2.75, 0.49999999859861216, 0.5, 2.0, 1.0, -1.0, 0],
    [0.875, 0.49999999849221777, 2.875, 0.49999999849221777, 0.5, 2.0, 1.0, -1.0, 0],
    [1.0625, 0.4999999983257316, 3.0625, 0.4999999983257316, 0.5, 2.0, 1.0, -1.0, 0],
    # domain-test-strict, domain-test-no-tolerance: the same wall with r = 3e-9, so that
    # r - tolA is exact and n.a + r == tolA exactly (searched over dyadic a.x).
    [1.03125, 1.968749997e-09, 3.03125, 1.968749997e-09, 3e-09, 2.0, 1.0, -1.0, 0],
    [1.0625, 1.937499997e-09, 3.0625, 1.937499997e-09, 3e-09, 2.0, 1.0, -1.0, 0],
    # legs-skip-nonstrict: scene orca/boundary-touching-walls, agents 0 and 1 (relative
    # ends): dot(b, b) - r*r == 0 with r = sqrt(dot(b, b)), c = a + (b - a) outside r, and
    # a leg of b (l = 0) wins by one ulp.  Found by random search.
    [0.623219, 2.6, -0.4, 0.7, 0.8062257748298549, 2.0, 0.0, 0.0, 0],
    [-0.6159999999999997, -1.51, -0.8500000000000014, -0.392, 0.9360363240814976, 2.0, 0.0, 0.0, 0],
    # domain-test-no-tolerance: same scene, agent 2: the winning +-nn has n.a + r a few ulps
    # above 0 through rounding while the segment stays just outside r.
    [1.2999999999999972, 1.0, -0.30799999999999983, -0.6, 0.20807566267943228, 2.0, 0.0, 0.0, 0],
    # fallback-normal-toward-centre: scene orca/boundary-no-candidate: overlapping agents
    # (a == b, tau = dt = 0.25) with x == a/dt exactly, so wa = 0 and no candidate exists.
    [0.5, 0.0, 0.5, 0.0, 1.0, 0.25, 2.0, 0.0, 1],
    [-0.5, 0.0, -0.5, 0.0, 1.0, 0.25, -2.0, 0.0, 1],
    [0.25, 0.25, 0.25, 0.25, 1.0, 0.25, 1.0, 1.0, 1],
]

AGENT_CASE_FORM: list[list] = [
    # cutoff-grouping, cutoff-sqrt: random search of near-boundary pairs (w on the cutoff
    # circle's tangent, x rounded to 5 decimals); dot1*dot1 falls between the two groupings
    # of (r*r)*ww and the sqrt test disagrees (scene orca/boundary-cutoff, agents 0-1).
    [0.75, 1.452, 0.75, 1.5, -0.91274, 0.968],
    [-0.75, -1.452, 0.75, 1.5, 0.91274, -0.968],
    [0.75, 1.452, 0.75, 1.5, -0.9129200000000001, 0.968],
    # cutoff-nonstrict: exactly on the boundary, w = (-0.75, -1), a = (1, 0.5), r = 1:
    # dot1*dot1 == (r*r)*ww == 1.5625 with no rounding (tau 1 and 0.5; agents 2-3).
    [1.0, 0.5, 1.0, 1.0, 0.25, -0.5],
    [-1.0, -0.5, 1.0, 1.0, -0.25, 0.5],
    [1.0, 0.5, 1.0, 0.5, 1.25, 0.0],
]

# --- programs, fallback, ForBoundary ----------------------------------------------------
SOLVE_CLOSEST: list[list] = [
    # lp-start-squares: |p| == R after rounding but p.p > R*R, and (p/|p|)*R != p (no lines:
    # the start is the answer); found by a search on goals one ulp off the arrival circle
    [[], 1.1667815578017586, 0.23238648521707364, -1.143405319698467],
    [[], 1.2332996629442405, 0.8644974737582611, 0.8795863666996903],
    [[], 2.232594048758612, 1.5352983915103025, -1.6209056220453586],
    # lp-visit-on-line: pref exactly on the only line (signed distance 0; scene
    # orca/boundary-lp-lines agent 0), projecting it again gives 0.3 + (0.9 - 0.3) != 0.9
    [[(0.3, 0.375, 0.0, -1.0)], 1.0, 0.9, 0.375],
    # lp-empty-nonstrict: line 1 meets line 0 exactly on the disc (3-4-5 / 8): lower == upper
    # (scene orca/boundary-lp-lines agent 2)
    [[(0.5, -0.375, 0.0, -1.0), (0.5, -0.5, 1.0, 0.0)], 0.625, 0.0, 0.625],
    # lp-parallel-strict: d . N_0 == 1e-12 exactly (normal (1e-12, -1) of a cutoff with
    # x.x = 1e-12 against a horizontal wall) and num == 0 (agent 5 of orca/boundary-lp-lines)
    [[(0.0, -0.5, -0.0, 1.0), (7.5e-13, -0.5, 1e-12, -1.0)], 1.0, -1.0, 0.0],
]

SOLVE_DIRECTION: list[list] = []

RELAX: list[list] = [
    # fallback-level-nonstrict: v = (0, -1) from the first direction program and
    # g_1(v) == level == -0.5 exactly (axis normals, dyadic points; orca/boundary-fallback agent 0)
    [[(0.5, -1.5, 0.0, -1.0), (0.5, -1.75, 1.0, 0.0)], 0, 1.0, 0],
    # fallback-parallel-strict: normals (0, -1) and (1e-12, -1): m.m == 1e-24 exactly, rhs == 0
    # (orca/boundary-fallback agent 3)
    [[(1e-12, -1.0000000009313226, 0.0, -1.0), (7.5e-13, -1.0000000009313226, 1e-12, -1.0)], 0, 1.0, 0],
    # fallback-take-infeasible: the sub-program of line 2 has two bisectors 5e-13 from parallel,
    # the second outside the first: infeasible (a search over the third line's offset;
    # orca/boundary-fallback agent 6)
    [[(0.0, -1.0000000009313226, 0.0, -1.0), (-2.5e-13, -1.0000000009313226, 1e-12, -1.0),
      (-0.125, -1.2500000009313226, -1.0, 0.0)], 0, 1.0, 0],
]

FOR_BOUNDARY: list[list] = [
    # for-boundary-order: non-dyadic tau, so (n * -(d - clearance)) / tau differs from
    # n * (-((d - clearance) / tau)) in the last bit (random search, kept where they differ)
    [-2.028501705500513, -1.7133865695434465, 2.1273361825996346, -2.1409502828759037, 0.1, 0.3],
    [-2.690832862669226, -0.9147116563175948, 0.9696775669678588, -1.3172810803228614, 0.1, 0.3],
    [-1.30689512059984, -0.8238817729702477, 1.7410362377837294, -0.792161526390062, 0.5, 0.7],
    [-1.603194402480978, -0.24546137108616328, 1.403955889861416, -0.49703478622861397, 0.3, 0.7],
    [-0.9030166988112862, -1.5362166296279096, 1.9360592756466775, -1.5110201258164582, 0.5, 1.1],
    [-0.8116641316823472, -1.4529182467086457, 2.9504371187314553, -1.8348524684536835, 0.0, 1.1],
    [-1.2168903686849446, -0.8981991118632648, 1.6405133282535327, -0.5582313313507234, 0.5, 3.0],
    [-1.5777049877410665, -0.7381108095981186, 0.6516735689930493, -0.5366187882936947, 0.0, 3.0],
]
