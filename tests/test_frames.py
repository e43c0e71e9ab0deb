"""Frames (conformance/contract/frames.py, scenarios/frames.json): every non-slow scenario also
runs rotated, translated, mirrored and with its agents reordered, each variant with its own
golden; the variant's doubles are the frame's map of the scenario's, its behaviour bounds hold
against its golden's figures (or the frame changes them, with the reason), and the selection
puts exactly the frame's default list in the default matrix."""

from __future__ import annotations

import json
import math

import pytest

from conformance import cli
from conformance.contract import frames
from conformance.contract.expectations import check_expectations
from conformance.contract.generators import cos_sin_turn
from conformance.contract.scenario import AgentSpec, Scene, load_suite
from conformance.data.goldens import OK, golden_status
from conformance.data.suite import Suite
from conformance.solver import AgentParams
from conftest import ROOT

SUITE = Suite(ROOT)
LOADED = SUITE.load()
FRAMED = [s for s in LOADED.scenarios if s.frame]
FRAMES = frames.read_frames(ROOT / "scenarios" / frames.FRAMES_FILE)
BASE = {s.id: s for s in load_suite(ROOT / "scenarios")}


def test_the_suite_has_framed_variants_and_the_frames_the_issue_asks_for() -> None:
    assert not LOADED.broken
    assert len(FRAMED) >= 300
    by_name = {f.name: f for f in FRAMES}
    assert by_name["rot37"].turn == (37, 360) and by_name["rot45"].turn == (1, 8)
    assert by_name["shift1e4"].shift == (1e4, 1e4) and by_name["shift2p20"].shift == (2.0 ** 20 + 0.1,) * 2
    assert by_name["mirror"].mirror and by_name["reverse"].reverse
    c, s = by_name["rot37"].cos_sin
    assert c * c != 1.0 and c not in (0.0, 0.5) and s not in (0.0, 0.5)  # neither is exact


def test_every_frame_covers_every_non_slow_scenario_but_those_it_skips_with_a_reason() -> None:
    ids = {s.id for s in LOADED.scenarios}
    for frame in FRAMES:
        for base in BASE.values():
            variant = frames.framed_id(base.id, frame.name)
            reason = frame.skipped(base.id)
            assert (variant in ids) == (not base.slow and reason is None), variant
            assert reason is None or reason.strip()


def _agent(x: float, y: float, vx: float, wx: float, wy: float) -> AgentSpec:
    return AgentSpec((x, y), (vx, 0.25), AgentParams(0.5, 1.0, 5.0, 10, 2.0, 2.0), 0.1, ((wx, wy),))


def test_the_transform_is_the_documented_map_in_binary64() -> None:
    scene = Scene(0.1, 3, 0, 0.0, (_agent(1.5, -2.0, 0.75, 3.0, 4.0), _agent(-0.1, 0.3, -1.0, 0.0, -5.0)),
                  ((0.0, 1.0, 2.0, 3.0),))
    frame = frames.Frame("t", "test", mirror=True, turn=(37, 360), shift=(1e4, -3.0), reverse=True)
    c, s = cos_sin_turn(37, 360)
    moved = frames.transform(scene, frame)

    def point(x: float, y: float, shift: bool = True) -> tuple[float, float]:
        x = -x
        x, y = c * x - s * y, s * x + c * y
        return (x + 1e4, y - 3.0) if shift else (x, y)
    assert [a.position for a in moved.agents] == [point(-0.1, 0.3), point(1.5, -2.0)]  # reversed
    assert [a.velocity for a in moved.agents] == [point(-1.0, 0.25, False), point(0.75, 0.25, False)]
    assert moved.agents[1].waypoints == (point(3.0, 4.0),)
    assert moved.segments == (point(0.0, 1.0) + point(2.0, 3.0),)
    assert (moved.dt, moved.steps, moved.seed, moved.magnitude) == (0.1, 3, 0, 0.0)
    assert moved.agents[0].params == scene.agents[1].params
    assert math.copysign(1.0, frames.transform(scene, frames.Frame("m", "m", mirror=True)).segments[0][0]) < 0


def test_a_framed_id_expands_and_names_its_frame(capsys) -> None:
    assert cli.main(["--suite", str(ROOT), "expand", "orca/wall-gap~rot37"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["id"] == "orca/wall-gap~rot37"
    variant = next(s for s in FRAMED if s.id == "orca/wall-gap~rot37")
    assert doc["fingerprint"] == variant.fingerprint != BASE["orca/wall-gap"].fingerprint
    assert variant.frame == "rot37" and frames.split_id(variant.id) == ("orca/wall-gap", "rot37")


def test_the_default_matrix_takes_the_default_frames_and_every_variant_takes_frames_or_all() -> None:
    default = [s for s in SUITE.select(None, False) if s.frame]
    listed = {frames.framed_id(i, f.name) for f in FRAMES for i in f.default}
    assert listed and {s.id for s in default} == listed
    every = SUITE.select(None, False, True)
    assert {s.id for s in every if s.frame} == {s.id for s in FRAMED}
    assert not [s for s in every if s.slow]
    assert {s.id for s in SUITE.select(None, True)} == {s.id for s in LOADED.scenarios}
    exact = SUITE.select(["orca/touching~mirror"], False)
    assert [s.id for s in exact] == ["orca/touching~mirror"]


@pytest.mark.parametrize("scenario", FRAMED, ids=[s.id for s in FRAMED])
def test_every_framed_variant_has_its_golden_and_meets_its_bounds(scenario) -> None:
    status = golden_status(ROOT / "goldens", scenario)
    assert status.kind == OK, status.problem(scenario.id, status.path)
    assert status.golden.figures["states"] == scenario.scene.steps + 1
    assert check_expectations(scenario, status.golden.figures) == []


def test_each_changed_bound_is_one_the_scenario_has_and_one_its_frame_needs() -> None:
    """A frame's ``bounds`` entry names bounds of the scenario's own expect:, gives a reason, and
    is needed: the scenario's own bound fails against the framed golden's figures."""
    changed = [(f, i, dict(entries)) for f in FRAMES for i, entries in f.bounds]
    assert changed
    for frame, scenario_id, entries in changed:
        base = BASE[scenario_id]
        assert entries.pop("why").strip()
        assert set(entries) <= set(base.expect), (frame.name, scenario_id)
        variant = next(s for s in FRAMED if s.id == frames.framed_id(scenario_id, frame.name))
        figures = golden_status(ROOT / "goldens", variant).golden.figures
        own = {k: base.expect[k] for k in entries}
        assert check_expectations(_with_expect(variant, own), figures), (frame.name, scenario_id, own)


def _with_expect(scenario, expect: dict):
    import dataclasses
    return dataclasses.replace(scenario, expect=expect)


def _write_suite(tmp_path, frames_doc: dict) -> Suite:
    (tmp_path / "scenarios" / "orca").mkdir(parents=True)
    source = ROOT / "scenarios" / "orca" / "touching.yaml"
    (tmp_path / "scenarios" / "orca" / "touching.yaml").write_text(source.read_text())
    (tmp_path / "scenarios" / "frames.json").write_text(json.dumps(frames_doc))
    return Suite(tmp_path)


@pytest.mark.parametrize("frame, words", [
    ({"name": "x", "description": "d", "translate": [2097150.0, 0.0]}, "not below 2^21"),
    ({"name": "x", "description": "d", "default": ["orca/nope"]}, "no scenario 'orca/nope'"),
    ({"name": "x", "description": "d", "mirorr": True}, "mirorr"),
])
def test_a_broken_frames_file_is_one_broken_file_naming_the_reason(tmp_path, frame, words) -> None:
    loaded = _write_suite(tmp_path, {"format": "orca-frames/1", "frames": [frame]}).load()
    assert [b.presumed_id for b in loaded.broken] == [frames.FRAMES_ID]
    assert words in str(loaded.broken[0].error)
    assert [s.id for s in loaded.scenarios] == ["orca/touching"]


def test_a_suite_without_a_frames_file_has_no_variants(tmp_path) -> None:
    suite = _write_suite(tmp_path, {"format": "orca-frames/1", "frames": [{"name": "x", "description": "d"}]})
    (tmp_path / "scenarios" / "frames.json").unlink()
    assert [s.id for s in suite.load().scenarios] == ["orca/touching"]
