"""Off-axis degenerate geometry: inputs on which a fused multiply-add decides otherwise.

Contract: each target of ``TARGETS`` is one decision (or a*b - c*d value) of the reference
whose two products a contracting port may fuse (``contract.fused.fma``, either product), and
a generator of candidate inputs that put it within a few ulps of its boundary at angles off the
axes: directions whose components are irrational (``unit(k)`` = (1, k) / sqrt(1 + k*k), the
square root computed once and correctly rounded, so the search is reproducible everywhere),
points built along them, then nudged by ulps.  ``search(target)`` returns the first candidate,
in the generator's fixed order, on which each fused reading (``Target.readings``) answers other
than the text, one case per reading, or none when the generator holds no such input (the
target's ``separates`` says so, a failure of the search, not a proof).  ``python -m
conformance.data.offaxis_search --write`` rewrites data/vector_offaxis.py with the cases found
and regenerates the vector files of their families (a minor version: new cases appended).
Harness-side arithmetic only: the reference solver never sees ``fma``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterator

from ..contract.fused import fma
from ..solver import linear_program

SLOPES = (0.4142135623730951, 1.7320508075688772, -0.5773502691896257, 3.0776835371752536, -2.414213562373095)
"""tan of 22.5, 60, -30, 72 and -67.5 degrees (decimal literals: the same doubles everywhere)."""


def unit(k: float) -> tuple[float, float]:
    """The unit direction (1, k) / sqrt(1 + k*k), both components rounded (off the axes)."""
    n = math.sqrt(1.0 + k * k)
    return 1.0 / n, k / n


def nudged(x: float, y: float, reach: int = 6) -> Iterator[tuple[float, float]]:
    """(x, y) moved by up to ``reach`` ulps per component, nearest moves first."""
    steps = sorted(((i, j) for i in range(-reach, reach + 1) for j in range(-reach, reach + 1)),
                   key=lambda ij: (abs(ij[0]) + abs(ij[1]), ij))
    for i, j in steps:
        yield _ulps(x, i), _ulps(y, j)


def _ulps(x: float, n: int) -> float:
    for _ in range(abs(n)):
        x = math.nextafter(x, math.inf if n > 0 else -math.inf)
    return x


@dataclass(frozen=True)
class Target:
    """One decision or a*b - c*d value of the reference and its fused readings."""

    family: str
    site: str
    """The census site id (or, for a value, the function and the expression)."""
    clause: str
    readings: tuple[str, ...]
    """Names of the fused readings, each a way a compiler may contract the site."""
    candidates: Callable[[], Iterator[list]]
    """Inputs of the family, in a fixed order."""
    differs: Callable[[list, str], bool]
    """Whether the reading answers otherwise than the text on these inputs."""


# ------------------------------------------------------------------------- the agent case form

def _w(args: list) -> tuple[float, float]:
    ax, ay, _, tau, xx, xy = args
    return xx - ax / tau, xy - ay / tau


def _cutoff(args: list, dot1: float, ww: float) -> bool:
    r = args[2]
    return dot1 < 0.0 and dot1 * dot1 > r * r * ww


def _side_candidates() -> Iterator[list]:
    """x = a/tau + mu*a: w almost along a (the leg case, dot1 > 0), then nudged."""
    for k in SLOPES:
        ux, uy = unit(k)
        for length, r, tau, mu in ((3.0, 1.0, 2.0, 0.75), (10.0, 1.5, 1.0, 0.1), (0.7, 0.5, 5.0, 3.0)):
            ax, ay = length * ux, length * uy
            for xx, xy in nudged(ax / tau + mu * ax, ay / tau + mu * ay):
                yield [ax, ay, r, tau, xx, xy]


def _side_differs(args: list, reading: str) -> bool:
    ax, ay = args[0], args[1]
    wx, wy = _w(args)
    if _cutoff(args, wx * ax + wy * ay, wx * wx + wy * wy):
        return False
    text = ax * wy - ay * wx > 0.0
    fused = fma(ax, wy, -(ay * wx)) if reading == "first" else fma(-ay, wx, ax * wy)
    return (fused > 0.0) != text


def _cutoff_candidates() -> Iterator[list]:
    """w on the cut-off cone, (w.a)^2 = r^2 (w.w) with w.a < 0: w = -a rotated by the cone's half
    angle (cos = r/|a|), scaled, then x = a/tau + w nudged."""
    for k in SLOPES:
        ux, uy = unit(k)
        for length, r, tau, scale in ((4.0, 1.0, 2.0, 0.5), (2.5, 2.0, 1.0, 3.0), (9.0, 1.25, 0.5, 1.5)):
            c = r / length
            s = math.sqrt(1.0 - c * c)
            wx, wy = -(c * ux - s * uy) * scale, -(s * ux + c * uy) * scale
            ax, ay = length * ux, length * uy
            for xx, xy in nudged(ax / tau + wx, ay / tau + wy):
                yield [ax, ay, r, tau, xx, xy]


def _cutoff_differs(args: list, reading: str) -> bool:
    ax, ay = args[0], args[1]
    wx, wy = _w(args)
    dot1, ww = wx * ax + wy * ay, wx * wx + wy * wy
    text = _cutoff(args, dot1, ww)
    if reading.startswith("dot1"):
        dot1 = fma(wx, ax, wy * ay) if reading.endswith("first") else fma(wy, ay, wx * ax)
    else:
        ww = fma(wx, wx, wy * wy) if reading.endswith("first") else fma(wy, wy, wx * wx)
    return _cutoff(args, dot1, ww) != text


def _direction_candidates() -> Iterator[list]:
    """a*leg within ulps of the other product: a = (r, q) turned off the axes (|a|^2 - r^2 =
    q^2 makes the left leg's x or the right leg's y cancel), x on either side of a."""
    for k in SLOPES:
        ux, uy = unit(k)
        for r, q, tau in ((1.0, ux * 3.0, 2.0), (0.7, abs(uy) * 2.0, 1.0), (1.3, ux * 5.0, 0.5)):
            for ax, ay in nudged(r, q, 4):
                for side in (1.0, -1.0):
                    yield [ax, ay, r, tau, ax / tau - side * ay, ay / tau + side * ax]


def _direction_differs(args: list, reading: str) -> bool:
    """The leg direction's x (left leg) or y (right leg) as a fused a*b - c*d."""
    ax, ay, r = args[0], args[1], args[2]
    wx, wy = _w(args)
    if _cutoff(args, wx * ax + wy * ay, wx * wx + wy * wy):
        return False
    aa = ax * ax + ay * ay
    if not aa > r * r:
        return False
    leg = math.sqrt(aa - r * r)
    left = ax * wy - ay * wx > 0.0
    if left:
        text = ax * leg - ay * r
        fused = fma(ax, leg, -(ay * r)) if reading == "first" else fma(-ay, r, ax * leg)
    else:
        text = ay * leg - ax * r
        fused = fma(ay, leg, -(ax * r)) if reading == "first" else fma(-ax, r, ay * leg)
    return fused != text and abs(text) < 1e-12 * aa


# ------------------------------------------------------------------------- the linear program

def _parallel_candidates() -> Iterator[list]:
    """Two lines of the closest program whose directions make d . m about +-1e-12 (the parallel
    test's boundary), off the axes: N_1 = N_0 turned by 1e-12, nudged; the preferred velocity
    violates line 1 so that its interval meets line 0, and num is small so that t matters."""
    for k in SLOPES:
        nx, ny = unit(k)
        for turn in (1e-12, -1e-12, 1.0000000000000002e-12):
            mx, my = nx - turn * ny, ny + turn * nx
            for px, py in nudged(mx, my, 3):
                lines = [(0.25 * nx, 0.25 * ny, nx, ny), (0.25 * nx + 1e-13 * ny, 0.25 * ny - 1e-13 * nx, px, py)]
                yield [lines, 2.0, -nx, -ny]


def _parallel_differs(args: list, reading: str) -> bool:
    lines = args[0]
    _, _, n0x, n0y = lines[0]
    _, _, n1x, n1y = lines[1]
    dx, dy = -n1y, n1x
    text = dx * n0x + dy * n0y
    fused = fma(dx, n0x, dy * n0y) if reading == "first" else fma(dy, n0y, dx * n0x)
    eps = linear_program.PARALLEL_EPSILON

    def inside(v: float) -> bool:
        return -eps <= v <= eps
    return inside(fused) != inside(text)


TARGETS: tuple[Target, ...] = (
    Target("agent_case_form", "solver.obstacle.agent_case_form: ax * wy - ay * wx > 0.0", "agents.leg-side",
           ("first", "second"), _side_candidates, _side_differs),
    Target("agent_case_form", "solver.obstacle.agent_case_form: dot1 * dot1 > r * r * ww", "agents.cutoff",
           ("dot1-first", "dot1-second", "ww-first", "ww-second"), _cutoff_candidates, _cutoff_differs),
    Target("agent_case_form", "solver.obstacle.agent_case_form: ax * leg - ay * r (ay * leg - ax * r)",
           "agents.leg", ("first", "second"), _direction_candidates, _direction_differs),
    Target("solve_closest", "solver.linear_program.line_interval: -PARALLEL_EPSILON <= denom <= PARALLEL_EPSILON",
           "lp.parallel", ("first", "second"), _parallel_candidates, _parallel_differs),
)


def search(target: Target, limit: int = 200_000) -> dict[str, list | None]:
    """reading -> the first candidate it answers otherwise on (None: none among ``limit``)."""
    found: dict[str, list | None] = {r: None for r in target.readings}
    for n, args in enumerate(target.candidates()):
        if n >= limit or all(v is not None for v in found.values()):
            break
        for reading in target.readings:
            if found[reading] is None and target.differs(args, reading):
                found[reading] = args
    return found

