"""Divergence localization: from "hash differs at step k" to agent, field, bits and cause.

Contract: ``diagnose(scene, step, runner, reference)`` compares the runner's dump with the
reference's at the first divergent step, names the first agent and field that differ with both
values as hex bits and their ULP distance, then looks one step back: if the preferred
velocities computed from the (still equal) previous state already differ, the driver is at
fault, otherwise the solver's new velocities are.  ``first_failing_family`` runs the primitive
vectors through the runner and names the first family it gets wrong.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path

from . import vectors
from .runners.base import DUMP_FIELDS, Runner, RunnerError, StateDump
from .scenario import Scene


def bits(value: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", value))[0]


def hex_bits(value: float) -> str:
    return f"0x{bits(value):016X}"


def ulp_distance(a: float, b: float) -> int | None:
    """Number of representable doubles between a and b (None when either is NaN)."""
    if a != a or b != b:
        return None

    def ordered(x: float) -> int:
        u = bits(x)
        return -(u & 0x7FFFFFFFFFFFFFFF) if u >> 63 else u

    return abs(ordered(a) - ordered(b))


@dataclass
class Difference:
    """One differing value of a dump."""

    agent: int
    field: str
    expected: float
    got: float

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


STATE_FIELDS = (2, 3, 0, 1)
"""Velocity before position: the velocity of a step is computed first and moves the position."""
PREFERRED_FIELDS = (4, 5)


def first_difference(expected: StateDump, got: StateDump, fields: tuple[int, ...] = STATE_FIELDS) -> Difference | None:
    """First agent (then field, in the given order) whose bits differ, or None."""
    if len(expected.agents) != len(got.agents):
        return Difference(-1, f"agent count {len(got.agents)} vs {len(expected.agents)}", 0.0, 0.0)
    for i, (row_e, row_g) in enumerate(zip(expected.agents, got.agents)):
        for f in fields:
            if bits(row_e[f]) != bits(row_g[f]):
                return Difference(i, DUMP_FIELDS[f], row_e[f], row_g[f])
    return None


@dataclass
class Diagnosis:
    """What a diverged cell reports."""

    step: int
    state: Difference | None = None
    cause: str = ""
    preferred: Difference | None = None
    vector_family: str | None = None
    vector_case: int | None = None
    notes: list[str] = field(default_factory=list)
    picture: dict | None = None
    """The neighbourhood of the divergent agent at the divergent step, for the HTML report."""

    def summary(self) -> str:
        parts = [f"step {self.step}"]
        if self.state is not None:
            d = self.state
            parts.append(f"agent {d.agent}, {d.field}, {hex_bits(d.expected)} vs {hex_bits(d.got)}, "
                         f"{d.distance_text()}")
        if self.cause:
            parts.append(self.cause)
        if self.vector_family:
            parts.append(f"first failing primitive: {self.vector_family} (case {self.vector_case})")
        return "; ".join(parts)

    def to_json(self) -> dict:
        def diff(d: Difference | None):
            if d is None:
                return None
            return {"agent": d.agent, "field": d.field, "expected": hex_bits(d.expected), "got": hex_bits(d.got),
                    "expected_value": repr(d.expected), "got_value": repr(d.got), "ulps": d.ulps}
        return {"step": self.step, "state": diff(self.state), "cause": self.cause, "preferred": diff(self.preferred),
                "vector_family": self.vector_family, "vector_case": self.vector_case, "notes": list(self.notes),
                "summary": self.summary(), "picture": self.picture}


def diagnose(scene: Scene, step: int, runner: Runner, reference: Runner) -> Diagnosis:
    """Localize a divergence first seen in the hash of state ``step``."""
    result = Diagnosis(step)
    try:
        got = runner.dump(scene, step)
        expected = reference.dump(scene, step)
    except RunnerError as err:
        result.notes.append(f"dump failed: {err.reason}")
        return result
    result.state = first_difference(expected, got)
    if result.state is not None and result.state.agent >= 0:
        result.picture = neighbourhood(scene, result.state.agent, expected, got)
    if step == 0:
        result.cause = "the initial state differs: the scene was not loaded exactly"
        return result
    try:
        got_prev = runner.dump(scene, step - 1)
        expected_prev = reference.dump(scene, step - 1)
    except RunnerError as err:
        result.notes.append(f"dump of step {step - 1} failed: {err.reason}")
        return result
    before = first_difference(expected_prev, got_prev)
    if before is not None:
        result.notes.append(f"the dump of step {step - 1} already differs ({before.describe()}) although its "
                            "hash matched: the port's hash or dump is inconsistent")
    result.preferred = first_difference(expected_prev, got_prev, PREFERRED_FIELDS)
    if result.preferred is not None:
        result.cause = (f"driver bug: the preferred velocities computed from step {step - 1} already differ "
                        f"({result.preferred.describe()})")
    else:
        result.cause = (f"solver bug: same state and preferred velocities at step {step - 1}, "
                        "different new velocities")
    return result


PICTURE_RADIUS = 8.0
PICTURE_AGENTS = 60


def neighbourhood(scene: Scene, agent: int, expected: StateDump, got: StateDump) -> dict:
    """Positions and velocities (reference and runner) of the agents near ``agent``."""
    cx, cy = expected.agents[agent][0], expected.agents[agent][1]
    near = sorted(range(len(expected.agents)),
                  key=lambda i: (expected.agents[i][0] - cx) ** 2 + (expected.agents[i][1] - cy) ** 2)
    chosen = [i for i in near[:PICTURE_AGENTS]
              if (expected.agents[i][0] - cx) ** 2 + (expected.agents[i][1] - cy) ** 2 <= PICTURE_RADIUS ** 2]
    segments = [list(s) for s in scene.segments
                if min(abs(s[0] - cx), abs(s[2] - cx)) <= 4 * PICTURE_RADIUS
                and min(abs(s[1] - cy), abs(s[3] - cy)) <= 4 * PICTURE_RADIUS]
    return {
        "step": expected.step, "agent": agent, "center": [cx, cy], "indices": chosen,
        "radii": [scene.agents[i].params.radius for i in chosen],
        "reference": [list(expected.agents[i][:4]) for i in chosen],
        "runner": [list(got.agents[i][:4]) for i in chosen],
        "segments": segments,
    }


def first_failing_family(runner: Runner, vector_folder: Path) -> tuple[str, int] | None:
    """(family, first bad case) of the first primitive family the runner gets wrong, or None."""
    for name, cases in vectors.load_all(vector_folder).items():
        try:
            results = runner.vectors(name, [c["args"] for c in cases])
        except RunnerError:
            return name, 0
        bad = vectors.compare(cases, results)
        if bad:
            return name, bad[0]
    return None
