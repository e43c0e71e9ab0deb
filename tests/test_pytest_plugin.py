"""The pytest plugin: the hash matrix as test items, run in child pytest processes (pytester)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conformance.contract.clauses import clause_map

from conformance.runners.build.layer import cache_root

from conftest import ROOT

pytest_plugins = ["pytester"]

CACHE = cache_root()
"""Taken before pytester points HOME at its temporary folder, so the C builds stay cached."""

HEAD_ON = ["--orca-suite=" + str(ROOT), "--orca-scenarios", "orca/head-on-exact", "--orca-scenarios", "orca/head-on-perturbed"]

FAKE_RUNNERS = '''
import math

from conformance.runners import register
from conformance.runners.base import RunnerError, RunnerUnavailable, StateDump
from conformance.runners.reference import ReferenceRunner


class Broken(ReferenceRunner):
    """A solver off by one ulp in agent 0's velocity.x from step 3 on."""

    def __init__(self, runner_id="broken"):
        super().__init__(runner_id, name="broken (test)")

    def hashes(self, scene, steps=None):
        for step, digest in enumerate(super().hashes(scene, steps)):
            yield "0" * 64 if step == 3 else digest

    def dump(self, scene, step):
        dump = super().dump(scene, step)
        if step < 3:
            return dump
        rows = [list(row) for row in dump.agents]
        rows[0][2] = math.nextafter(rows[0][2], math.inf)
        return StateDump(step, tuple(tuple(row) for row in rows))


class WrongVectors(Broken):
    """Broken, and wrong on the first case of the relax family."""

    def __init__(self):
        super().__init__("wrongvec")

    def vectors(self, family, args):
        results = super().vectors(family, args)
        if family == "relax":
            results[0] = ["7ff0000000000000" for _ in results[0]]
        return results


class Gone(ReferenceRunner):
    def __init__(self):
        super().__init__("gone")

    def info(self):
        raise RunnerUnavailable("no such engine on this machine")


class Crashing(ReferenceRunner):
    def __init__(self):
        super().__init__("crashing")

    def hashes(self, scene, steps=None):
        yield from ()
        raise RunnerError("port crashed (signal 11)", "segfault in orca_step")


register("broken", Broken)
register("wrongvec", WrongVectors)
register("gone", Gone)
register("crashing", Crashing)
'''


PLUGIN = ("-p", "conformance.pytest_plugin", "-p", "no:cacheprovider")
"""Loaded by name with autoloading off: the child runs see no other installed plugin, and the
pytest11 entry point (once installed) cannot load the plugin a second time."""


@pytest.fixture(autouse=True)
def isolated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    monkeypatch.setenv("ORCA_CONFORMANCE_CACHE", str(CACHE))
    monkeypatch.delenv("ORCA_CONFORMANCE_SUITE", raising=False)


@pytest.fixture
def run(pytester: pytest.Pytester):
    pytester.makeconftest(FAKE_RUNNERS)

    def run(*args: str) -> pytest.RunResult:
        return pytester.runpytest_subprocess(*PLUGIN, *args, timeout=120)

    return run


def test_without_orca_options_the_plugin_adds_nothing(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_plain="def test_plain():\n    assert True\n")
    result = pytester.runpytest_subprocess(*PLUGIN, "-v")
    result.assert_outcomes(passed=1)
    assert "orca-conformance" not in result.stdout.str()


def test_the_c_column_passes_with_readable_ids(run) -> None:
    result = run("--orca-runners", "c", *HEAD_ON, "-v", "-m", "orca")
    result.assert_outcomes(passed=4)
    out = result.stdout.str()
    for row in ("vectors", "protocol", "orca/head-on-exact", "orca/head-on-perturbed"):
        assert f"orca-conformance::{row}[c] PASSED" in out
    assert result.ret == pytest.ExitCode.OK


RED_RUN = ("--orca-runners", "c,broken,gone,crashing,wrongvec", *HEAD_ON, "-k", "not (vectors and wrongvec)",
           "-rfs", "-vv")
EXPECTED = dict(passed=6, failed=9, skipped=4, deselected=1)
"""c: 4 passed; broken: vectors passed, protocol and 2 scenes diverged; gone: 4 skipped; crashing:
vectors passed, protocol and 2 scenes errors; wrongvec: protocol and 2 scenes diverged (its vectors
row deselected)."""

DIAGNOSIS = ("DIVERGED: step 3; agent 0, velocity.x, 0x3FF0000000000000 vs 0x3FF0000000000001, 1 ulp; "
             "step composition is wrong: from the reference's state of step 2 the port's agent_step gives agent 0 "
             "the reference's 1 constraint (0 from obstacles) and new velocity, but its step gives agent 0 another "
             "velocity: the step does not compose them as the text does (agents updated in place, one after the "
             "other, instead of every new velocity from the start-of-step state; or another time step, preferred "
             "velocity or parameter fed to the step); breaks " + clause_map().cite("step.phases")
             + "; see also step.start-state")
"""broken's primitives are the reference's (agent_step included), so its step is what is wrong."""


def failure_text(out: str, item: str) -> str:
    return out.split(f"_ {item} _")[1].split("\n_")[0].split("\n=")[0]


def check_red_cells(result: pytest.RunResult, xdist: bool = False) -> None:
    expected = dict(EXPECTED)
    if xdist:  # the workers deselect; the controller's summary does not count them
        del expected["deselected"]
    result.assert_outcomes(**expected)
    out = result.stdout.str()
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    # head-on-exact: agent 0 moves at exactly 1.0 along x; the failure is the diagnosis alone
    assert DIAGNOSIS in failure_text(out, "orca/head-on-exact[broken]")
    assert "DIVERGED: step 3; agent 0, velocity.x" in failure_text(out, "orca/head-on-perturbed[broken]")
    assert "first failing primitive" not in failure_text(out, "orca/head-on-exact[broken]")
    assert ("ERROR: port crashed (signal 11) | stderr: segfault in orca_step"
            in failure_text(out, "orca/head-on-exact[crashing]"))
    assert "runner gone unavailable: no such engine on this machine" in out
    # the vectors row of wrongvec did not run before (deselected): the item runs it to name the primitive
    wrong = failure_text(out, "orca/head-on-exact[wrongvec]")
    assert DIAGNOSIS in wrong and "first failing primitive" not in wrong  # the vectors row's case stays there
    # no traceback through the plugin
    failures = out.split("= FAILURES =")[1].split("short test summary info")[0]
    assert "Traceback" not in failures and "CellFailed" not in failures and "pytest_plugin.py" not in failures
    # the first line, which the short summary shows, is the headline: step, agent, field, cause, clause
    assert ("FAILED orca-conformance::orca/head-on-exact[broken] - DIVERGED orca/head-on-exact [broken]: step 3, "
            "agent 0 velocity.x: every primitive agrees but the step does not") in out
    head = [line for line in failure_text(out, "orca/head-on-exact[broken]").splitlines()
            if line.strip("_ ") and not line.startswith("[gw")]  # xdist names the worker first
    assert head[0].endswith("(breaks step.phases)") and head[3].startswith("DIVERGED: step 3"), head


def test_red_cells_fail_with_the_diagnosis_and_unavailable_runners_skip(run) -> None:
    check_red_cells(run(*RED_RUN))


def test_bad_options_are_a_one_line_collection_error(pytester: pytest.Pytester) -> None:
    # a child pytest, never in process: an inner session toggles faulthandler's signal handlers,
    # which unhooks wasmtime's trap handler in this process (a later wasm trap is then SIGILL)
    def run(*args: str) -> pytest.RunResult:
        return pytester.runpytest_subprocess(*PLUGIN, *args, timeout=120)

    result = run("--orca-runners", "c,nope", *HEAD_ON)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*ERROR collecting orca-conformance*",
                                 "orca-conformance: --orca-runners: unknown runner 'nope'; known: *"])
    result = run("--orca-runners", "c", "--orca-suite=" + str(ROOT), "--orca-scenarios", "orca/nothing-*")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    assert "no scenario matches 'orca/nothing-*'" in result.stdout.str()


def test_orca_runner_takes_an_exec_command_with_commas_whole(run) -> None:
    import shlex

    from conformance.runners.build.layer import ToolchainMissing, build
    from conformance.runners.cli_port import native_cli
    try:
        port = build(native_cli().spec).path
    except ToolchainMissing as err:
        pytest.skip(f"no C compiler: {err}")
    # the C CLI, started only when the comma of "a,b" reached the command whole
    script = 'test "$0" = a,b || exit 9; exec "$1"'
    command = f"exec:sh -c {shlex.quote(script)} a,b {shlex.quote(str(port))}"
    result = run("--orca-runners", "c", "--orca-runner", command, *HEAD_ON, "-v", "-m", "orca",
                 "-k", "not vectors")  # the scenario rows are enough to show the command ran
    result.assert_outcomes(passed=6, deselected=2)
    out = result.stdout.str()
    assert f"orca-conformance::orca/head-on-exact[{command}] PASSED" in out
    assert f"orca-conformance::protocol[{command}] PASSED" in out  # its hello, in a process of its own, too
    assert out.index("[c] PASSED") < out.index(f"[{command}] PASSED")  # columns in the order given


@pytest.mark.parametrize("args, line", [
    (("--orca-runners", "c", "--orca-runner", "nope,c"),
     "orca-conformance: --orca-runner: unknown runner 'nope,c'; known: *"),
    (("--orca-runner", "exec: "), "orca-conformance: --orca-runner: exec: needs a command, e.g. exec:./my-port"),
    (("--orca-runner", " "), "orca-conformance: --orca-runner: empty runner id"),
    (("--orca-runners", "c,control:nope"), "orca-conformance: --orca-runners: unknown control 'nope'; known: *"),
])
def test_runner_ids_are_checked_as_the_matrix_command_checks_them(run, args, line) -> None:
    result = run(*args, *HEAD_ON)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines([line])


def test_a_control_column_is_collected(run) -> None:
    from conformance.selftest.controls.catalogue import CONTROLS
    column = f"control:{CONTROLS[0].name}"
    result = run("--orca-runner", column, *HEAD_ON, "--collect-only", "-q")
    assert result.ret == pytest.ExitCode.OK
    assert f"orca-conformance::orca/head-on-exact[{column}]" in result.stdout.str()


def test_a_vectors_row_not_provided_skips_with_the_reason(run) -> None:
    """A port that provides no primitive family (the exec fake's wrapper mode, a wrapped library;
    the careless Python ports now answer agent_step): its vectors item is skipped, naming the
    families (the plugin has no strict mode), and its scenario items run as usual."""
    import shlex
    import sys
    wrapper = (f"exec:{shlex.quote(sys.executable)} "
               f"{shlex.quote(str(ROOT / 'tests' / 'fake_ports' / 'fake_port.py'))} wrapper")
    result = run("--orca-runner", wrapper, "--orca-suite=" + str(ROOT),
                 "--orca-scenarios", "orca/zero-agents", "-rs", "-k", "not protocol")
    result.assert_outcomes(passed=1, skipped=1, deselected=1)
    result.stdout.fnmatch_lines(["SKIPPED * not provided (the port's hello): segment_distance_squared, *"
                                 "; 0 of 15 families pass"])  # every family, agent_step too
    assert "agent_step" in result.stdout.str()


@pytest.mark.heavy  # the plugin's own run on xdist workers (.ci/run's heavy stage)
def test_under_xdist_each_worker_makes_its_own_runners(run) -> None:
    try:
        import xdist  # noqa: F401
    except ImportError:
        pytest.skip("pytest-xdist is not installed (pip install pytest-xdist)")
    check_red_cells(run("-p", "xdist", "-n", "2", *RED_RUN), xdist=True)


def outcomes(junit: Path) -> dict[str, tuple[str, str]]:
    """Each test case of a JUnit file: its outcome and the first line of its message."""
    found = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        verdict = next((child for child in case if child.tag in ("failure", "error", "skipped")), None)
        message = (verdict.get("message") or "").splitlines()[0] if verdict is not None else ""
        found[f"{case.get('classname')}::{case.get('name')}"] = (verdict.tag if verdict is not None else "passed",
                                                                  message)
    return found


@pytest.mark.heavy  # the plugin's own run on xdist workers (.ci/run's heavy stage)
def test_xdist_gives_every_item_the_outcome_of_a_serial_run(run, pytester: pytest.Pytester) -> None:
    """The same selection run serially and on two workers: item for item, the same outcome and the
    same headline (red cells, skipped columns and errors included), not only the same counts."""
    try:
        import xdist  # noqa: F401
    except ImportError:
        pytest.skip("pytest-xdist is not installed (pip install pytest-xdist)")
    serial = pytester.path / "serial.xml"
    parallel = pytester.path / "parallel.xml"
    run(*RED_RUN, f"--junitxml={serial}")
    run("-p", "xdist", "-n", "2", *RED_RUN, f"--junitxml={parallel}")
    alone, split = outcomes(serial), outcomes(parallel)
    assert len(alone) == sum(EXPECTED.values()) - EXPECTED["deselected"]
    assert {outcome for outcome, _ in alone.values()} == {"passed", "failure", "skipped"}
    assert split == alone
