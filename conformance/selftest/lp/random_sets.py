"""Random constraint sets for the linear programs, as the brute-force comparison draws them.

Contract: ``random_case(rng)`` draws one set (a radius, a preferred velocity p, 1..8 half-planes,
half of the sets with a hard prefix that contains the origin, a few near degeneracy: lines
through one point or tangent to the circle); ``random_line`` draws one half-plane, ``format_case``
prints a set so that it can be pasted back.  Every draw comes from the caller's rng in a fixed
order, so a seed names its sets.  Standard library only; the oracle is ``oracle``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import cos, pi, sin, sqrt

from .oracle import Line


@dataclass
class Case:
    lines: list[Line]
    hard_count: int
    radius: float
    px: float
    py: float
    kind: str


def random_line(rng: random.Random, radius: float, lo: float, hi: float,
                normals: list[tuple[float, float]]) -> Line:
    """A half-plane whose boundary is at signed offset c in [lo, hi] * R from the origin
    (g(0) = -c * R: the origin is permitted when c < 0).  Sometimes reuses an earlier normal,
    exactly or reversed, to exercise the parallel branches."""
    if normals and rng.random() < 0.1:
        nx, ny = rng.choice(normals)
        if rng.random() < 0.5:
            nx, ny = -nx, -ny
    else:
        th = rng.uniform(-pi, pi)
        nx, ny = cos(th), sin(th)
        if rng.random() < 0.03 and normals:
            # nearly parallel to an earlier line
            mx, my = rng.choice(normals)
            eps = rng.choice([1e-3, 1e-5, 1e-7])
            nx, ny = mx - my * eps, my + mx * eps
            ln = sqrt(nx * nx + ny * ny)
            nx, ny = nx / ln, ny / ln
    normals.append((nx, ny))
    c = rng.uniform(lo, hi) * radius
    s = rng.uniform(-2.0, 2.0) * radius
    # P = n*c + t*s with t = (-ny, nx): any point of the line
    return nx * c - ny * s, ny * c + nx * s, nx, ny


def random_case(rng: random.Random) -> Case:
    """One random set: R in [0.5, 3], p within 1.5 R, 1..8 lines, half of the sets with a hard
    prefix of 1..3 half-planes that contain the origin with a margin (like obstacle constraints,
    which always admit the zero velocity)."""
    radius = rng.uniform(0.5, 3.0)
    th = rng.uniform(-pi, pi)
    pr = rng.uniform(0.0, 1.5) * radius
    px, py = pr * cos(th), pr * sin(th)
    normals: list[tuple[float, float]] = []
    lines: list[Line] = []
    if rng.random() < 0.05:
        return _degenerate_case(rng, radius, px, py)
    if rng.random() < 0.5:
        hard_count = rng.randint(1, 3)
        for _ in range(hard_count):
            lines.append(random_line(rng, radius, -1.0, -0.05, normals))
        soft = rng.randint(1, 6)
        kind = "hard"
    else:
        hard_count = 0
        soft = rng.randint(1, 8)
        kind = "soft"
    for _ in range(soft):
        lines.append(random_line(rng, radius, -1.2, 0.9, normals))
    return Case(lines, hard_count, radius, px, py, kind)


def _degenerate_case(rng: random.Random, radius: float, px: float, py: float) -> Case:
    """A few sets near degeneracy: lines through (nearly) one point q of the disc, or tangent
    to the circle.  Many of them lie within MARGIN of the feasibility boundary (skipped by the
    closest-point comparison); the fallback is compared on every one the solver rejects."""
    lines: list[Line] = []
    if rng.random() < 0.5:
        qr = rng.uniform(0.0, 1.0) * radius
        qt = rng.uniform(-pi, pi)
        qx, qy = qr * cos(qt), qr * sin(qt)
        jitter = rng.choice([0.0, 1e-12, 1e-9, 1e-6]) * radius
        kind = "concurrent"
    else:
        qx = qy = 0.0
        jitter = 0.0
        kind = "tangent"
    for _ in range(rng.randint(2, 6)):
        th = rng.uniform(-pi, pi)
        nx, ny = cos(th), sin(th)
        if kind == "tangent":
            c = radius * rng.choice([-1.0, 1.0, 1.0 - 1e-9, 1.0 + 1e-9, 0.5])
            lines.append((nx * c, ny * c, nx, ny))
        else:
            e = rng.uniform(-1.0, 1.0) * jitter
            lines.append((qx + nx * e, qy + ny * e, nx, ny))
    return Case(lines, 0, radius, px, py, kind)


def format_case(case: Case) -> str:
    return (f"Case(lines={case.lines!r}, hard_count={case.hard_count}, radius={case.radius!r}, "
            f"px={case.px!r}, py={case.py!r}, kind={case.kind!r})")
