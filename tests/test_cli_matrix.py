"""`matrix` exit codes and summary: --strict fails on SKIPPED and on a NOT PROVIDED vectors row;
'nothing compared' names its cause."""

from __future__ import annotations

import re

import pytest

from conformance.cli import main
from conformance.runners import register
from conformance.runners.base import RunnerError, RunnerUnavailable
from conformance.runners.reference import ReferenceRunner
from conformance.selftest.controls.careless import AgentsFirstSimulator
from conftest import ROOT



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
    register("test:careless", lambda: ReferenceRunner("test:careless", AgentsFirstSimulator, "careless port"))


def test_strict_fails_on_a_skipped_column(capsys) -> None:
    args = ["--suite", str(ROOT), "matrix", "--runners", "reference,test:unavailable", "--no-vectors", "--no-protocol",
            "--scenarios", "orca/zero-agents"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "SKIPPED  test:unavailable: needs a toolchain" in out
    assert "1 scenario x 2 runners: 1 passed, 0 failed, 1 skipped" in out
    assert main(args + ["--strict"]) == 1
    assert "--strict: 1 skipped cell fail the gate" in capsys.readouterr().out


def test_nothing_compared_names_the_true_cause(capsys) -> None:
    base = ["--suite", str(ROOT), "matrix", "--no-vectors", "--no-protocol", "--scenarios", "orca/zero-agents"]
    assert main(base + ["--runners", "test:broken"]) == 1
    out = capsys.readouterr().out
    assert "nothing was compared: every cell that ran ended in ERROR" in out
    assert main(base + ["--runners", "test:unavailable"]) == 1
    assert "nothing was compared: every runner was skipped" in capsys.readouterr().out


def test_a_port_that_dies_at_start_up_shows_its_stderr(tmp_path, capsys) -> None:
    import sys
    port = tmp_path / "dies.py"
    port.write_text("import sys\nsys.stderr.write('error: libfoo.so.1: cannot open shared object file\\n')\n"
                    "sys.exit(3)\n")
    args = ["--suite", str(ROOT), "matrix", "--runner", f"exec:{sys.executable} {port}", "--scenarios",
            "orca/zero-agents"]
    assert main(args) == 1
    out = capsys.readouterr().out
    assert "libfoo.so.1: cannot open shared object file" in out
    assert "nothing was compared: every cell that ran ended in ERROR" in out


def test_each_finished_column_gets_a_line_off_a_terminal(capsys) -> None:
    args = ["--suite", str(ROOT), "matrix", "--runners", "reference", "--no-vectors", "--no-protocol", "--scenarios",
            "orca/zero-agents"]
    assert main(args) == 0
    assert "column reference: 1 pass (" in capsys.readouterr().err


def test_a_first_run_says_what_it_builds(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("ORCA_CONFORMANCE_CACHE", str(tmp_path / "cache"))
    args = ["--suite", str(ROOT), "matrix", "--runners", "c", "--no-vectors", "--no-protocol", "--scenarios", "orca/zero-agents"]
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "building c (" in err and "built c in " in err
    assert "1 build to make first (not in the build cache, " in err
    assert re.search(r"\n  c  c \(\w+, host, shared\): about \d+ s \(typical\)\n", err), err  # never built here
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "building" not in err and "to make first" not in err  # the second run hits the cache
    for artifact in (tmp_path / "cache").glob("c-*/liborca.so"):
        artifact.unlink()  # as if its sources had changed: built again, and it was built here before
    assert main(args) == 0
    assert re.search(r"\n  c  c \(\w+, host, shared\): about \d+ s \(last time here\)\n", capsys.readouterr().err)


def test_a_port_without_primitives_passes_but_strict_fails_on_its_vectors_row(capsys) -> None:
    """A careless Python port provides no family: its vectors row is NOT PROVIDED, one line, no red
    cell; a normal run passes on it and --strict does not."""
    args = ["--suite", str(ROOT), "matrix", "--runners", "test:careless", "--scenarios", "orca/zero-agents",
            "--no-protocol"]
    assert main(args) == 0
    captured = capsys.readouterr()
    out = captured.out
    assert "vectors           NOT PROVIDED" in out
    assert "NOT PROVIDED vectors [test:careless]: not provided (the port's hello): segment_distance_squared, " in out
    assert "; 0 of 15 families pass" in out and "ERROR" not in out and "unknown family" not in out
    assert "1 scenario x 1 runner: 1 passed, 0 failed, 1 not provided, 0 skipped" in out
    assert "column test:careless: 1 pass, 1 not provided (" in captured.err
    assert main(args + ["--strict"]) == 1
    assert ("matrix: --strict: the vectors row of test:careless is NOT PROVIDED: a gate requires every family"
            in capsys.readouterr().out)
