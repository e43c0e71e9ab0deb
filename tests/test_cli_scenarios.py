"""Scenario authors at the command line: expect: bounds are checked by `check` and `goldens
regen`, and a broken scenario file blocks only the commands that need it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conformance import cli

PAIR = """\
id: t/{name}
description: Two agents pass each other.
dt: 0.1
steps: 30
perturbation: {{seed: 3, magnitude: 0.0001}}
agents:
  - agent: {{position: [-2.0, 0.0], waypoints: [[2.0, 0.0]]}}
  - agent: {{position: [2.0, 0.0], waypoints: [[-2.0, 0.0]]}}
expect:
  {expect}
"""


def scenario(suite: Path, name: str, expect: str = "max_overlap: 0.1", text: str | None = None) -> Path:
    path = suite / "scenarios" / "t" / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text if text is not None else PAIR.format(name=name, expect=expect))
    return path


@pytest.fixture()
def suite(tmp_path: Path) -> Path:
    scenario(tmp_path, "pair")
    (tmp_path / "goldens").mkdir()
    return tmp_path


def run(suite: Path, *args: str) -> int:
    return cli.main(["--suite", str(suite), *args])


def test_regen_refuses_a_golden_whose_figures_break_its_own_expect(suite: Path, capsys) -> None:
    scenario(suite, "hurry", "arrival_within: 3")  # 4 m at 1 m/s cannot take 3 steps of 0.1 s
    assert run(suite, "goldens", "regen", "t/*") == 1
    out = capsys.readouterr().out
    assert ("REFUSED    t/hurry: expect.arrival_within: only 0 of 2 agents arrived (and stayed) by the "
            "last step; bound: every agent by step 3; golden not written (scenarios/t/hurry.yaml") in out
    assert "new        t/pair" in out and "1 written, 1 refused" in out
    assert not (suite / "goldens" / "t" / "hurry.json").exists()
    assert (suite / "goldens" / "t" / "pair.json").exists()


def test_regen_refuses_when_only_the_bound_was_tightened(suite: Path, capsys) -> None:
    assert run(suite, "goldens", "regen", "t/pair") == 0
    before = (suite / "goldens" / "t" / "pair.json").read_bytes()
    scenario(suite, "pair", "max_overlap: 0.1\n  fallback_used: true")  # same scene, same fingerprint
    capsys.readouterr()
    assert run(suite, "goldens", "regen", "t/pair") == 1
    assert "REFUSED    t/pair: expect.fallback_used: the fallback never ran" in capsys.readouterr().out
    assert (suite / "goldens" / "t" / "pair.json").read_bytes() == before


def test_check_reports_every_violated_bound_from_the_committed_figures(suite: Path, capsys) -> None:
    assert run(suite, "goldens", "regen", "t/pair") == 0
    golden = suite / "goldens" / "t" / "pair.json"
    data = json.loads(golden.read_text())
    data["figures"]["max_overlap"] = 0.25  # as if the reference had measured it: no simulation runs
    data["figures"]["max_overlap_step"] = 12
    golden.write_text(json.dumps(data))
    scenario(suite, "pair", "max_overlap: 0.1\n  hard_fallback_used: true")
    capsys.readouterr()
    assert run(suite, "check") == 1
    out = capsys.readouterr().out
    assert "FAIL t/pair: expect.max_overlap: the reference measures 0.25 (at step 12), above the bound 0.1" in out
    assert "FAIL t/pair: expect.hard_fallback_used: the hard-prefix fallback never ran" in out
    assert out.count("FAIL t/pair: ") == 2  # (the other FAIL lines: this suite has no vector files)


def test_check_lists_every_broken_file_and_still_lints_the_rest(suite: Path, capsys) -> None:
    scenario(suite, "ctrl", text=PAIR.format(name="ctrl", expect="max_overlap: 0.1").replace("dt: 0.1", "dt: 0.1\x07"))
    scenario(suite, "deep", text="[" * 100_000)
    scenario(suite, "wrong-id", text=PAIR.format(name="pair", expect="max_overlap: 0.1"))
    (suite / "goldens" / "t").mkdir()
    (suite / "goldens" / "t" / "deep.json").write_text("{}")  # the golden of a broken file is no orphan
    assert run(suite, "check") == 2
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(lines) == 3 and all(line.startswith("error: ") for line in lines), err
    assert "ctrl.yaml: line 3 column 8: malformed YAML: character U+0007 is not allowed" in lines[0]
    assert "deep.yaml: line 1 column 33: malformed YAML: nested deeper than 32 levels" in lines[1]
    assert "wrong-id.yaml: id: duplicate id 't/pair'" in lines[2]
    assert "FAIL t/pair: no golden" in out and "orphan" not in out
    assert re.search(r"^check: 1 scenario, \d+ problems, 3 broken files$", out, re.M), out
    assert "Traceback" not in err


def test_a_broken_file_blocks_only_the_commands_that_need_it(suite: Path, capsys) -> None:
    assert run(suite, "goldens", "regen", "t/pair") == 0
    broken = PAIR.format(name="broken", expect="max_overlap: 0.1").replace("steps: 30", "steps: -1")
    scenario(suite, "broken", text=broken)
    scenario(suite, "also-broken", text="agents: 5\n")
    capsys.readouterr()
    # commands about another scenario go on, with one warning line per broken file
    assert run(suite, "matrix", "--runners", "reference", "--no-vectors", "--no-protocol", "--scenarios", "t/p*") == 0
    out, err = capsys.readouterr()
    assert "1 passed" in out
    assert err.count("warning: skipping a broken scenario file: ") == 2 and "broken.yaml: steps: " in err
    assert run(suite, "expand", "t/pair") == 0
    capsys.readouterr()
    # a command that names the broken scenario fails with its one-line error
    assert run(suite, "matrix", "--runners", "reference", "--no-vectors", "--no-protocol", "--scenarios", "t/broken") == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "broken.yaml: steps: -1 is less than the minimum of 1" in err
    assert len(err.splitlines()) == 1
    # a command that needs every scenario fails with the whole list, one line each, and writes nothing
    before = sorted(p.name for p in (suite / "goldens" / "t").iterdir())
    assert run(suite, "goldens", "regen") == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all(line.startswith("error: ") for line in err), err
    assert "also-broken.yaml: id: missing (required)" in err[0] and "broken.yaml: steps: " in err[1]
    assert sorted(p.name for p in (suite / "goldens" / "t").iterdir()) == before
