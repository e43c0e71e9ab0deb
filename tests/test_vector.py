"""The vector and half-plane helpers state what the solver's inlined arithmetic must equal."""

import random
from math import sqrt

from conformance.solver import vector
from conformance.solver.halfplane import signed_distance
from conformance.solver.obstacle import segment_distance_squared


def test_helpers_equal_the_inlined_expressions() -> None:
    rng = random.Random(1)
    for _ in range(2000):
        a = (rng.uniform(-9, 9), rng.uniform(-9, 9))
        b = (rng.uniform(-9, 9), rng.uniform(-9, 9))
        s = rng.choice([0.1, 3.0, -2.5, rng.uniform(0.01, 5)])
        assert vector.dot(a, b) == a[0] * b[0] + a[1] * b[1]
        assert vector.length(a) == sqrt(vector.dot(a, a))
        assert vector.divide(a, s) == (a[0] / s, a[1] / s)
        assert vector.scale(a, s) == (a[0] * s, a[1] * s)
        assert vector.add(a, b) == (a[0] + b[0], a[1] + b[1])
        assert vector.sub(a, b) == (a[0] - b[0], a[1] - b[1])
        assert vector.cross(a, b) == a[0] * b[1] - a[1] * b[0]
        plane = (*a, *vector.divide(b, vector.length(b)))
        v = (rng.uniform(-2, 2), rng.uniform(-2, 2))
        assert signed_distance(plane, *v) == vector.dot(vector.sub(v, a), plane[2:])
        # the segment distance with t = 0 is a.a exactly (the clamp adds no rounding)
        assert segment_distance_squared(*a, a[0] + abs(a[0]) + 1.0, a[1]) >= 0.0


def test_divide_is_not_multiply_by_reciprocal() -> None:
    # x / s and x * (1/s) differ in the last bit here: the text divides each component
    x, s = 0.40484378180777547, 1.3
    assert vector.divide((x, 0.0), s)[0] == x / s
    assert x / s != x * (1.0 / s)
