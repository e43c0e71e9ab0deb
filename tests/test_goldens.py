"""Goldens: regen writes atomically and reports changes; check catches every kind of drift."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from conformance import cli, jsonfile

from conformance.data import goldens
from conformance.errors import InputError

SCENE = """\
id: t/pair
description: Two agents pass each other.
dt: 0.1
steps: {steps}
perturbation: {{seed: 3, magnitude: 0.0001}}
agents:
  - agent: {{position: [-2.0, 0.0], waypoints: [[2.0, 0.0]]}}
  - agent: {{position: [2.0, 0.0], waypoints: [[-2.0, 0.0]]}}
expect:
  max_overlap: 0.1
"""


@pytest.fixture()
def suite(tmp_path: Path) -> Path:
    (tmp_path / "scenarios" / "t").mkdir(parents=True)
    (tmp_path / "scenarios" / "t" / "pair.yaml").write_text(SCENE.format(steps=30))
    (tmp_path / "goldens").mkdir()
    return tmp_path


def run_cli(suite: Path, *args: str) -> int:
    return cli.main(["--suite", str(suite), *args])


def golden_file(suite: Path) -> Path:
    return suite / "goldens" / "t" / "pair.json"


def test_regen_then_check_passes(suite: Path, capsys) -> None:
    assert run_cli(suite, "goldens", "regen") == 0
    assert "new" in capsys.readouterr().out
    data = json.loads(golden_file(suite).read_text())
    assert data["steps"] == 30 and len(data["hashes"]) == 31
    assert run_cli(suite, "goldens", "check") == 0
    assert "31 states compared" in capsys.readouterr().out
    assert run_cli(suite, "goldens", "regen") == 0
    assert "unchanged" in capsys.readouterr().out
    assert run_cli(suite, "check") == 0


def test_regen_reports_first_differing_step(suite: Path, capsys) -> None:
    run_cli(suite, "goldens", "regen")
    text = SCENE.format(steps=30).replace("waypoints: [[2.0, 0.0]]", "waypoints: [[2.0, 0.5]]")
    assert text != SCENE.format(steps=30)
    (suite / "scenarios" / "t" / "pair.yaml").write_text(text)
    capsys.readouterr()
    assert run_cli(suite, "goldens", "check") == 1
    assert "STALE" in capsys.readouterr().out
    run_cli(suite, "goldens", "regen")
    out = capsys.readouterr().out
    assert "changed (first differing step 1)" in out


def test_check_catches_a_tampered_hash(suite: Path, capsys) -> None:
    run_cli(suite, "goldens", "regen")
    path = golden_file(suite)
    data = json.loads(path.read_text())
    data["hashes"][17] = "0" * 64
    path.write_text(json.dumps(data))
    capsys.readouterr()
    assert run_cli(suite, "goldens", "check") == 1
    assert "MISMATCH  t/pair: first differing step 17" in capsys.readouterr().out


def test_missing_and_orphan_goldens(suite: Path, capsys) -> None:
    assert run_cli(suite, "goldens", "check") == 1
    assert "MISSING" in capsys.readouterr().out
    assert run_cli(suite, "check") == 1
    assert "no golden" in capsys.readouterr().out
    run_cli(suite, "goldens", "regen")
    orphan = suite / "goldens" / "t" / "gone.json"
    orphan.write_text(golden_file(suite).read_text())
    capsys.readouterr()
    assert run_cli(suite, "goldens", "check") == 1
    assert "ORPHAN" in capsys.readouterr().out
    assert run_cli(suite, "check") == 1
    assert "orphan golden" in capsys.readouterr().out


def test_write_is_atomic(suite: Path, monkeypatch) -> None:
    run_cli(suite, "goldens", "regen")
    before = golden_file(suite).read_bytes()

    def explode(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(jsonfile.os, "replace", explode)
    golden = goldens.read_golden(golden_file(suite))
    changed = goldens.Golden(golden.id, golden.fingerprint, golden.steps,
                             ("1" * 64,) + golden.hashes[1:], golden.figures, golden.path)
    with pytest.raises(OSError):
        goldens.write_golden(changed, golden_file(suite))
    assert golden_file(suite).read_bytes() == before
    assert [p.name for p in golden_file(suite).parent.iterdir()] == ["pair.json"]


@pytest.mark.parametrize("mutate, key", [
    (lambda d: d.pop("hashes"), "hashes"),
    (lambda d: d.update(format="orca-golden/0"), "format"),
    (lambda d: d["hashes"].pop(), "hashes"),
    (lambda d: d["hashes"].__setitem__(3, "XYZ"), "hashes[3]"),
    (lambda d: d.update(steps=True), "steps"),
])
def test_malformed_golden_is_a_clear_error(suite: Path, mutate, key: str) -> None:
    run_cli(suite, "goldens", "regen")
    path = golden_file(suite)
    data = json.loads(path.read_text())
    mutate(data)
    path.write_text(json.dumps(data))
    with pytest.raises(InputError) as info:
        goldens.read_golden(path)
    assert info.value.key_path == key and info.value.file == str(path)


def test_goldens_check_with_nothing_to_compare_fails(tmp_path: Path) -> None:
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "goldens").mkdir()
    assert cli.main(["--suite", str(tmp_path), "goldens", "check"]) == 1


def test_no_temporary_files_are_left(suite: Path) -> None:
    run_cli(suite, "goldens", "regen")
    leftovers = [p for p in (suite / "goldens").rglob("*") if p.name.startswith(".tmp")]
    assert leftovers == [] and os.listdir(suite / "goldens" / "t") == ["pair.json"]


def test_one_decision_for_missing_stale_and_foreign_goldens(suite: Path, capsys) -> None:
    """goldens.golden_status decides for check, goldens check and the matrix alike."""
    from conformance.judge.matrix import ERROR, compare_scenario
    from conformance.runners.reference import ReferenceRunner
    from conformance.contract.scenario import load_suite
    scenario = next(s for s in load_suite(suite / "scenarios") if s.id == "t/pair")
    folder = suite / "goldens"
    assert goldens.golden_status(folder, scenario).kind == goldens.MISSING
    run_cli(suite, "goldens", "regen")
    fresh = goldens.golden_status(folder, scenario)
    assert fresh.kind == goldens.OK and fresh.golden.id == "t/pair"
    data = json.loads(golden_file(suite).read_text())
    data["fingerprint"] = "sha256:" + "0" * 64
    golden_file(suite).write_text(json.dumps(data))
    stale = goldens.golden_status(folder, scenario)
    assert stale.kind == goldens.STALE and "golden is stale" in stale.problem("t/pair", stale.path)
    cell = compare_scenario(scenario, ReferenceRunner(), folder, ReferenceRunner(), None)
    assert cell.status == ERROR and "golden is stale" in cell.reason
    capsys.readouterr()
    assert run_cli(suite, "check") == 1 and "FAIL t/pair: golden is stale" in capsys.readouterr().out
    assert run_cli(suite, "goldens", "check") == 1 and "STALE     t/pair: golden is stale" in capsys.readouterr().out
    data["id"] = "t/other"
    golden_file(suite).write_text(json.dumps(data))
    assert goldens.golden_status(folder, scenario).kind == goldens.WRONG_ID
