"""Velocity-obstacle geometry: case form against support form, and the text's rules."""

import random
from math import sqrt

from conformance.solver.obstacle import (agent_case_form, segment_distance_squared,
                                         support_distance)

CONFIGURATIONS = 20_000


def random_agent_case(rng: random.Random) -> tuple[float, ...]:
    while True:
        ax = rng.uniform(-10.0, 10.0)
        ay = rng.uniform(-10.0, 10.0)
        r = rng.uniform(0.05, 3.0)
        if ax * ax + ay * ay > (r * 1.001) ** 2:
            break
    tau = rng.choice([0.5, 1.0, 2.0, 5.0, 10.0])
    scale = rng.choice([0.1, 1.0, 4.0])
    return ax, ay, r, tau, rng.uniform(-scale, scale), rng.uniform(-scale, scale)


def test_case_form_agrees_with_support_form() -> None:
    rng = random.Random(20261130)
    worst = 0.0
    worst_case = None
    compared = 0
    for _ in range(CONFIGURATIONS):
        ax, ay, r, tau, xx, xy = random_agent_case(rng)
        ux, uy, nx, ny = agent_case_form(ax, ay, r, tau, xx, xy)
        d, mx, my = support_distance(ax, ay, ax, ay, r, tau, xx, xy, False)
        vx = mx * -d
        vy = my * -d
        scale = 1.0 + sqrt(xx * xx + xy * xy) + sqrt(ax * ax + ay * ay) / tau
        err = max(abs(ux - vx), abs(uy - vy)) / scale
        nerr = max(abs(nx - mx), abs(ny - my))
        # the normal is only defined where u != 0 (x on the boundary): weigh it by |u|
        err = max(err, nerr * sqrt(ux * ux + uy * uy) / scale)
        compared += 1
        if err > worst:
            worst = err
            worst_case = (ax, ay, r, tau, xx, xy)
    print(f"case form vs support form: {compared} configurations, worst relative disagreement "
          f"{worst:.3e} at {worst_case}")
    assert compared == CONFIGURATIONS
    assert worst < 1e-9


def test_tie_cross_zero_takes_right_leg() -> None:
    # x along a exactly, beyond the cut-off disc: cross(a, w) == 0, leg case
    ux, uy, nx, ny = agent_case_form(4.0, 0.0, 1.0, 2.0, 3.0, 0.0)
    assert ny < 0.0  # right leg: n = (dir.y, -dir.x) with dir.x > 0
    # a relative velocity turned slightly left selects the left leg
    ux2, uy2, nx2, ny2 = agent_case_form(4.0, 0.0, 1.0, 2.0, 3.0, 1e-9)
    assert ny2 > 0.0 and nx2 == nx


def test_cutoff_case_points_away_from_cutoff_centre() -> None:
    # x slightly short of a/tau: the closest point is on the cut-off arc
    ax, ay, r, tau = 4.0, 0.0, 1.0, 2.0
    xx, xy = 1.9, 0.0
    ux, uy, nx, ny = agent_case_form(ax, ay, r, tau, xx, xy)
    assert (nx, ny) == (-1.0, 0.0)
    assert abs(ux - (-(r / tau - 0.1))) < 1e-15 and uy == 0.0


def test_support_form_skips_zero_wa_and_uses_fallback_direction() -> None:
    # overlap, x = a/dt exactly: wa = 0, no candidate, n = -(a + b)/|a + b|
    d, nx, ny = support_distance(0.3, 0.4, 0.3, 0.4, 1.0, 0.5, 0.6, 0.8, True)
    assert (nx, ny) == (-0.6, -0.8)
    assert d == 0.0 - 1.0 / 0.5
    # coincident agents at rest: a + b = 0, n = (1, 0)
    d, nx, ny = support_distance(0.0, 0.0, 0.0, 0.0, 1.0, 0.1, 0.0, 0.0, True)
    assert (nx, ny) == (1.0, 0.0) and d == -10.0


def test_segment_distance_squared_clamps() -> None:
    assert segment_distance_squared(1.0, -1.0, 1.0, 1.0) == 1.0
    assert segment_distance_squared(1.0, 1.0, 2.0, 2.0) == 2.0   # t < 0 -> a
    assert segment_distance_squared(-2.0, -2.0, -1.0, -1.0) == 2.0  # t > 1 -> b
    assert segment_distance_squared(3.0, 4.0, 3.0, 4.0) == 25.0  # a == b
