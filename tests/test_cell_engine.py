"""The one cell engine: a failing port reads the same, word for word, through the matrix, the
pytest plugin and fuzz, because all three judge a stream of hashes with ``judge_stream``."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from conformance.contract.scenario import load_scenario
from conformance.judge.cell_engine import StreamOutcome, compare_hashes, judge_stream
from conformance.judge.cell_text import cell_lines
from conformance.judge.matrix import DIVERGED, ERROR, PASS, compare_scenario, vector_cell
from conformance.pytest_plugin import OrcaSession
from conformance.runners.base import NoReply, NonFinite, RunnerError
from conformance.runners.build.layer import DETERMINISM_FLAGS, system_cc
from conformance.runners.cffi_runner import CffiRunner, CVariant
from conformance.runners.reference import ReferenceRunner
from conformance.selftest.fuzz.cell import compare as fuzz_compare
from conformance.selftest.fuzz.scenes import FuzzScene
from conformance.selftest.controls.patches import load_patch, patched_tree
from conformance.data.goldens import golden_path, read_golden
from conformance.data.suite import Suite
from conftest import ROOT

GOLDENS = ROOT / "goldens"
REFERENCE = ReferenceRunner()


def _misreading(name: str) -> CffiRunner:
    tree = patched_tree((load_patch(ROOT / "runners" / "c" / "misreadings" / f"{name}.json"),))
    return CffiRunner(CVariant(f"misreading:{name}", system_cc(), DETERMINISM_FLAGS, tree))


def _three_ways(runner, scenario_id: str):
    """The cell of one scenario as the matrix, the pytest plugin and fuzz compute it."""
    scenario = load_scenario(ROOT / "scenarios" / f"{scenario_id}.yaml")
    failure = vector_cell(runner, GOLDENS / "vectors")[1]
    matrix = compare_scenario(scenario, runner, GOLDENS, REFERENCE, failure)
    session = OrcaSession(SimpleNamespace())
    session.suite = Suite(ROOT)
    plugin = session.compare(scenario, runner)  # its vectors row computed on demand
    golden = read_golden(golden_path(GOLDENS, scenario_id)).hashes
    fuzz = fuzz_compare(FuzzScene("fixed", 0, 0, scenario.scene), runner, golden, REFERENCE, lambda: failure)
    return matrix, plugin, fuzz


@pytest.mark.parametrize("name, scenario_id, status", [
    ("horizon-swap", "orca/wall-gap", DIVERGED),            # a misread constraint: diverges
    ("arrive-as-speed-clamp", "orca/degenerate", ERROR),    # a NaN mid-run: an ERROR, diagnosed at its step
])
def test_one_failing_port_reads_the_same_through_matrix_plugin_and_fuzz(name, scenario_id, status) -> None:
    if not (ROOT / "runners" / "c" / "misreadings" / f"{name}.json").exists():
        pytest.skip(f"no misreading {name} in the catalogue")
    runner = _misreading(name)
    try:
        matrix, plugin, fuzz = _three_ways(runner, scenario_id)
    finally:
        runner.close()
    assert matrix.status == status and matrix.diagnosis is not None, (matrix.status, matrix.reason)
    for other in (plugin, fuzz):
        assert (other.status, other.step, other.compared, other.reason) == \
            (matrix.status, matrix.step, matrix.compared, matrix.reason)
    assert cell_lines(plugin) == cell_lines(matrix)
    rename = [line.replace(fuzz.row, matrix.row) for line in cell_lines(fuzz)]
    assert rename == cell_lines(matrix)


class _Stream:
    """A port's hashes, then (optionally) an error; records whether it was closed."""

    def __init__(self, hashes, error: RunnerError | None = None):
        self.hashes, self.error, self.closed = list(hashes), error, False

    def __iter__(self):
        yield from self.hashes
        if self.error is not None:
            raise self.error

    def close(self):
        self.closed = True


@pytest.mark.parametrize("got, error, expected", [
    (["a", "b", "c"], None, StreamOutcome(3, 3)),
    (["a", "x", "c"], None, StreamOutcome(1, 3, diverged=1, reported="x")),
    (["a", "b", "c", "d"], None, StreamOutcome(3, 3, extra=True)),
    (["a", "b"], None, StreamOutcome(2, 3)),
])
def test_the_stream_stops_at_the_first_state_that_is_not_the_expected_one(got, error, expected) -> None:
    stream = _Stream(got, error)
    outcome = compare_hashes(stream, ["a", "b", "c"])
    assert outcome == expected and stream.closed
    assert outcome.passed == (got == ["a", "b", "c"])
    assert outcome.first_difference() == (1 if "x" in got else 3 if len(got) == 4 else None)


def test_an_error_ends_the_stream_with_its_type_kept() -> None:
    stream = _Stream(["a"], NonFinite(1, 0, "velocity.x", "nan"))
    outcome = compare_hashes(stream, ["a", "b"])
    assert isinstance(outcome.error, NonFinite) and outcome.compared == 1 and stream.closed
    assert outcome.first_difference() is None and not outcome.passed


class _Port:
    """A port whose run is given; it cannot dump (so nothing mid-run can be diagnosed)."""

    id = "fake"

    def __init__(self, stream):
        self.stream = stream

    def hashes(self, scene, steps=None):
        return self.stream

    def dump(self, scene, step):
        raise RunnerError("no dumps here")


def test_an_error_that_asking_again_cannot_explain_is_not_diagnosed() -> None:
    scene = load_scenario(ROOT / "scenarios" / "orca" / "head-on-exact.yaml").scene
    cell = judge_stream("orca/head-on-exact", scene, ["a", "b", "c"], _Port(_Stream(["a"], NoReply("no reply"))),
                        REFERENCE, lambda: pytest.fail("the vectors row is not needed without a diagnosis"))
    assert (cell.status, cell.step, cell.diagnosis, cell.reason) == (ERROR, None, None, "no reply")
    cell = judge_stream("orca/head-on-exact", scene, ["a"], _Port(_Stream(["a"])), REFERENCE)
    assert cell.status == PASS and cell.compared == 1


def test_statuses_and_cause_kinds_are_enums_that_report_their_strings() -> None:
    """Typed outcomes, the same report bytes: a member compares, formats and serialises as the
    string the reports always had, and a status read back from a report is its member."""
    import json
    from conformance.judge.outcomes import CauseKind
    from conformance.judge.cell import Cell
    from conformance.judge.outcomes import Status
    assert [s.value for s in Status] == ["PASS", "DIVERGED", "ERROR", "NOT PROVIDED", "SKIPPED"]
    cell = Cell("orca/x", "c", Status.NOT_PROVIDED)
    assert json.loads(json.dumps(cell.to_json()))["status"] == "NOT PROVIDED"
    assert type(cell.to_json()["status"]) is str and type(cell.short()) is str  # plain strings cross processes
    assert Status("DIVERGED") is Status.DIVERGED and f"{Status.ERROR:<8}|" == "ERROR   |"
    assert json.dumps({"kind": CauseKind.ENCODING}) == '{"kind": "hash-encoding"}' and not CauseKind.UNKNOWN


def test_every_traced_call_holds_the_trace_lock(monkeypatch) -> None:
    """One Trace per process and a thread per column: the citation reads a trace only while it
    holds ``TRACE_LOCK`` (before the lock, two columns citing at once could swap their clauses)."""
    import threading
    from conformance.data import vectors
    from conformance.judge import citation
    from conformance.data.shadow import TRACE_LOCK
    calls = []
    real_run = citation._run

    def checked(call):
        calls.append(TRACE_LOCK._is_owned())
        return real_run(call)
    monkeypatch.setattr(citation, "_run", checked)
    family = "preferred_velocity"
    cases = vectors.load_all(GOLDENS / "vectors")[family][:3]
    bad = [0, 1, 2]
    results = [[["f64", "0x7FF8000000000000"]] * 3] * 3  # an answer no case has: every decision is tried
    threads = [threading.Thread(target=citation.cite_vector_cases, args=(family, cases, results, bad))
               for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert calls and all(calls), f"{calls.count(False)} of {len(calls)} traced calls ran without the lock"
