"""Bad input is one line and exit 2, before any work: where a command writes (``--report``,
``--out``, ``--shrink-to``), the program of an ``exec:`` port, a misspelt option of any command.

Every case here runs with the work itself replaced by a tripwire (``no_work``): the matrix,
the fuzz run and the build layer fail the test if they are reached, so each check is shown to
happen before the first build or cell, not after minutes of it.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

from conformance import cli
from conformance.cli import build_parser
from conformance.runners import port_build as build_command
from conftest import ROOT

SMALL = ["--scenarios", "orca/zero-agents"]


class WorkStarted(AssertionError):
    """The command went on to its work although its input was bad."""


@pytest.fixture()
def no_work(monkeypatch):
    """The matrix, the fuzz run and every build raise WorkStarted."""
    import conformance.judge.matrix as matrix
    import conformance.selftest.fuzz.command as fuzz_run

    def tripwire(*args, **kwargs):
        raise WorkStarted("the work started")
    monkeypatch.setattr(matrix, "run_matrix", tripwire)
    monkeypatch.setattr(fuzz_run, "fuzz_runners", tripwire)
    monkeypatch.setattr(build_command, "build", tripwire)


def one_error(argv: list[str], capsys) -> str:
    """Runs the command; asserts exit 2, nothing on stdout, one ``error:`` line on stderr and
    no traceback; returns that line."""
    code = cli.main(argv)
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert code == cli.EXIT_BAD_INPUT, out + err
    assert out == "", out
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err
    return lines[0]


def matrix(*argv: str) -> list[str]:
    return ["--suite", str(ROOT), "matrix", "--runners", "reference", *SMALL, *argv]


def test_a_report_that_names_a_file_is_bad_input_before_the_run(tmp_path: Path, capsys, no_work) -> None:
    (tmp_path / "report.txt").write_text("x")
    line = one_error(matrix("--report", str(tmp_path / "report.txt")), capsys)
    assert line == f"error: command line: --report: {str(tmp_path / 'report.txt')!r} is a file, not a folder"
    line = one_error(matrix("--report", str(tmp_path / "report.txt" / "r")), capsys)
    assert "--report: cannot make" in line and "is a file" in line


def _unwritable(tmp_path: Path) -> Path:
    """A folder this process cannot write in: a read-only one, or, for root (whom mode bits do
    not stop), /sys, where nobody can make a file."""
    if os.geteuid() != 0:
        folder = tmp_path / "locked"
        folder.mkdir()
        folder.chmod(0o555)
        return folder
    try:
        handle, name = tempfile.mkstemp(dir="/sys")
    except OSError:
        return Path("/sys")
    os.close(handle)
    os.unlink(name)
    pytest.skip("no folder here that root cannot write in")


def test_a_report_in_an_unwritable_folder_is_bad_input_before_the_run(tmp_path: Path, capsys, no_work) -> None:
    folder = _unwritable(tmp_path)
    line = one_error(matrix("--report", str(folder / "report")), capsys)
    assert line.startswith(f"error: command line: --report: cannot write in {str(folder)!r}: "), line
    assert not (folder / "report").exists()


def test_a_good_report_folder_is_neither_made_nor_littered_by_the_check(tmp_path: Path, capsys, no_work) -> None:
    """The check passes and the run is reached (the tripwire); nothing is left behind."""
    with pytest.raises(WorkStarted):
        cli.main(matrix("--report", str(tmp_path / "new" / "report")))
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command, program, reason", [
    ("./no-such-port", "./no-such-port", "no such file"),
    ("no-such-program-orca --flag", "no-such-program-orca", "not found on PATH"),
    ("./not-executable", "./not-executable", "not executable (chmod +x ./not-executable)"),
    ("./a-folder", "./a-folder", "is a folder, not a program"),
    ("./port 'unclosed", "command", "cannot split the command as a shell would: No closing quotation"),
])
def test_a_port_that_cannot_start_is_one_line_not_a_cell_a_row(command: str, program: str, reason: str,
                                                                 tmp_path: Path, monkeypatch, capsys,
                                                                 no_work) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "not-executable").write_text("#!/bin/sh\n")
    (tmp_path / "a-folder").mkdir()
    line = one_error(["--suite", str(ROOT), "matrix", "--runner", f"exec:{command}"], capsys)
    assert line == f"error: exec:{command}: {program}: {reason}"


def test_a_bare_name_of_a_file_here_suggests_its_path(tmp_path: Path, monkeypatch, capsys, no_work) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "orca-port").write_text("#!/bin/sh\n")
    (tmp_path / "orca-port").chmod(0o755)
    line = one_error(["--suite", str(ROOT), "fuzz", "--runner", "exec:orca-port"], capsys)
    assert line == "error: exec:orca-port: orca-port: not found on PATH; did you mean './orca-port'?"


def test_a_port_that_starts_is_no_bad_input(tmp_path: Path, capsys, no_work) -> None:
    """A program that exists passes the check (what it then does is the matrix's to judge)."""
    with pytest.raises(WorkStarted):
        cli.main(["--suite", str(ROOT), "matrix", "--runner", f"exec:{sys.executable} -c pass", *SMALL])


def test_a_port_that_dies_at_its_hello_is_one_error_entry_for_its_column(tmp_path: Path, capsys) -> None:
    port = tmp_path / "dies.py"
    port.write_text("import sys\nsys.stderr.write('boom: no runtime\\n')\nsys.exit(3)\n")
    runner = f"exec:{sys.executable} {port}"
    assert cli.main(["--suite", str(ROOT), "matrix", "--runner", runner, *SMALL]) == cli.EXIT_FAILED
    out = capsys.readouterr().out
    entries = [line for line in out.splitlines() if line.startswith("ERROR ")]
    assert entries == [f"ERROR    every row (3 cells) [{runner}]: port exited (status 3) during hello"], out
    assert "stderr: boom: no runtime" in out
    assert "0 passed, 3 failed" in out


def _long_options() -> list[tuple[str, str]]:
    """(command as typed, long option) for every option of every subcommand."""
    found = []

    def walk(parser, words: list[str]) -> None:
        for action in parser._actions:
            if hasattr(action, "choices") and isinstance(action.choices, dict):
                for name, sub in action.choices.items():
                    walk(sub, words + [name])
        found.extend((" ".join(words), o) for a in parser._actions for o in a.option_strings
                     if o.startswith("--") and o != "--help" and words)
    walk(build_parser(), [])
    return found


def _misspelt(option: str) -> str:
    """The option with two of its letters swapped (``--runners`` as ``--runnres``)."""
    word = option[2:]
    i = len(word) // 2
    swapped = word[:i - 1] + word[i] + word[i - 1] + word[i + 1:] if word[i] != word[i - 1] else word + "x"
    return "--" + swapped


@pytest.mark.parametrize("command, option", _long_options())
def test_a_misspelt_option_of_any_command_names_the_nearest(command: str, option: str, capsys, no_work) -> None:
    typo = _misspelt(option)
    line = one_error(command.split() + [typo], capsys)
    assert line.startswith(f"error: orca-conformance {command}: unknown option {typo!r}; did you mean '--"), line
    suggested = line.split("did you mean ")[1].strip("'?")
    assert suggested == option, line


def test_the_user_report_cases_read_as_documented(capsys, no_work) -> None:
    line = one_error(["matrix", "--runnres", "c"], capsys)
    assert line == "error: orca-conformance matrix: unknown option '--runnres'; did you mean '--runners'?"
    # no abbreviations: a prefix of an option is not silently that option
    line = one_error(["matrix", "--rep", "r"], capsys)
    assert line == "error: orca-conformance matrix: unknown option '--rep'; did you mean '--report'?"
    line = one_error(["build", "c:cli"], capsys)
    assert line.startswith("error: orca-conformance build: the following arguments are required: --out")
    # an option before the command: its own misspelling, not "unknown command" for its value
    line = one_error(["--suit", str(ROOT), "matrix"], capsys)
    assert line == "error: orca-conformance: unknown option '--suit'; did you mean '--suite'?"
    line = one_error(["matrix", "surplus"], capsys)
    assert line.startswith("error: orca-conformance matrix: unexpected argument 'surplus'")


@pytest.mark.parametrize("argv, option", [
    (["merge", "a.json", "--out", "{file}"], "--out"),
    (["render", "orca/zero-agents", "--out", "{folder}"], "--out"),
    (["fuzz", "--runners", "reference", "--report", "{file}"], "--report"),
    (["fuzz", "--runners", "reference", "--shrink-to", "{file}/found"], "--shrink-to"),
    (["build", "c:cli", "--out", "{file}/orca-port"], "--out"),
])
def test_every_output_path_is_checked_before_the_work(argv: list[str], option: str, tmp_path: Path, capsys,
                                                      no_work) -> None:
    (tmp_path / "file").write_text("x")
    (tmp_path / "folder.svg").mkdir()
    given = [a.format(file=tmp_path / "file", folder=tmp_path / "folder.svg") for a in argv]
    line = one_error(["--suite", str(ROOT), *given], capsys)
    assert line.startswith(f"error: command line: {option}: "), line


def test_only_a_column_red_in_every_row_for_one_reason_is_told_once() -> None:
    """The same ERROR in every row is one entry, ``every row``; the same ERROR beside a PASS is one
    entry that lists its cells."""
    from conformance.judge.cell import ERROR, PASS, Cell
    from conformance.judge.cell_text import format_table
    from conformance.judge.matrix import MatrixResult
    rows = ["vectors", "protocol", "orca/zero-agents"]
    result = MatrixResult(rows, ["dead", "half"])
    for row in rows:
        result.cells[(row, "dead")] = Cell(row, "dead", ERROR, reason="port exited (status 3) during hello")
        result.cells[(row, "half")] = Cell(row, "half", PASS if row == "vectors" else ERROR, reason="TODO: step")
    entries = [line for line in format_table(result).splitlines() if line.startswith("ERROR ")]
    assert entries == ["ERROR    every row (3 cells) [dead]: port exited (status 3) during hello",
                       "ERROR    2 cells [half]: TODO: step"]  # one cause, one entry, its cells listed


@pytest.mark.parametrize("broken", ["golden", "vectors"])
def test_a_malformed_golden_or_vector_file_the_run_reads_is_bad_input_before_it(broken: str, tmp_path: Path,
                                                                                capsys, no_work) -> None:
    for kind in ("scenarios", "goldens"):
        shutil.copytree(ROOT / kind, tmp_path / kind)
    target = tmp_path / "goldens" / ("orca/zero-agents.json" if broken == "golden" else "vectors/relax.json")
    target.write_text("{bad")
    line = one_error(["--suite", str(tmp_path), "matrix", "--runners", "reference", *SMALL], capsys)
    assert line.startswith(f"error: {target}: line 1 column 2: malformed JSON"), line
    if broken == "vectors":  # a run that reads no vectors does not need them
        with pytest.raises(WorkStarted):
            cli.main(["--suite", str(tmp_path), "matrix", "--runners", "reference", "--no-vectors", *SMALL])
