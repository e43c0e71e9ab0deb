"""State differences: the first value two state dumps disagree on, bit for bit.

Contract: ``first_state_difference(expected, got, fields)`` returns the ``Difference`` of the
first agent (in index order) and, within it, the first of ``fields`` (dump field indices; by
default ``STATE_FIELDS``, velocity before position) whose bits differ, or None when they are all
bit-equal; dumps with different agent counts give a ``Difference`` of agent -1 naming both
counts.  A ``Difference`` holds both values and their ULP distance.  ``hex_bits`` and
``hex_value`` write a double as its 16 hex digits (and its repr), as every cause and report
shows a value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

from ..contract.float_bits import bits, to_float32, ulp_distance
from ..runners.base import DUMP_FIELDS, StateDump


def hex_bits(value: float) -> str:
    return f"0x{bits(value):016X}"


def hex_value(value: float) -> str:
    return f"{hex_bits(value)} ({value!r})"


@dataclass
class Difference:
    """One differing value of a dump."""

    agent: int
    field: str
    expected: float
    got: float
    column: int | None = None
    """The field's index in a dump row (``DUMP_FIELDS``; ``AgentState``'s order), None for a count."""

    @property
    def ulps(self) -> int | None:
        return ulp_distance(self.expected, self.got)

    def distance_text(self) -> str:
        ulps = self.ulps
        if ulps is None:
            return "NaN involved"
        if ulps == 0:
            return "zeros of opposite sign"
        return f"{ulps} ulp"

    def describe(self) -> str:
        distance = self.distance_text()
        return (f"agent {self.agent} {self.field}: expected {hex_bits(self.expected)} ({self.expected!r}), "
                f"got {hex_bits(self.got)} ({self.got!r}), {distance}")


class AgentState(NamedTuple):
    """One agent's row of a state dump, by name (``DUMP_FIELDS``' order): a view of the six values."""

    px: float
    py: float
    vx: float
    vy: float
    prefx: float
    prefy: float

    @property
    def position(self) -> tuple[float, float]:
        return self.px, self.py

    @property
    def velocity(self) -> tuple[float, float]:
        return self.vx, self.vy

    @property
    def preferred(self) -> tuple[float, float]:
        return self.prefx, self.prefy


def as_agent(row) -> AgentState:
    """A dump row (six values) as an ``AgentState``."""
    return AgentState(*row)


def agents_of(state: StateDump) -> list[AgentState]:
    """Every agent row of a dump, by name."""
    return [AgentState(*row) for row in state.agents]


STATE_FIELDS = (2, 3, 0, 1)
"""Velocity before position: the velocity of a step is computed first and moves the position."""
PREFERRED_FIELDS = (4, 5)
VELOCITY_FIELDS = (2, 3)
POSITION_FIELDS = (0, 1)


def first_state_difference(expected: StateDump, got: StateDump,
                           fields: tuple[int, ...] = STATE_FIELDS) -> Difference | None:
    """First agent (then field, in the given order) whose bits differ, or None."""
    if len(expected.agents) != len(got.agents):
        return Difference(-1, f"agent count {len(got.agents)} vs {len(expected.agents)}", 0.0, 0.0)
    for i, (row_e, row_g) in enumerate(zip(expected.agents, got.agents)):
        for f in fields:
            if bits(row_e[f]) != bits(row_g[f]):
                return Difference(i, DUMP_FIELDS[f], row_e[f], row_g[f], f)
    return None


def precision_finding(values: list[float], reference: list[float]) -> str:
    """The narrower format every value the port reported is in, when the reference's are not:
    "float32" (every finite value has its low 29 mantissa bits zero; or at least three values
    differ and each is a float32 value within float32 rounding of the reference's), "a fixed-point
    grid of 2^-q" (every value a multiple of 2^-q, q at most GRID_BITS), or ""."""
    def narrow(v: float) -> bool:
        try:
            return to_float32(v) == v
        except OverflowError:
            return False
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return ""
    wide = [k for k, r in enumerate(reference) if math.isfinite(r) and not narrow(r)]
    if len(wide) < 3:  # too few values that only binary64 holds to tell a format
        return ""
    grid = _grid_bits(finite)
    if grid is not None and (_grid_bits([r for r in reference if math.isfinite(r)]) or GRID_BITS + 1) > grid:
        return f"a fixed-point grid of 2^-{grid}"
    if all(narrow(v) for v in finite):
        return "float32"
    return "float32" if rounded_to_float32(values, reference) else ""


def rounded_to_float32(values: list[float], reference: list[float], minimum: int = 3) -> bool:
    """Whether at least ``minimum`` of the port's values differ from the reference's and each that
    differs is a float32 value within float32 rounding of the reference's binary64 one (the
    reference's value rounded to float32, give or take the rounding of what fed it; a value below
    float32's range rounded to its zero or subnormal)."""
    def narrow(v: float) -> bool:
        try:
            return to_float32(v) == v
        except OverflowError:
            return False

    def rounded(v: float, r: float) -> bool:  # near it, or exactly it rounded (a value below float32's range: 0)
        try:
            return abs(v - r) <= abs(r) * 2.0 ** -23 or (math.isfinite(r) and v == to_float32(r))
        except OverflowError:
            return False
    differing = [(v, r) for v, r in zip(values, reference) if bits(v) != bits(r) and math.isfinite(v)]
    return len(differing) >= minimum and all(narrow(v) and not narrow(r) and rounded(v, r) for v, r in differing)


GRID_BITS = 16
"""The finest fixed-point grid recognised: values that are all multiples of 2^-16 or coarser (a
float32 state of values below 2^7 is on no grid this coarse: its small values use finer bits)."""


def _grid_bits(values: list[float]) -> int | None:
    """The smallest q such that every value is a whole multiple of 2^-q, when that q is at most
    GRID_BITS and some value is not whole; None otherwise."""
    finest = 0
    for v in values:
        if v == 0.0:
            continue
        mantissa, exponent = math.frexp(v)  # v = mantissa * 2^exponent, 0.5 <= |mantissa| < 1
        scaled, shift = abs(mantissa), 0
        while scaled != int(scaled):
            scaled *= 2.0
            shift += 1
        finest = max(finest, shift - exponent)
        if finest > GRID_BITS:
            return None
    return finest if finest > 0 else None