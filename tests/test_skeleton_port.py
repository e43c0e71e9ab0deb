"""The skeleton port (runners/skeleton-js) runs as documented and is honest: it passes what it
implements (the state hash, SplitMix64 and U(n)), declares in its hello the families it has
written (so its vectors row is NOT PROVIDED for the rest, not an ERROR per family), and answers
everything else with an error that names the missing family and its checklist step, never with
a wrong value.  A copy of the
folder anywhere else still works: check-vectors.mjs finds the suite without being inside it,
and the TODO messages name the copy's own README."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conformance.data import vectors
from conformance.cli import main
from conformance.judge.matrix import ERROR, NOT_PROVIDED, PASS, PROTOCOL_ROW, VECTORS_ROW, run_matrix
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
    missing = [f.name for f in vectors.FAMILIES if f.name not in IMPLEMENTED]
    assert row.status == NOT_PROVIDED
    assert row.reason == f"not provided (the port's hello): {', '.join(missing)}; 2 of 15 families pass"
    # the protocol row passes: what needs no step is checked, the dumps (they need the driver) are not
    protocol = cells[PROTOCOL_ROW]
    assert protocol.status == PASS, protocol.reason
    assert "dumps: not applicable (the port answers step 1 of orca/overlap-wall with an error" in protocol.reason
    assert "two-runs: PASS: orca/zero-agents, orca/overlap-wall, orca/zero-agents" in protocol.reason
    assert "hello: PASS" in protocol.reason and "unknown-command: PASS" in protocol.reason


def test_the_documented_command_passes_the_scene_without_agents(capsys) -> None:
    args = ["--suite", str(ROOT), "matrix", "--runner", RUNNER_ID, "--no-vectors", "--scenarios", "orca/zero-agents"]
    assert main(args) == 0
    assert "2 passed, 0 failed" in capsys.readouterr().out  # the scene and the protocol row


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
        assert f"node check-vectors.mjs {name}" in text  # run from the copy's own folder


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
                        {"cmd": "hello", "protocol": 3}, {"cmd": "hello", "protocol": 2}, {"cmd": "bye"}])
    names = ["hello-reply", "run-step-reply", "run-step-reply", "run-step-reply", "run-done-reply", "dump-reply",
             "vectors-reply", "error-reply", "error-reply", "hello-reply"]
    assert len(replies) == len(names)
    for reply, name in zip(replies, names):
        validator(f"protocol/{name}").validate(reply)
    assert replies[0]["protocol"] == 1 and "provides" not in replies[0]  # a harness of protocol 1 asks every family
    assert replies[-1]["protocol"] == 2 and set(replies[-1]["provides"]) == IMPLEMENTED
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


def _copy(tmp_path: Path) -> Path:
    """The skeleton copied to a folder outside the suite, as its README tells a new port to do
    (resolved, as Node names its main module by its real path)."""
    copy = tmp_path.resolve() / "my-port"
    shutil.copytree(FOLDER, copy)
    return copy


def _shown(path: Path, cwd: Path) -> str:
    """A path as the port writes it: relative to ``cwd`` when that is shorter, else absolute."""
    relative = os.path.relpath(path, cwd)
    return relative if len(relative) < len(str(path)) else str(path)


def _env_without_suite() -> dict[str, str]:
    """The environment minus ORCA_CONFORMANCE_SUITE, with this interpreter as $PYTHON: the suite
    must be found through the installed package."""
    env = {k: v for k, v in os.environ.items() if k != "ORCA_CONFORMANCE_SUITE"}
    env["PYTHON"] = sys.executable
    return env


def test_check_vectors_works_from_a_copy_outside_the_suite(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    env = _env_without_suite()
    done = subprocess.run(["node", "check-vectors.mjs", "splitmix64", "uniform"], cwd=copy, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines() == ["PASS      splitmix64: 136 cases", "PASS      uniform: 136 cases"]
    done = subprocess.run(["node", "check-vectors.mjs", "relax"], cwd=copy, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 1
    assert "relax is not written yet (step 11 of the checklist in README.md)" in done.stdout


def test_check_vectors_says_in_one_line_when_the_suite_is_not_where_it_was_told(tmp_path: Path) -> None:
    copy = _copy(tmp_path)
    empty = tmp_path / "empty"
    empty.mkdir()
    done = subprocess.run(["node", "check-vectors.mjs", "splitmix64", "--suite", str(empty)], cwd=copy,
                          env=_env_without_suite(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"check-vectors: --suite {empty}: no goldens/vectors folder in it; pass the suite folder "
                           "(the one holding goldens/vectors), or leave --suite out to use the installed suite\n")
    env = _env_without_suite()
    env["ORCA_CONFORMANCE_SUITE"] = str(empty)
    done = subprocess.run(["node", "check-vectors.mjs", "splitmix64"], cwd=copy, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
    assert done.stderr.startswith(f"check-vectors: ORCA_CONFORMANCE_SUITE={empty}: no goldens/vectors folder")
    env = _env_without_suite()
    env["PYTHON"] = str(tmp_path / "no-such-python")
    env["PATH"] = str(tmp_path)  # neither python3 nor python: the installed package cannot be asked
    done = subprocess.run([shutil.which("node"), "check-vectors.mjs", "splitmix64"], cwd=copy, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, done.stderr
    assert "no-such-python: not found; python: not found" in done.stderr
    assert "install the suite" in done.stderr and "--suite DIR" in done.stderr


def test_a_copy_names_its_own_readme_in_the_matrix(tmp_path: Path, monkeypatch) -> None:
    copy = _copy(tmp_path)
    # From the suite's folder (usually written absolute, the shorter there) and from the copy's parent
    # (written my-port/README.md); ExecRunner starts the port in the current folder.
    for cwd in (ROOT, tmp_path.resolve()):
        monkeypatch.chdir(cwd)
        runner_id = f"exec:node {copy / 'port.mjs'}"
        result = run_matrix([scenario("head-on-exact")], [runner_id], ROOT / "goldens", with_vectors=False, with_protocol=False)
        reason = result.cells[("orca/head-on-exact", runner_id)].reason
        assert (f"preferred_velocity is not written yet (step 14 of the checklist in "
                f"{_shown(copy / 'README.md', cwd)})") in reason
        assert "runners/skeleton-js" not in reason


def test_the_readme_commands_run_from_the_copy(tmp_path: Path, monkeypatch, capsys) -> None:
    copy = _copy(tmp_path)
    monkeypatch.chdir(copy)
    monkeypatch.delenv("ORCA_CONFORMANCE_SUITE", raising=False)
    assert main(["matrix", "--runner", "exec:node port.mjs", "--no-vectors", "--scenarios", "orca/zero-agents"]) == 0
    assert "2 passed, 0 failed" in capsys.readouterr().out  # the scene and the protocol row
