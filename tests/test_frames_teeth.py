"""The frames have teeth: the C port with one fused multiply-add at the agent case form's side
test (tests/c_variants/fma-side-test.json: fma(a.x, w.y, -(a.y*w.x)) for cross(a, w)) passes
every untransformed scene, whose crosses on the axes are exact, and fails a framed one: rotated
by an eighth of a turn, an axis-aligned pair lies on a diagonal whose two coordinates are the
same bits, so the unfused cross of collinear vectors is an exact 0 (the right leg) while the
fused one is the rounding error of a product, of either sign.  Also: fuzz's frames (a frame per
scene, the same for the same seed and index) and shrinking through a frame, which keeps it."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.contract.frames import Frame, transform
from conformance.contract.scenario import AgentSpec, Scene
from conformance.data.goldens import OK, golden_status
from conformance.data.suite import Suite
from conformance.runners.build.layer import DETERMINISM_FLAGS, system_cc
from conformance.runners.cffi_runner import CffiRunner, CVariant
from conformance.selftest.fuzz import frames as fuzz_frames
from conformance.selftest.fuzz.scenes import make_scene
from conformance.selftest.controls.patches import load_patch, patched_tree
from conformance.solver import AgentParams
from conftest import ROOT

PLANTED = ROOT / "tests" / "c_variants" / "fma-side-test.json"
CAUGHT_BY = ("orca/equal-distance-ties~rot45", "orca/equal-distance-ties~rot45-shift100")
"""The framed variants on which the fused side test diverges (rot45-shift100 in the default matrix)."""


def first_difference(runner, scenario) -> int | None:
    status = golden_status(ROOT / "goldens", scenario)
    assert status.kind == OK
    for step, got in enumerate(runner.hashes(scenario.scene)):
        if got != status.golden.hashes[step]:
            return step
    return None


@pytest.fixture(scope="module")
def fused():
    if system_cc() is None:
        pytest.skip("no C compiler")
    tree = patched_tree((load_patch(PLANTED),))
    assert "fma(a.x, w.y, -(a.y * w.x))" in (Path(tree) / "solver" / "obstacle.h").read_text()
    runner = CffiRunner(CVariant("c-variant:fma-side-test", system_cc(), DETERMINISM_FLAGS + ("-O2",), tree))
    yield runner
    runner.close()


def test_the_fused_side_test_passes_every_untransformed_scene(fused) -> None:
    scenarios = [s for s in Suite(ROOT).select(None, False) if not s.frame]
    assert len(scenarios) >= 50
    assert {s.id: first_difference(fused, s) for s in scenarios} == {s.id: None for s in scenarios}


def test_the_fused_side_test_fails_a_framed_scene_of_the_default_matrix(fused) -> None:
    suite = Suite(ROOT)
    default = {s.id for s in suite.select(None, False)}
    assert CAUGHT_BY[1] in default
    for scenario_id in CAUGHT_BY:
        assert first_difference(fused, suite.scenario(scenario_id)) is not None, scenario_id


def test_fuzz_frames_are_a_function_of_the_seed_and_index_and_fit_the_coordinate_limit() -> None:
    names = set()
    for index in range(40):
        fs = make_scene(3, index)
        frame = fuzz_frames.scene_frame(3, index, fs.scene)
        assert frame == fuzz_frames.scene_frame(3, index, fs.scene)
        moved = fuzz_frames.framed(fs, frame)
        assert moved.id == f"{fs.id}~{frame.name}" and moved.base is fs.scene
        assert fuzz_frames.extent(moved.scene) < 2.0 ** 21
        assert frame.turn is not None and frame.turn[0] * 4 % frame.turn[1]
        names.add(frame.name)
    assert len(names) > 20  # turns, shifts, mirrors and reversals vary


def _pair() -> Scene:
    params = AgentParams(0.5, 1.0, 5.0, 10, 2.0, 2.0)
    agents = tuple(AgentSpec((x, 0.0), (0.0, 0.0), params, 0.1, ((-x, 0.0),)) for x in (-3.0, 3.0, 7.0))
    return Scene(0.1, 20, 0, 0.0, agents, ((0.0, 5.0, 1.0, 5.0),))


def test_shrinking_a_framed_finding_keeps_the_frame_while_it_still_fails() -> None:
    """An oracle that fails only in the mirror (agent 0 right of agent 1): the shrunk scene is the
    framed one, smaller than the start, still failing, and its base passes without the frame."""
    def diverges(scene: Scene) -> int | None:
        a = scene.agents
        return 1 if len(a) >= 2 and a[0].position[0] > a[1].position[0] else None
    frame = Frame("mirror", "mirror", mirror=True)
    fs = fuzz_frames.FramedScene("walls", 0, 0, transform(_pair(), frame), frame, _pair())
    assert diverges(fs.scene) == 1 and diverges(fs.base) is None
    small, without = fuzz_frames.shrink_framed(fs, 1, diverges, 10.0)
    assert diverges(small.scene) is not None and not without
    assert len(small.scene.agents) == 2 and not small.scene.segments
    base = transform(small.scene, frame)  # the mirror is its own inverse
    assert diverges(base) is None and base.agents[0].position[0] < base.agents[1].position[0]
