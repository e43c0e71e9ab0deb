"""Runner lists on the command line: ``--runners A,B`` splits on commas, ``--runner ID`` does not.

An ``exec:`` command may need a comma (``exec:./port --flags=a,b``); ``--runner`` takes it whole.
The real runs below use a command whose comma reaches the port: the C CLI started through
``sh -c``, which refuses to start it unless its first argument arrived as ``a,b``.
"""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest

from conformance import cli
from conformance.runners.build.layer import ToolchainMissing, build
from conftest import ROOT

SCENARIO = "orca/head-on-exact"


@pytest.fixture()
def suite(tmp_path: Path) -> str:
    """A suite of one scenario and its golden, so that scenarios being edited elsewhere do not count."""
    for kind, ext in (("scenarios", "yaml"), ("goldens", "json")):
        (tmp_path / kind / "orca").mkdir(parents=True)
        shutil.copy(ROOT / kind / f"{SCENARIO}.{ext}", tmp_path / kind / f"{SCENARIO}.{ext}")
    return str(tmp_path)


def parse(*argv: str) -> list[str] | None:
    return cli.build_parser().parse_args(["matrix", *argv]).runner_ids


def comma_command(given: str = "a,b") -> str:
    """An ``exec:`` id with commas that runs the C CLI only when ``given`` arrives as ``a,b``."""
    from conformance.runners.cli_port import native_cli
    try:
        port = build(native_cli().spec).path
    except ToolchainMissing as err:
        pytest.skip(f"no C compiler: {err}")
    script = 'test "$0" = a,b || { echo "split: $0" >&2; exit 9; }; exec "$1"'
    return f"exec:sh -c {shlex.quote(script)} {given} {shlex.quote(str(port))}"


def test_runners_split_on_commas_and_runner_takes_one_id_whole() -> None:
    assert parse() is None  # the default columns
    assert parse("--runners", " c, wasm ,,") == ["c", "wasm"]
    assert parse("--runner", "exec:./port --flags=a,b") == ["exec:./port --flags=a,b"]
    # both repeatable, mixed, in the order given
    assert parse("--runners", "c,wasm", "--runner", " exec:./port --x=1,2 ", "--runners", "c:O0",
                 "--runner", "c:cli") == ["c", "wasm", "exec:./port --x=1,2", "c:O0", "c:cli"]


def test_an_empty_runner_id_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(cli.UsageError, match="--runner: empty runner id"):
        parse("--runner", " ")
    assert cli.main(["matrix", "--runner", " "]) == cli.EXIT_BAD_INPUT
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "--runner: empty runner id" in err[0]


@pytest.mark.parametrize("argv, reason", [
    (("--runners", ","), "command line: runners: names no runner"),
    (("--runner", "nope"), "command line: runners: unknown runner 'nope'"),
    # the comma of an exec: command given to --runners splits it: the rest is an unknown id
    (("--runners", "exec:./port --flags=a,b"), "unknown runner 'b'"),
])
def test_bad_runner_lists_are_bad_input(argv: tuple[str, ...], reason: str, suite: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["--suite", suite, "matrix", *argv, "--scenarios", SCENARIO, "--no-vectors", "--no-protocol"])
    assert code == cli.EXIT_BAD_INPUT
    assert reason in capsys.readouterr().err


def test_an_exec_command_with_commas_runs_through_runner(suite: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    command = comma_command()
    code = cli.main(["--suite", suite, "matrix", "--runner", command, "--runners", "reference",
                     "--runner", command, "--scenarios", SCENARIO, "--no-vectors", "--no-protocol"])
    out = capsys.readouterr().out
    assert code == cli.EXIT_OK, out
    header = next(line for line in out.splitlines() if line.startswith("scenario"))
    assert header.split()[1].startswith("exec:sh") and header.rstrip().endswith("reference")
    # the duplicate id is one column: 1 scenario x 2 runners
    assert "matrix: 1 scenario x 2 runners: 2 passed, 0 failed" in out


def test_the_guard_of_the_comma_command_bites() -> None:
    """Without the whole comma the command fails: the test above is not vacuous."""
    from conformance.judge.matrix import ERROR, run_matrix
    from conformance.runners import resolve
    from conformance.contract.scenario import load_scenario
    scenario = load_scenario(ROOT / "scenarios" / "orca" / "head-on-exact.yaml")
    runner = resolve(comma_command("a"))
    try:
        result = run_matrix([scenario], [runner], ROOT / "goldens", with_vectors=False, with_protocol=False)
    finally:
        runner.close()
    cell = result.cells[(scenario.id, runner.id)]
    assert cell.status == ERROR and "port exited (status 9)" in cell.reason
