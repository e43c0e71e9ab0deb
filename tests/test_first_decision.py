"""The first different decision of a port whose first differences are rounding (issue 30 item 4).

The ports are built here: ``Nudged`` wraps a runner with primitives and answers its agent_step an
ulp or two off (rounding only, as a foreign library with a reciprocal multiply would); wrapped
around the reference it never decides otherwise, wrapped around a misreading of the catalogue
it decides otherwise exactly where the reference's states first reach the misread decision,
which a bit-for-bit scan of the bare misreading (no rounding to see through) finds on its own.
"""

from __future__ import annotations

import json
import math

import pytest

from conformance.contract.scenario import load_scenario
from conformance.data import vectors
from conformance.judge import first_decision as fd
from conformance.judge.step_comparison import (PLANE_FIELDS, StepResult, agent_step_args, compare_steps,
                                               runner_agent_step, step_result)
from conformance.runners.base import Runner, RunnerError
from conformance.runners.reference import ReferenceRunner
from conformance.selftest.controls import careless
from conformance.selftest.controls.catalogue import control_runner
from conftest import ROOT, Delegating

REFERENCE = ReferenceRunner()
AGENT_STEP = vectors.FAMILY_BY_NAME["agent_step"]


def scene_of(name: str):
    return load_scenario(ROOT / "scenarios" / "orca" / f"{name}.yaml").scene


def _ulps(value: float, count: int) -> float:
    for _ in range(count):
        value = math.nextafter(value, math.inf)
    return value


class Nudged(Delegating):
    """``inner`` with rounding only: each agent_step velocity 1 or 2 ulps up, each constraint's
    point 1 ulp off its line (every other primitive and the run as ``inner`` answers them)."""

    def __init__(self, inner: Runner):
        super().__init__(inner, "nudged")

    def vectors(self, family, args):
        results = self.inner.vectors(family, args)
        if family != "agent_step":
            return results
        return [self._nudge(case[0], result) for case, result in zip(args, results)]

    @staticmethod
    def _nudge(agent: int, result: list) -> list:
        lines, hard, vx, vy = [vectors.decode_value(c, v) for c, v in zip(AGENT_STEP.result, result)]
        lines = [(_ulps(px, 1), py, nx, ny) for px, py, nx, ny in lines]
        nudged = [lines, hard, _ulps(vx, 1 + agent % 2), _ulps(vy, 2 - agent % 2)]
        return [vectors.encode_value(c, v) for c, v in zip(AGENT_STEP.result, nudged)]


def first_bit_difference(scene, runner: Runner, last: int):
    """(step, agent, ConstraintDifference) of the first agent_step that differs in any bit from
    the reference's, from the reference's dumps, one agent at a time: the oracle."""
    for step in range(1, last + 1):
        state = REFERENCE.dump(scene, step - 1)
        for agent in range(len(scene.agents)):
            args = agent_step_args(scene, state, agent)
            want = step_result(AGENT_STEP.reference(*args))
            found = compare_steps(scene, state, agent, want, runner_agent_step(runner, args))
            if found is not None:
                return step, agent, found
    return None


def first_hash_difference(scene, runner: Runner) -> int | None:
    for step, (want, got) in enumerate(zip(REFERENCE.hashes(scene), runner.hashes(scene))):
        if want != got:
            return step
    return None


# ----------------------------------------------------------------------------- rounding only

@pytest.mark.parametrize("name", ["degenerate", "overlap-agents"])
def test_a_port_off_by_rounding_only_never_decides_otherwise(name: str) -> None:
    scene = scene_of(name)
    port = Nudged(ReferenceRunner())
    state = REFERENCE.dump(scene, 3)
    want = step_result(AGENT_STEP.reference(*agent_step_args(scene, state, 1)))
    got = runner_agent_step(port, agent_step_args(scene, state, 1))
    assert got != want and fd.is_rounding(want, got)  # other bits, same structure
    notes: list[str] = []
    assert fd.first_decision(scene, port, 1, max_steps=scene.steps, notes=notes) is None
    assert notes == [f"the port's agent_step agrees with the reference's up to rounding (relative 1e-09) for every "
                     f"agent from the reference's states of steps 0..{scene.steps - 1}"]


def test_a_real_build_with_other_rounding_never_decides_otherwise() -> None:
    """The -ffast-math control: other rounding in every formula, the same decisions."""
    port = control_runner("fast-math-x64")
    try:
        for name in ("degenerate", "overlap-agents"):
            scene = scene_of(name)
            assert first_hash_difference(scene, port) == 1  # its first differences are rounding
            assert fd.first_decision(scene, port, 1, max_steps=scene.steps) is None
    finally:
        port.close()


# ----------------------------------------------------------------------------- a decision read otherwise

@pytest.mark.parametrize("name, scene_name, neighbor, same_as_hash", [
    ("leg-tie-left", "degenerate", "agent neighbor", True),  # a leg tie, first met at step 31
    # a neighbour order from step 1, and an obstacle left out from step 8, both unseen in the run for long
    ("neighbor-ties-higher-index", "overlap-agents", "agent neighbor", False),
    ("reach-without-radius", "degenerate", "obstacle: segment", False),
])
def test_a_misread_decision_is_found_through_the_rounding(name: str, scene_name: str, neighbor: str,
                                                          same_as_hash: bool) -> None:
    scene = scene_of(scene_name)
    bare = control_runner(name)
    try:
        oracle = first_bit_difference(scene, bare, scene.steps)
        assert oracle is not None
        step, agent, expected = oracle
        if same_as_hash:  # the run's first bit difference is that decision
            assert first_hash_difference(scene, bare) == step
        found = fd.first_decision(scene, Nudged(bare), 1, max_steps=scene.steps)
    finally:
        bare.close()
    assert found is not None and (found.step, found.agent) == (step, agent), found and found.text
    c = found.difference
    assert (c.index, c.neighbor) == (expected.index, expected.neighbor)
    assert c.field == expected.field or {c.field, expected.field} <= set(PLANE_FIELDS)  # the port's P.x is off too
    assert c.neighbor.startswith(neighbor) and c.agent == agent
    assert found.state == REFERENCE.dump(scene, step - 1)
    assert found.text.startswith(f"the first different decision is at step {step}, agent {agent}: "
                                 f"constraint {c.index} ({c.neighbor}) ")
    assert found.deviation > 1e-3 and found.checked == step
    assert not fd.is_rounding(found.reference, found.port)
    json.dumps(found.to_json())


def test_the_aligned_result_points_past_the_rounding_at_the_decision() -> None:
    """Constraint 0 off by rounding, constraint 1 turned: compare_steps on the aligned list names 1."""
    scene = scene_of("overlap-agents")
    state = REFERENCE.dump(scene, 2)
    want = step_result(AGENT_STEP.reference(*agent_step_args(scene, state, 0)))
    assert len(want.lines) >= 2 and want.hard == 0
    first, second = want.lines[0], want.lines[1]
    rounded = (_ulps(first[0], 3), first[1], _ulps(first[2], 1), first[3])
    turned = (second[0], second[1], -second[3], second[2])
    port = StepResult((rounded, turned) + want.lines[2:], want.hard, want.vx, want.vy)
    assert compare_steps(scene, state, 0, want, port).index == 0  # in bits, the rounding comes first
    fitted = fd.aligned(want, port)
    assert fitted.lines[0] == first and fitted.lines[1] == turned
    c = compare_steps(scene, state, 0, want, fitted)
    assert c.index == 1 and c.neighbor.startswith("agent neighbor ") and c.field == "N.x"


def test_structure_up_to_rounding() -> None:
    plane = (0.3, -1.2, 0.6, 0.8)
    slid = (0.3 + 0.8 * 5.0, -1.2 - 0.6 * 5.0, 0.6, 0.8)  # another point of the same line
    assert fd.plane_deviation(plane, slid) < 1e-15
    across = (0.3 + 0.6e-6, -1.2 + 0.8e-6, 0.6, 0.8)  # 1e-6 across the line, relative to |P.y| = 1.2
    assert fd.plane_deviation(plane, across) == pytest.approx(1e-6 / 1.2, rel=1e-6)
    assert fd.plane_deviation(plane, (0.3, -1.2, 0.6 + 1e-8, 0.8)) == pytest.approx(1e-8)
    assert fd.plane_deviation(plane, (0.3, -1.2, math.nan, 0.8)) == math.inf
    # the point's tolerance grows with the magnitudes (a 1e-12 offset at 1e4 m/s is rounding)
    far = (1e4, 0.0, 1.0, 0.0)
    assert fd.plane_deviation(far, (1e4 + 1e-8, 0.0, 1.0, 0.0)) <= fd.RELATIVE
    step = StepResult((plane,), 1, 0.5, 0.25)
    assert fd.deviation(step, StepResult((plane,), 0, 0.5, 0.25)) == math.inf  # hard count
    assert fd.deviation(step, StepResult((), 0, 0.5, 0.25)) == math.inf  # constraint count
    assert fd.is_rounding(step, StepResult((slid,), 1, _ulps(0.5, 2), 0.25))
    assert not fd.is_rounding(step, StepResult((plane,), 1, 0.5 + 1e-7, 0.25))
    assert fd.velocity_deviation(step, StepResult((plane,), 1, math.nan, 0.25)) == math.inf


# ----------------------------------------------------------------------------- no answer, bounds

class _WrongCount(ReferenceRunner):
    def vectors(self, family, args):
        return super().vectors(family, args)[:-1]


class _ThreeValues(ReferenceRunner):
    def vectors(self, family, args):
        return [[[line[:3] for line in result[0]], *result[1:]] for result in super().vectors(family, args)]


@pytest.mark.parametrize("port, reason", [
    (ReferenceRunner("control:agents-first", careless.AgentsFirstSimulator), "does not provide agent_step"),
    (_WrongCount(), "agent_step answered 5 results for 6 cases"),
    (_ThreeValues(), "malformed agent_step result: a constraint without four values"),
])
def test_a_port_that_cannot_answer_agent_step_gives_none(port: Runner, reason: str) -> None:
    scene = scene_of("degenerate")
    notes: list[str] = []
    assert fd.first_decision(scene, port, 1, notes=notes) is None
    assert len(notes) == 1 and notes[0].startswith("the port's agent_step failed from the reference's state of "
                                                   "step 0 (") and reason in notes[0]
    with pytest.raises(RunnerError):
        fd.port_steps(port, scene, REFERENCE.dump(scene, 0), range(6))


def test_the_search_is_bounded_by_steps_and_work() -> None:
    scene = scene_of("degenerate")  # leg-tie-left decides otherwise at step 31
    port = Nudged(control_runner("leg-tie-left"))
    try:
        notes: list[str] = []
        assert fd.first_decision(scene, port, 5, max_steps=20, notes=notes) is None
        assert notes[-1].endswith("from the reference's states of steps 4..24")
        assert fd.first_decision(scene, port, 25, max_steps=20).step == 31
        assert fd.first_decision(scene, port, 31, max_steps=0).step == 31
        agents = len(scene.agents)
        assert fd.first_decision(scene, port, 1, work=0, notes=notes) is None
        assert notes[-1] == "the work bound (0 agent steps) was reached at step 1, before the first different " \
                            "decision was found"
        # the bound counts every step of the reference: 30 steps are not enough to reach step 31 ...
        assert fd.first_decision(scene, port, 25, work=30 * agents, notes=notes) is None
        assert notes[-1] == (f"the work bound ({30 * agents} agent steps) was reached at step 31, before the first "
                             "different decision was found (steps 25..30 agree up to rounding)")
        # ... and 31 are
        assert fd.first_decision(scene, port, 25, work=31 * agents).step == 31
        assert fd.first_decision(scene, port, scene.steps + 1, notes=notes) is None
        assert notes[-1].startswith("no step to check from step 101")
        assert fd.first_decision(scene_of("zero-agents"), port, 1) is None
    finally:
        port.close()
