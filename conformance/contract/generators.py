"""Scene generators (circle, block) that run once in the harness.

Contract: every generator uses only IEEE binary64 + - * / on Python floats, in a fixed order,
so the expanded scenario has the same bits on every machine; in particular the circle uses
``cos_sin_turn`` below, not the platform's libm.  Runners never call these: they receive the
expanded doubles.
"""

from __future__ import annotations

Vec2 = tuple[float, float]

PI = 3.141592653589793
"""The binary64 nearest to pi."""

_TERMS = 30


def cos_sin_turn(numerator: int, denominator: int) -> Vec2:
    """(cos, sin) of the angle 2*pi*numerator/denominator, by fixed Taylor series.

    The fraction is reduced into (-1/2, 1/2] of a turn with integers, the angle is
    theta = (2*pi) * (k / denominator), and both series run for a fixed number of terms,
    so the result depends on nothing but IEEE arithmetic.
    """
    k = numerator % denominator
    if 2 * k > denominator:
        k -= denominator
    theta = (2.0 * PI) * (k / denominator)
    t2 = theta * theta
    cos_sum = 1.0
    sin_sum = theta
    cos_term = 1.0
    sin_term = theta
    for n in range(1, _TERMS):
        cos_term = -cos_term * t2 / ((2 * n - 1) * (2 * n))
        sin_term = -sin_term * t2 / ((2 * n) * (2 * n + 1))
        cos_sum = cos_sum + cos_term
        sin_sum = sin_sum + sin_term
    return cos_sum, sin_sum


def circle(count: int, radius: float, center: Vec2, phase: int) -> list[tuple[Vec2, Vec2]]:
    """(position, goal) pairs: agent i at angle 2*pi*(2i + phase)/(2*count), goal antipodal.

    position = center + (cos, sin) * radius; goal = center - (cos, sin) * radius.
    """
    cx, cy = center
    out = []
    for i in range(count):
        c, s = cos_sin_turn(2 * i + phase, 2 * count)
        ox = c * radius
        oy = s * radius
        out.append(((cx + ox, cy + oy), (cx - ox, cy - oy)))
    return out


def block(origin: Vec2, columns: int, rows: int, spacing: Vec2, goal_offset: Vec2,
          goal_spacing: Vec2 | None = None) -> list[tuple[Vec2, Vec2]]:
    """(position, goal) pairs, row-major.

    position = (ox + col*sx, oy + row*sy); goal = ((ox + gx) + col*gsx, (oy + gy) + row*gsy)
    with goal spacing (gsx, gsy) defaulting to the spacing.
    """
    ox, oy = origin
    sx, sy = spacing
    gx, gy = goal_offset
    gsx, gsy = spacing if goal_spacing is None else goal_spacing
    out = []
    for row in range(rows):
        for col in range(columns):
            px = ox + col * sx
            py = oy + row * sy
            out.append(((px, py), ((ox + gx) + col * gsx, (oy + gy) + row * gsy)))
    return out
