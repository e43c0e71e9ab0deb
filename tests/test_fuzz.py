"""The suite fuzzes itself: scenes, the fuzz loop against the C column, a planted misreading
found and shrunk, scenario files written from shrunk scenes, and the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.selftest.fuzz import campaign as fuzz
from conformance.cli import main
from conformance.selftest.fuzz.scenes import KINDS, make_scene
from conformance.data.goldens import compute_golden, read_golden
from conformance.judge.matrix import DIVERGED
from conformance.contract.scenario import POSITION_LIMIT, load_scenario
from conformance.selftest.fuzz.shrink import complexity, scenario_yaml, yaml_float
from conftest import FAKE_PORT, ROOT

VECTORS = ROOT / "goldens" / "vectors"


def test_a_scene_is_a_function_of_seed_and_index() -> None:
    first = [make_scene(7, i).scene.fingerprint() for i in range(12)]
    again = [make_scene(7, i).scene.fingerprint() for i in range(12)]
    assert first == again
    assert len(set(first)) == 12
    assert make_scene(8, 0).scene.fingerprint() != first[0]
    assert [make_scene(7, i).kind for i in range(len(KINDS))] == list(KINDS)
    # choosing kinds skips indices, it never changes a scene
    indices = fuzz.scene_indices(("far",))
    assert [next(indices) for _ in range(3)] == [4, 4 + len(KINDS), 4 + 2 * len(KINDS)]


def test_every_kind_gives_valid_scenes_that_survive_a_scenario_file(tmp_path: Path) -> None:
    for index in range(3 * len(KINDS)):
        fs = make_scene(3, index)
        scene = fs.scene
        if fs.kind == "contract":  # the schema's boundaries on purpose: zeros, one step, dt up to 10
            assert 1 <= len(scene.agents) <= 10 and 1 <= scene.steps <= 30 and 0 < scene.dt <= 10
        else:
            assert 2 <= len(scene.agents) <= 15 and 15 <= scene.steps <= 60 and 0 < scene.dt <= 1
        for a in scene.agents:
            assert a.params.radius >= 0 and a.params.max_speed >= 0
            assert a.params.radius > 0 or fs.kind == "contract"
            assert all(abs(v) < POSITION_LIMIT for v in (*a.position, *(x for w in a.waypoints for x in w)))
        path = tmp_path / "scenarios" / (fs.id + ".yaml")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(scenario_yaml(scene, fs.id, "a fuzz scene", "", ["header"], {"max_overlap": 1.0}))
        assert load_scenario(path, tmp_path / "scenarios").fingerprint == scene.fingerprint()


def test_yaml_floats_read_back_exactly() -> None:
    for value in (1e-05, -1e-300, 1e+16, 0.1, -0.0, 5e-324, 1048576.0000001):
        text = yaml_float(value)
        assert "e" not in text or "." in text.split("e")[0]


def test_reference_and_c_agree_on_random_scenes() -> None:
    result = fuzz.run_fuzz(["c"], seed=0, count=30, seconds=None, kinds=KINDS, expected=fuzz.Expected(),
                           vector_folder=VECTORS)
    assert not result.skipped, result.skipped
    assert result.findings == [], [fuzz.format_finding(f) for f in result.findings]
    # not vacuous: every scene ran and every state of every scene was compared
    assert result.scenes == 30 and result.passed["c"] == 30
    states = sum(s.steps + 1 for s in (make_scene(0, i).scene for i in range(30 + result.rejected)))
    assert result.compared["c"] == states > 30 * 16


@pytest.mark.parametrize("control, seed", [("obstacles-by-index", 1), ("neighbor-ties-higher-index", 1)])
def test_fuzz_finds_and_shrinks_a_planted_misreading(control: str, seed: int, tmp_path: Path) -> None:
    runner_id = f"control:{control}"
    result = fuzz.run_fuzz([runner_id], seed=seed, count=100, seconds=None, kinds=KINDS, expected=fuzz.Expected(),
                           vector_folder=VECTORS, shrink_to=tmp_path, stop_at_divergence=True)
    finding = next(f for f in result.findings if f.cell.status == DIVERGED)
    diagnosis = finding.cell.diagnosis
    assert diagnosis is not None and diagnosis.state is not None and diagnosis.cause
    assert diagnosis.vector_family is not None  # the first failing primitive, as in a matrix cell
    shrunk = finding.shrunk
    assert shrunk is not None
    assert len(shrunk.scene.agents) <= 3 and shrunk.scene.steps <= 15, shrunk.size()
    assert complexity(shrunk.scene) < complexity(finding.scene.scene)
    yaml_path, golden_path = finding.files
    assert yaml_path == tmp_path / "scenarios" / (finding.scene.id + ".yaml")
    scenario = load_scenario(yaml_path, tmp_path / "scenarios")
    assert scenario.id == finding.scene.id and scenario.fingerprint == shrunk.scene.fingerprint()
    assert runner_id in scenario.comment
    golden = read_golden(golden_path)
    assert golden.fingerprint == scenario.fingerprint
    assert golden.hashes == compute_golden(scenario, tmp_path / "goldens").hashes
    # the reference meets the expect block, and the control still diverges on the written scene
    assert golden.figures["max_overlap"] <= scenario.expect["max_overlap"]
    from conformance.runners import resolve
    runner = resolve(runner_id)
    try:
        assert fuzz.divergence_oracle(runner)(scenario.scene) is not None
    finally:
        runner.close()


def test_report_rows_are_failing_scenes_and_a_summary(tmp_path: Path) -> None:
    code = main(["fuzz", "--runners", "c,control:obstacles-by-index", "--seed", "1", "--count", "4",
                 "--report", str(tmp_path)])
    assert code == 1
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["rows"][-1] == fuzz.SUMMARY_ROW and len(report["rows"]) >= 2
    statuses = {(c["row"], c["runner"]): c["status"] for c in report["cells"]}
    assert statuses[(fuzz.SUMMARY_ROW, "c")] == "PASS"
    assert "DIVERGED" in {s for (row, r), s in statuses.items() if r == "control:obstacles-by-index"}
    assert (tmp_path / "matrix.html").exists() and (tmp_path / "junit.xml").exists()


def test_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fuzz", "--runners", "c", "--count", "3", "--kinds", "grid-ties,far"]) == 0
    out = capsys.readouterr().out
    assert "expected hashes from the reference" in out and "3 scenes" in out and "kinds far,grid-ties" in out
    for bad in (["--time", "10x"], ["--kinds", "nope"], ["--count", "0"], []):
        assert main(["fuzz", *(["--runners", "c"] if bad else []), *bad]) == 2
    assert "names no runner" in capsys.readouterr().err
    assert fuzz.parse_duration("10m") == 600 and fuzz.parse_duration("90s") == 90 and fuzz.parse_duration("2") == 2


def test_a_crashing_port_is_an_error_and_the_run_goes_on() -> None:
    import sys

    from conformance.runners.exec_runner import ExecRunner, Limits
    fake = FAKE_PORT
    limits = Limits(handshake=5.0, reply=5.0, run=20.0, line_bytes=4 * 1024 * 1024)
    crash = ExecRunner("exec:fake-crash", [sys.executable, str(fake), "crash"], limits)
    result = fuzz.run_fuzz([crash, "c"], seed=0, count=2, seconds=None, kinds=KINDS, expected=fuzz.Expected(),
                           vector_folder=VECTORS)
    assert [f.cell.status for f in result.findings] == ["ERROR", "ERROR"]
    assert all(f.cell.runner == "exec:fake-crash" and f.cell.reason for f in result.findings)
    assert result.passed["c"] == 2  # the other column ran every scene
