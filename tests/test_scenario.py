"""Scenario loading: exact expansion, canonical form, and one clear error per bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance import cli
from conformance.errors import InputError
from conformance.contract import schema_files
from conformance.contract.scenario import Scene, canonical_json, load_scenario, load_suite

VALID = """\
id: test/base
description: A valid scene that the bad-input cases below break one key at a time.
dt: 0.1
steps: 5
agent_defaults: {radius: 0.5, max_speed: 1.0}
agents:
  - agent: {position: [0.0, 0.0], waypoints: [[1.0, 0.0]]}
  - circle: {count: 4, radius: 3.0}
obstacles:
  - segment: [[0.0, 2.0], [1.0, 2.0]]
expect:
  max_overlap: 0.1
"""


def write(tmp_path: Path, text: str | bytes, name: str = "test/base.yaml") -> Path:
    path = tmp_path / "scenarios" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def test_valid_scene_expands_to_exact_doubles(tmp_path: Path) -> None:
    s = load_scenario(write(tmp_path, VALID))
    assert len(s.scene.agents) == 5 and len(s.scene.segments) == 1
    # integers in YAML become doubles; the circle's first agent sits on the +x axis
    assert s.scene.agents[1].position == (3.0, 0.0) and s.scene.agents[1].waypoints == ((-3.0, 0.0),)
    data = json.loads(canonical_json(s.expanded()))
    assert data["fingerprint"] == s.fingerprint
    assert Scene.from_json(data["scene"]) == s.scene  # round trip through JSON is exact
    assert s.fingerprint.startswith("sha256:") and len(s.fingerprint) == 71


def test_fingerprint_covers_every_bit(tmp_path: Path) -> None:
    a = load_scenario(write(tmp_path, VALID))
    b = load_scenario(write(tmp_path, VALID.replace("[1.0, 0.0]]}", "[1.0000000000000002, 0.0]]}")))
    c = load_scenario(write(tmp_path, VALID.replace("description: A valid", "description: Another valid")))
    assert a.fingerprint != b.fingerprint
    assert a.fingerprint == c.fingerprint  # descriptions do not affect bits


BAD_CASES = {
    "malformed": (VALID.replace("dt: 0.1", "dt: [0.1"), "", "malformed YAML"),
    "duplicate key": (VALID + "dt: 0.2\n", "dt", "duplicate key"),
    "python tag": (VALID.replace("dt: 0.1", "dt: !!python/object/apply:os.system ['echo pwned']"),
                   "dt", "unsupported"),
    "custom tag": (VALID.replace("steps: 5", "steps: !custom 5"), "steps", "unsupported"),
    "alias bomb": ("a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\n"
                   "c: [*b, *b, *b, *b, *b, *b, *b, *b]\n" + VALID, "", "aliases"),
    "merge key": (VALID.replace("agent_defaults: {radius: 0.5, max_speed: 1.0}",
                                "agent_defaults: {<<: {radius: 0.5}, max_speed: 1.0}"),
                  "agent_defaults", "merge"),
    "unknown key": (VALID.replace("steps: 5", "steps: 5\nstepz: 6"), "", "stepz"),
    "unknown nested key": (VALID.replace("radius: 0.5, max_speed", "radius: 0.5, radiuss: 1, max_speed"),
                           "agent_defaults", "radiuss"),
    "boolean for number": (VALID.replace("dt: 0.1", "dt: yes"), "dt", "not of type 'number'"),
    "string for number": (VALID.replace("steps: 5", "steps: '5'"), "steps", "not of type 'integer'"),
    "list for number": (VALID.replace("radius: 3.0}", "radius: [3.0]}"), "agents[1].circle.radius", "not of type"),
    "float for integer": (VALID.replace("count: 4", "count: 4.5"), "agents[1].circle.count", "not of type 'integer'"),
    "nan": (VALID.replace("dt: 0.1", "dt: .nan"), "dt", "non-finite"),
    "inf": (VALID.replace("[1.0, 0.0]]}", "[.inf, 0.0]]}"), "agents[0].agent.waypoints[0][0]", "non-finite"),
    "negative radius": (VALID.replace("radius: 0.5,", "radius: -0.5,"), "agent_defaults.radius", "less than the minimum of 0"),
    "negative speed": (VALID.replace("max_speed: 1.0", "max_speed: -1.0"), "agent_defaults.max_speed", "less than"),
    "negative max_neighbors": (VALID.replace("max_speed: 1.0}", "max_speed: 1.0, max_neighbors: -1}"),
                               "agent_defaults.max_neighbors", "less than"),
    "zero dt": (VALID.replace("dt: 0.1", "dt: 0"), "dt", "less than or equal to"),
    "negative dt": (VALID.replace("dt: 0.1", "dt: -0.1"), "dt", "less than or equal to"),
    "position at 2^21": (VALID.replace("position: [0.0, 0.0]", "position: [2097152.0, 0.0]"),
                         "agents[0].agent.position", "2^21"),
    "goal beyond 2^21": (VALID.replace("[1.0, 0.0]]}", "[1.0, -3000000.0]]}"), "agents[0].agent.waypoints", "2^21"),
    "segment beyond 2^21": (VALID.replace("[1.0, 2.0]]", "[1.0, 2097152.5]]"), "obstacles[0].segment[1][1]", "2^21"),
    "empty waypoints": (VALID.replace("waypoints: [[1.0, 0.0]]", "waypoints: []"),
                        "agents[0].agent.waypoints", "should be non-empty"),
    "absurd agent count": (VALID.replace("count: 4", "count: 20001"), "agents[1].circle.count", "maximum"),
    "absurd block": (VALID.replace("- circle: {count: 4, radius: 3.0}",
                                   "- block: {origin: [0, 0], columns: 1000, rows: 1000, spacing: [1, 1], goal_offset: [0, 0]}"),
                     "agents[1].block", "more than 20000 agents"),
    "absurd steps": (VALID.replace("steps: 5", "steps: 100000000"), "steps", "maximum"),
    "group with two kinds": (VALID.replace("- circle: {count: 4, radius: 3.0}",
                                           "- circle: {count: 4, radius: 3.0}\n    agent: {position: [0, 0], waypoints: [[1, 1]]}"),
                             "agents[1]", "exactly one of"),
    "top-level list": ("- 1\n- 2\n", "", "mapping at the top level"),
    "empty file": ("", "", "empty"),
    "two documents": (VALID + "---\n" + VALID, "", "malformed YAML"),
    "bad id": (VALID.replace("id: test/base", "id: Test Base"), "id", "does not match"),
    "timestamp": (VALID.replace("description: A valid", "description: 2020-01-01\ncomment: A valid"),
                  "description", "unsupported"),
    # classes that once ended in a traceback, or in more than one line (found by fuzzing)
    "control character": (VALID.replace("dt: 0.1", "dt: 0.1\x07"), "line 3 column 8", "U+0007 is not allowed"),
    "NUL byte": ("\x00" + VALID, "line 1 column 1", "U+0000 is not allowed"),
    "deep flow nesting": ("[" * 100_000, "line 1 column 33", "nested deeper than 32 levels"),
    "deep block nesting": ("".join("  " * i + "a:\n" for i in range(2000)), "line 32", "nested deeper"),
    "agents not a list": (VALID.split("agents:")[0] + "agents: 5\nexpect: {max_overlap: 0.1}\n", "agents",
                          "not of type 'array'"),
    "integer overflowing a double": (VALID.replace("radius: 0.5,", "radius: 1" + "0" * 400 + ","),
                                     "agent_defaults.radius", "beyond 2^53"),
    "integer not exact as a double": (VALID.replace("radius: 0.5,", "radius: 9007199254740993,"),
                                      "agent_defaults.radius", "beyond 2^53"),
    "integer of 5000 digits": (VALID.replace("radius: 0.5,", "radius: 1" + "0" * 5000 + ","),
                               "agent_defaults.radius", "bad scalar"),
    "newline in a key": (VALID.replace("- circle: {count: 4, radius: 3.0}",
                                       '- circle: {count: 4, radius: 3.0}\n    "x\\ny": 1'),
                         "agents[1].x\\ny", "unknown key"),
    "not UTF-8": (b"id: \xff\xfe", "", "not UTF-8"),
    "face_to_face without two agents": (VALID.replace("max_overlap: 0.1", "face_to_face: true"),
                                        "expect.face_to_face", "exactly two agents (this one has 5)"),
}


@pytest.mark.parametrize("name", sorted(BAD_CASES))
def test_bad_input_is_one_clear_error(tmp_path: Path, name: str) -> None:
    text, key_path, reason = BAD_CASES[name]
    path = write(tmp_path, text)
    with pytest.raises(InputError) as info:
        load_scenario(path)
    err = info.value
    print(err)
    assert err.file == str(path)
    assert err.key_path.startswith(key_path), err.key_path
    assert reason in err.reason, err.reason
    assert "\n" not in str(err) and str(err).isprintable() and len(str(err)) < 1000


def test_python_tag_executes_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    text = VALID.replace("dt: 0.1", f"dt: !!python/object/apply:os.system ['touch {marker}']")
    with pytest.raises(InputError):
        load_scenario(write(tmp_path, text))
    assert not marker.exists()


def test_duplicate_ids_across_files(tmp_path: Path) -> None:
    write(tmp_path, VALID, "test/base.yaml")
    write(tmp_path, VALID, "test/copy.yaml")
    with pytest.raises(InputError) as info:
        load_suite(tmp_path / "scenarios")
    assert "duplicate id 'test/base'" in str(info.value) and "copy.yaml" in info.value.file


def test_suite_load_collects_one_error_per_broken_file(tmp_path: Path) -> None:
    from conformance.contract.scenario import ScenarioFileErrors, load_each
    write(tmp_path, VALID, "test/base.yaml")
    write(tmp_path, VALID.replace("dt: 0.1", "dt: -1").replace("test/base", "test/neg"), "test/neg.yaml")
    write(tmp_path, "[" * 1000, "test/deep.yaml")
    loaded = load_each(tmp_path / "scenarios")
    assert [s.id for s in loaded.scenarios] == ["test/base"]
    assert [b.presumed_id for b in loaded.broken] == ["test/deep", "test/neg"]
    with pytest.raises(ScenarioFileErrors) as info:
        load_suite(tmp_path / "scenarios")
    lines = ("error: " + str(info.value)).splitlines()
    assert len(lines) == 2 and "deep.yaml: line 1 column 33: " in lines[0] and "neg.yaml: dt: " in lines[1]
    assert info.value.file.endswith("deep.yaml")  # an InputError like any other, naming the first file


def test_id_must_match_path(tmp_path: Path) -> None:
    write(tmp_path, VALID, "test/other.yaml")
    with pytest.raises(InputError) as info:
        load_suite(tmp_path / "scenarios")
    assert info.value.key_path == "id" and "must match the file path" in info.value.reason


def test_cli_bad_input_exits_2_without_traceback_or_writes(tmp_path: Path, capsys) -> None:
    write(tmp_path, VALID.replace("dt: 0.1", "dt: -1"))
    (tmp_path / "goldens").mkdir()
    code = cli.main(["--suite", str(tmp_path), "goldens", "regen"])
    out, err = capsys.readouterr()
    assert code == 2
    assert err.startswith("error: ") and "base.yaml: dt: " in err and "Traceback" not in err
    assert list((tmp_path / "goldens").iterdir()) == []


def test_every_expanded_scene_follows_the_scene_schema_and_a_broken_one_is_named(repo_suite):
    scenes = [s.scene.to_json() for s in repo_suite.select(None, True)]
    assert len(scenes) > 20
    assert [schema_files.problem("scene", data) for data in scenes] == [None] * len(scenes)
    with pytest.raises(InputError) as err:
        Scene.from_json({**scenes[0], "dt": 0.0}, "request.json")
    assert (err.value.file, err.value.key_path) == ("request.json", "dt")
    request = {"cmd": "run", "scene": {**scenes[0], "agents": [{"position": [0.0, 0.0]}]}, "steps": 1}
    assert schema_files.problem("protocol/run-request", request)[0].startswith("scene.agents[0].")
