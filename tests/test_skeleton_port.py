"""The skeleton port (runners/skeleton-js) runs as documented and is honest: it passes what it
implements (the state hash, SplitMix64 and U(n)) and answers everything else with an error
that names the missing family and its checklist step, never with a wrong value."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from conformance.data import vectors
from conformance.cli import main
from conformance.judge.matrix import ERROR, PASS, VECTORS_ROW, run_matrix
from conformance.runners.base import RunnerError
from conformance.runners.exec_runner import ExecRunner
from conformance.contract.scenario import load_scenario
from conformance.contract.schema_files import validator
from conftest import ROOT

FOLDER = ROOT / "runners" / "skeleton-js"
RUNNER_ID = f"exec:node {FOLDER / 'port.mjs'}"
IMPLEMENTED = {"splitmix64", "uniform"}

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (the skeleton is a Node.js port)")


def scenario(name: str):
    return load_scenario(ROOT / "scenarios" / "orca" / f"{name}.yaml")


def test_the_matrix_shows_what_is_written_and_what_is_todo() -> None:
    result = run_matrix([scenario("zero-agents"), scenario("head-on-exact")], [RUNNER_ID], ROOT / "goldens")
    cells = {row: result.cells[(row, RUNNER_ID)] for row in result.rows}
    assert cells["orca/zero-agents"].status == PASS
    head_on = cells["orca/head-on-exact"]
    assert head_on.status == ERROR and head_on.compared == 1  # state 0 matched: scene read and hashed exactly
    assert head_on.reason.startswith("port reported an error during run (step 1): TODO(skeleton-js): "
                                     "preferred_velocity is not written yet (step 14 of the checklist")
    row = cells[VECTORS_ROW]
    assert row.status == ERROR
    assert "(segment_distance_squared): TODO(skeleton-js): segment_distance_squared is not written yet (step 3" in row.reason


def test_the_documented_command_passes_the_scene_without_agents(capsys) -> None:
    args = ["--suite", str(ROOT), "matrix", "--runner", RUNNER_ID, "--no-vectors", "--scenarios", "orca/zero-agents"]
    assert main(args) == 0
    assert "1 passed, 0 failed" in capsys.readouterr().out


def test_every_family_of_the_suite_passes_or_names_what_is_missing() -> None:
    runner = ExecRunner(RUNNER_ID, ["node", str(FOLDER / "port.mjs")])
    folder = ROOT / "goldens" / "vectors"
    try:
        for family in vectors.FAMILIES:
            cases = vectors.read_vectors(vectors.vector_path(folder, family.name))[1]
            if family.name in IMPLEMENTED:
                assert vectors.compare(cases, runner.vectors(family.name, [c["args"] for c in cases])) == []
                continue
            with pytest.raises(RunnerError) as caught:
                runner.vectors(family.name, [c["args"] for c in cases])
            reason = caught.value.reason
            assert (f"TODO(skeleton-js): {family.name} is not written yet" in reason
                    or f'vector family "{family.name}" is not known to this port' in reason), reason
    finally:
        runner.close()


def test_the_checklist_names_every_family_in_the_order_the_suite_asks_them() -> None:
    text = (FOLDER / "README.md").read_text(encoding="utf-8")
    steps = [name for name in (f.name for f in vectors.FAMILIES) if name not in IMPLEMENTED]
    positions = [text.index(f"**`{name}`**") for name in steps]
    assert positions == sorted(positions)
    for name in steps:
        assert f"node runners/skeleton-js/check-vectors.mjs {name}" in text


def _session(lines: list[dict]) -> list[dict]:
    done = subprocess.run(["node", str(FOLDER / "port.mjs")], input="".join(json.dumps(m) + "\n" for m in lines),
                          capture_output=True, text=True, timeout=60, check=True)
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_replies_match_the_protocol_schemas() -> None:
    scene = scenario("zero-agents").scene.to_json()
    replies = _session([{"cmd": "hello", "protocol": 1}, {"cmd": "run", "scene": scene, "steps": 2},
                        {"cmd": "dump", "scene": scene, "step": 1},
                        {"cmd": "vectors", "family": "uniform", "cases": [[0, 0]]},
                        {"cmd": "vectors", "family": "relax", "cases": [[[], 0, "3ff0000000000000", 0]]},
                        {"cmd": "hello", "protocol": 2}, {"cmd": "bye"}])
    names = ["hello-reply", "run-step-reply", "run-step-reply", "run-step-reply", "run-done-reply", "dump-reply",
             "vectors-reply", "error-reply", "error-reply"]
    assert len(replies) == len(names)
    for reply, name in zip(replies, names):
        validator(f"protocol/{name}").validate(reply)
    assert replies[1]["hash"] == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"


def test_check_vectors_passes_written_families_and_shows_the_rest(tmp_path: Path) -> None:
    script = FOLDER / "check-vectors.mjs"
    done = subprocess.run(["node", str(script), "splitmix64", "uniform"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("PASS      splitmix64: ")
    done = subprocess.run(["node", str(script), "relax"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "TODO(skeleton-js): relax is not written yet" in done.stdout
    wrong = tmp_path / "wrong.mjs"  # a port whose U(n) is always zero: the first differing case is shown
    wrong.write_text(
        'import { createInterface } from "node:readline";\n'
        'createInterface({ input: process.stdin }).on("line", (line) => {\n'
        '  const r = JSON.parse(line);\n'
        '  if (r.cmd === "hello") console.log(JSON.stringify({ protocol: 1, port: { name: "wrong" } }));\n'
        '  else if (r.cmd === "vectors") console.log(JSON.stringify({ results: r.cases.map(() => ["0000000000000000"]) }));\n'
        '  else process.exit(0);\n'
        '});\n')
    done = subprocess.run(["node", str(script), "uniform", "--port", f"node {wrong}"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1 and done.stdout.startswith("DIVERGED  uniform: ") and "first case 0" in done.stdout
    done = subprocess.run(["node", str(script), "no_such_family"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "no vector family" in done.stderr
