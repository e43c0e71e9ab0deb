"""The scene schema's boundaries are in data: the two schemas accept the same values, every
boundary value of every field is held by a scenario or argued, and a value the text gives no
meaning is one clear error in both."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pytest

from conformance.contract.scenario import Scene, load_scenario, parse_scenario
from conformance.data import schema_coverage as coverage
from conformance.errors import InputError
from conftest import ROOT

COMMITTED = coverage.coverage_path(ROOT)


def test_the_committed_schema_coverage_is_fresh_and_has_no_open_boundary(repo_suite) -> None:
    problems = coverage.check_committed(COMMITTED, repo_suite.files(True))
    assert not problems, "\n".join(problems)


def test_the_boundaries_of_the_brief_are_derived_from_the_scene_schema() -> None:
    keys = {b.key for b in coverage.boundaries()}
    for field in ("radius", "goal_radius", "max_neighbors", "neighbor_distance", "max_speed"):
        assert (f"agents[].{field}", "zero") in keys, field
    assert {("agents[].velocity", "zero"), ("agents[].velocity", "nonzero"), ("agents[].waypoints", "single"),
            ("agents[].waypoints", "most"), ("segments", "empty"), ("segments", "many"), ("agents", "empty"),
            ("dt", "above-minimum"), ("perturbation.seed", "maximum")} <= keys


def test_a_boundary_without_data_or_argument_fails(repo_suite, tmp_path: Path) -> None:
    data = json.loads(COMMITTED.read_text(encoding="utf-8"))
    argued = next(e for e in data["boundaries"] if e["status"] == "ARGUED")
    argued["argued"] = ""
    path = tmp_path / "schema-coverage.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    problems = coverage.check_committed(path, repo_suite.files(True))
    assert any(f"{argued['field']} {argued['boundary']} " in p and "no scenario holds it" in p for p in problems)
    # every scene with a goal radius of 0 gone: its boundary is open, and the file is stale
    others = [s for s in repo_suite.files(True) if all(a.goal_radius != 0 for a in s.scene.agents)]
    assert len(others) < len(repo_suite.files(True))  # schema-zero-goal-radius at least
    problems = coverage.check_committed(COMMITTED, others)
    assert any(p.startswith("agents[].goal_radius zero (0): no scenario holds it") for p in problems), problems
    assert any(p.startswith("agents[].goal_radius zero: the committed entry is not the live one") for p in problems)


def test_the_seed_counts_only_where_the_perturbation_draws() -> None:
    seed = next(b for b in coverage.boundaries() if b.key == ("perturbation.seed", "zero"))
    scene = {"perturbation": {"seed": 0, "magnitude": 0.0}}
    assert not coverage.holds(seed, scene)
    assert coverage.holds(seed, {"perturbation": {"seed": 0, "magnitude": 1e-4}})


def test_the_two_schemas_agree_field_by_field() -> None:
    assert coverage.schema_differences() == []
    paired = {theirs for _, theirs in coverage.SAME_FIELDS}
    fields = {b.field for b in coverage.boundaries()}
    assert fields - paired == set(coverage.UNPAIRED), "a scene field with no scenario twin and no reason"
    # a block's agents visit its via points, then their own goal: at most as many waypoints as one agent
    scenario, scene = coverage.scenario_schema(), coverage.scene_schema()
    via = coverage.schema_at(scenario, "agents[].block.via")
    assert via["maxItems"] + 1 == coverage.schema_at(scene, "agents[].waypoints")["maxItems"]


def test_a_changed_constraint_is_a_difference(monkeypatch) -> None:
    scene = copy.deepcopy(coverage.scene_schema())
    scene["properties"]["agents"]["items"]["properties"]["radius"] = {"type": "number", "exclusiveMinimum": 0}
    monkeypatch.setattr(coverage, "scene_schema", lambda: scene)
    assert coverage.schema_differences() == [
        "agent_defaults.radius / agents[].radius: exclusiveMinimum: scenario None, scene 0",
        "agent_defaults.radius / agents[].radius: minimum: scenario 0, scene None"]


BASE = {"id": "test/base", "description": "x", "dt": 0.125, "steps": 5,
        "perturbation": {"seed": 1, "magnitude": 0.0},
        "agent_defaults": {}, "agents": [{"agent": {"position": [0.0, 0.0], "waypoints": [[1.0, 0.0]]}}],
        "expect": {"max_overlap": 0.1}}

NO_MEANING = [  # (scenario key path, scene key path, value)
    ("agent_defaults.radius", "agents.0.radius", -0.5),
    ("agent_defaults.max_speed", "agents.0.max_speed", -1.0),
    ("agent_defaults.neighbor_distance", "agents.0.neighbor_distance", -1.0),
    ("agent_defaults.max_neighbors", "agents.0.max_neighbors", -1),
    ("agent_defaults.max_neighbors", "agents.0.max_neighbors", 1001),
    ("agent_defaults.time_horizon", "agents.0.time_horizon", 0.0),
    ("agent_defaults.time_horizon_obst", "agents.0.time_horizon_obst", 0.0),
    ("agent_defaults.goal_radius", "agents.0.goal_radius", -0.1),
    ("dt", "dt", 0.0),
    ("dt", "dt", 10.5),
    ("steps", "steps", 0),
    ("steps", "steps", 100001),
    ("perturbation.seed", "perturbation.seed", -1),
    ("perturbation.seed", "perturbation.seed", 2 ** 53),
    ("perturbation.magnitude", "perturbation.magnitude", 1.5),
    ("agents.0.agent.waypoints", "agents.0.waypoints", [[1.0, 0.0]] * 1001),
]


def _set(data: dict, path: str, value) -> dict:
    data = copy.deepcopy(data)
    *head, last = [int(p) if p.isdigit() else p for p in path.split(".")]
    node = data
    for part in head:
        node = node[part]
    node[last] = value
    return data


def _key(path: str) -> str:
    return ".".join(f"[{p}]" if p.isdigit() else p for p in path.split(".")).replace(".[", "[")


@pytest.mark.parametrize("ours, theirs, value", NO_MEANING, ids=[f"{t}={v!r}"[:40] for _, t, v in NO_MEANING])
def test_a_value_without_meaning_is_one_clear_error_in_both_schemas(ours: str, theirs: str, value) -> None:
    with pytest.raises(InputError) as err:
        parse_scenario(_set(BASE, ours, value), "scenarios/test/base.yaml")
    assert (err.value.file, err.value.key_path) == ("scenarios/test/base.yaml", _key(ours)), str(err.value)
    scene = parse_scenario(BASE, "base.yaml").scene.to_json()
    with pytest.raises(InputError) as err:
        Scene.from_json(_set(scene, theirs, value), "request.json")
    assert (err.value.file, err.value.key_path) == ("request.json", _key(theirs)), str(err.value)
    assert "\n" not in str(err.value)


def test_a_nan_is_one_clear_error_in_both(tmp_path: Path) -> None:
    scene = parse_scenario(BASE, "base.yaml").scene.to_json()
    with pytest.raises(InputError) as err:
        Scene.from_json(_set(scene, "agents.0.radius", math.nan), "request.json")
    assert (err.value.key_path, err.value.reason) == ("agents[0].radius", "nan is not a finite number")
    path = tmp_path / "base.yaml"
    path.write_text(json.dumps(BASE).replace('"agent_defaults": {}', '"agent_defaults": {"radius": .nan}'))
    with pytest.raises(InputError) as err:
        load_scenario(path)
    assert err.value.key_path == "agent_defaults.radius" and "non-finite" in err.value.reason, str(err.value)


def test_the_zeros_the_text_gives_a_meaning_load_in_both() -> None:
    zeros = {"radius": 0.0, "max_speed": 0.0, "neighbor_distance": 0.0, "max_neighbors": 0, "goal_radius": 0.0}
    scenario = parse_scenario(_set(BASE, "agent_defaults", zeros), "base.yaml")
    agent = scenario.scene.agents[0]
    assert (agent.params.radius, agent.params.max_neighbors, agent.goal_radius) == (0.0, 0, 0.0)
    assert Scene.from_json(scenario.scene.to_json()) == scenario.scene
