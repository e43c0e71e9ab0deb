"""`matrix` exit codes and summary: --strict fails on SKIPPED; 'nothing compared' names its cause."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.cli import main
from conformance.runners import register
from conformance.runners.base import RunnerError, RunnerUnavailable
from conformance.runners.reference import ReferenceRunner

ROOT = Path(__file__).resolve().parent.parent


class Unavailable(ReferenceRunner):
    def info(self):
        raise RunnerUnavailable("needs a toolchain this machine lacks (apt-get install nothing-here)")


class Broken(ReferenceRunner):
    def info(self):
        raise RunnerError("the port died at start-up", stderr_tail="boom: missing runtime")


@pytest.fixture(autouse=True)
def fake_columns():
    register("test:unavailable", lambda: Unavailable("test:unavailable"))
    register("test:broken", lambda: Broken("test:broken"))


def test_strict_fails_on_a_skipped_column(capsys) -> None:
    args = ["--suite", str(ROOT), "matrix", "--runners", "reference,test:unavailable", "--no-vectors",
            "--scenarios", "orca/zero-agents"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "SKIPPED  test:unavailable: needs a toolchain" in out
    assert "1 scenario x 2 runners: 1 passed, 0 failed, 1 skipped" in out
    assert main(args + ["--strict"]) == 1
    assert "--strict: 1 skipped cell fail the gate" in capsys.readouterr().out


def test_nothing_compared_names_the_true_cause(capsys) -> None:
    base = ["--suite", str(ROOT), "matrix", "--no-vectors", "--scenarios", "orca/zero-agents"]
    assert main(base + ["--runners", "test:broken"]) == 1
    out = capsys.readouterr().out
    assert "nothing was compared: every cell that ran ended in ERROR" in out
    assert main(base + ["--runners", "test:unavailable"]) == 1
    assert "nothing was compared: every runner was skipped" in capsys.readouterr().out
