"""Vector helpers of the normative text, on plain (x, y) float pairs.

Contract: every helper is a fixed sequence of IEEE binary64 operations that a port must
repeat in the same order.  ``dot(a, b)`` is ``a.x*b.x + a.y*b.y`` (two products, then one
sum); ``length(a)`` is ``sqrt(dot(a, a))``; ``scale`` and ``divide`` act on each component.
The hot paths of the solver inline these expressions on scalars; this module is the
readable statement of what the inlined code must equal.
"""

from __future__ import annotations

from math import sqrt

Vec2 = tuple[float, float]


def dot(a: Vec2, b: Vec2) -> float:
    """a.x*b.x + a.y*b.y, products first, left to right."""
    return a[0] * b[0] + a[1] * b[1]


def length(a: Vec2) -> float:
    """sqrt(dot(a, a)); never hypot."""
    return sqrt(a[0] * a[0] + a[1] * a[1])


def add(a: Vec2, b: Vec2) -> Vec2:
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Vec2, b: Vec2) -> Vec2:
    return (a[0] - b[0], a[1] - b[1])


def scale(a: Vec2, s: float) -> Vec2:
    """v * s: each component multiplied by s."""
    return (a[0] * s, a[1] * s)


def divide(a: Vec2, s: float) -> Vec2:
    """v / s: each component divided by s (not multiplied by 1/s, which rounds differently)."""
    return (a[0] / s, a[1] / s)


def cross(a: Vec2, b: Vec2) -> float:
    """a.x*b.y - a.y*b.x."""
    return a[0] * b[1] - a[1] * b[0]
