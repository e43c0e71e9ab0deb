"""Behaviour bounds: a scenario's ``expect:`` block checked against the reference's figures.

Contract: ``check_expectations(scenario, figures)`` returns one readable line per violated
bound, each starting with the bound's key path (``expect.max_overlap: ...``); an empty list
means the figures meet every bound.  The figures are those that ``FigureRecorder`` measures
while the reference makes a golden (and that the golden stores), so checking costs no
simulation.  A figure that is missing from, or not a number in, the figures is reported as a
violation too (the golden predates the figure: regenerate it), never as an exception.

``EXPECT_KEYS`` documents every key of the block; it matches the JSON Schema of
``expect`` (a test keeps them equal) and ``docs/scenarios.md``.  A key that is absent is not
checked: there is no implicit bound.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import InputError

if TYPE_CHECKING:  # scenario.py imports this module to validate the block
    from .scenario import Scenario

FACE_TO_FACE_SPEED = 1e-3
"""face_to_face: the last state's fastest agent is slower than this (m/s)."""
FACE_TO_FACE_SLACK = 1.01
"""face_to_face: the final centre distance is within [r_a + r_b, (r_a + r_b) * this]."""


@dataclass(frozen=True)
class ExpectKey:
    """One key of the ``expect:`` block: its YAML type and what the reference must show."""

    key: str
    kind: str
    meaning: str


EXPECT_KEYS: tuple[ExpectKey, ...] = (
    ExpectKey("arrival_within", "integer >= 0",
              "every agent is within goal_radius of its final waypoint from some step <= this "
              "on (and stays there to the end)"),
    ExpectKey("max_overlap", "number >= 0",
              "deepest agent-agent overlap over every state and pair, "
              "(r_i + r_j - |p_i - p_j|) / ((r_i + r_j) / 2), is <= this"),
    ExpectKey("max_wall_overlap", "number >= 0",
              "deepest agent-segment overlap over every state, (r - distance) / r, is <= this"),
    ExpectKey("final_overlap", "number >= 0",
              "the agent-agent overlap (as max_overlap) at the last state is <= this"),
    ExpectKey("face_to_face", "boolean",
              "true: a two-agent scene whose agents never pass each other along their initial "
              "axis, none arrives, and they end at rest (speed < 1e-3) touching "
              "(gap in [r_a + r_b, 1.01 (r_a + r_b)]); false: not checked"),
    ExpectKey("fallback_used", "boolean",
              "true: the linear program's fallback ran at least once; false: not checked"),
    ExpectKey("hard_fallback_used", "boolean",
              "true: the fallback's hard-prefix branch ran at least once; false: not checked"),
)


def validate_expect(expect: dict, agent_count: int, file: str) -> None:
    """Bounds that cannot even be measured on this scene are bad input (``InputError``)."""
    if expect.get("face_to_face") and agent_count != 2:
        raise InputError(file, "expect.face_to_face",
                         f"needs a scene of exactly two agents (this one has {agent_count})")


def check_expectations(scenario: "Scenario", figures: dict) -> list[str]:
    """Every violated bound of the scenario's expect block, as one line each."""
    check = _Check(figures)
    exp = scenario.expect
    agents = scenario.scene.agents
    if "arrival_within" in exp:
        bound = exp["arrival_within"]
        step = figures.get("arrival_step")
        if "arrival_step" not in figures:
            check.missing("arrival_within", "arrival_step")
        elif step is None:
            arrived = figures.get("arrived", "?")
            check.fail("arrival_within", f"only {arrived} of {len(agents)} agents arrived (and stayed) "
                                         f"by the last step; bound: every agent by step {bound}")
        elif not isinstance(step, int) or isinstance(step, bool):
            check.missing("arrival_within", "arrival_step")
        elif step > bound:
            check.fail("arrival_within", f"the last agent arrived at step {step}, after the bound {bound}")
    for key in ("max_overlap", "max_wall_overlap", "final_overlap"):
        if key in exp:
            value = check.number(key, key)
            if value is not None and value > exp[key]:
                where = ""
                if key == "max_overlap" and isinstance(figures.get("max_overlap_step"), int):
                    where = f" (at step {figures['max_overlap_step']})"
                check.fail(key, f"the reference measures {value!r}{where}, above the bound {exp[key]!r}")
    if exp.get("face_to_face") and len(agents) == 2:
        a, b = agents
        touching = a.params.radius + b.params.radius
        passed = figures.get("passed_each_other")
        if passed is True:
            check.fail("face_to_face", "the agents passed each other")
        elif passed is not False:
            check.missing("face_to_face", "passed_each_other")
        arrived = check.number("face_to_face", "arrived")
        if arrived is not None and arrived != 0:
            check.fail("face_to_face", f"{arrived} agent(s) arrived")
        speed = check.number("face_to_face", "final_max_speed")
        if speed is not None and speed > FACE_TO_FACE_SPEED:
            check.fail("face_to_face", f"still moving at {speed!r} m/s at the last step (want <= {FACE_TO_FACE_SPEED})")
        gap = check.number("face_to_face", "final_gap")
        if gap is not None and not touching <= gap <= touching * FACE_TO_FACE_SLACK:
            check.fail("face_to_face", f"final gap {gap!r} is not face to face "
                                       f"(want [{touching!r}, {touching * FACE_TO_FACE_SLACK!r}])")
    if exp.get("fallback_used"):
        count = check.number("fallback_used", "fallbacks")
        if count == 0:
            check.fail("fallback_used", "the fallback never ran")
    if exp.get("hard_fallback_used"):
        count = check.number("hard_fallback_used", "hard_fallbacks")
        if count == 0:
            check.fail("hard_fallback_used", "the hard-prefix fallback never ran")
    return check.problems


class _Check:
    """Collects problem lines; reads figures defensively (goldens are data, not code)."""

    def __init__(self, figures: dict):
        self.figures = figures if isinstance(figures, dict) else {}
        self.problems: list[str] = []

    def fail(self, key: str, reason: str) -> None:
        self.problems.append(f"expect.{key}: {reason}")

    def missing(self, key: str, figure: str) -> None:
        self.fail(key, f"the golden has no usable figure {figure!r} (regenerate it)")

    def number(self, key: str, figure: str) -> float | None:
        value = self.figures.get(figure)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.missing(key, figure)
            return None
        return value
