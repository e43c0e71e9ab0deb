"""Exact draws for the edge vectors: small lattice values and program lines through them.

Contract: ``small(rng)`` is a small integer or half-integer (sums and products of them are
exact, so comparisons tie); ``lattice_lines(rng, count)`` are program lines through lattice
points with axis or 3-4-5 normals and zeros of both signs; ``near_parallel_lines(rng)`` is an
axis line and a line tilted by the parallel epsilon, offset by a hair, followed by lattice lines.
Every value comes from the caller's rng in a fixed order (the stored vectors depend on it).
Inputs only: nothing here imports the solver or the driver (the census shares this module).
"""

from __future__ import annotations

import random

PARALLEL_EPSILON = 1e-12
"""|d.m| at or below this makes two program lines parallel."""


def small(rng: random.Random) -> float:
    """A small integer or half-integer: exact sums and products make ties."""
    return rng.randint(-8, 8) / rng.choice([1.0, 2.0])


def lattice_lines(rng: random.Random, count: int) -> list[tuple[float, float, float, float]]:
    """Program lines through small lattice points with axis or 3-4-5 normals: intervals that
    close to a point, lines through the current velocity, exactly parallel pairs, zeros of
    both signs."""
    normals = [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0), (0.6, 0.8), (-0.8, 0.6), (0.8, -0.6), (-0.6, -0.8),
               (-0.0, 1.0), (1.0, -0.0)]
    return [(_signed_zero(rng, small(rng) / 2), _signed_zero(rng, small(rng) / 2), *rng.choice(normals))
            for _ in range(count)]


def _signed_zero(rng: random.Random, value: float) -> float:
    """value, except that a zero is -0.0 a third of the time: ties of zeros of both signs."""
    return -0.0 if value == 0.0 and rng.random() < 0.33 else value


def near_parallel_lines(rng: random.Random) -> list[tuple[float, float, float, float]]:
    """An axis line and a line whose normal is tilted by exactly +-1e-12 (|d.m| equal to the
    parallel epsilon) or a little more, offset by a hair: parallel or not decides."""
    base = rng.choice([(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)])
    tilt = rng.choice([PARALLEL_EPSILON, -PARALLEL_EPSILON, 2 * PARALLEL_EPSILON, -2 * PARALLEL_EPSILON])
    m = (base[0] - base[1] * tilt, base[1] + base[0] * tilt)
    hair = rng.choice([1.0, -1.0]) * 10.0 ** rng.uniform(-14.0, -11.0)
    first = (base[0] * hair, base[1] * hair, *m)
    second = (0.0, 0.0, *base)
    lines = [first, second] if rng.random() < 0.7 else [second, first]
    return lines + lattice_lines(rng, rng.randint(0, 2))
