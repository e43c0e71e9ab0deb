"""One story across rows: what the protocol row found (state that leaks between runs, a dump
that disagrees with a run) reaches a column's scenario cells as a typed record, and a cause
judged from the port's runs and dumps says it first; a cause the port's own primitives give
keeps its words and gets a note."""

from __future__ import annotations

import sys

import pytest

from conformance.contract.scenario import load_scenario
from conformance.judge import matrix as matrix_module
from conformance.judge.causes import CONSTRAINTS, ENCODING
from conformance.judge.cell import Cell
from conformance.judge.cell_engine import judge_stream
from conformance.judge.cell_text import format_table
from conformance.judge.matrix import DIVERGED, PASS, PROTOCOL_ROW, run_matrix
from conformance.judge.protocol_finding import PROTOCOL, ProtocolFinding, Slip, say_first
from conformance.judge.cause_record import Cause
from conformance.judge.diagnosis import Diagnosis
from conformance.runners.exec_runner import ExecRunner, Limits
from conformance.runners.reference import ReferenceRunner
from conftest import ROOT

PORT = ROOT / "tests" / "fake_ports" / "protocol_port.py"
GOLDENS = ROOT / "goldens"
LIMITS = Limits(handshake=15.0, reply=10.0, run=60.0)
OPAQUE = ProtocolFinding(Slip.LEAK, "two-runs", "words the engine must not read")


def _scenario(name: str):
    return load_scenario(ROOT / "scenarios" / "orca" / f"{name}.yaml")


class WrongHashAtOne(ReferenceRunner):
    """Dumps the reference's states but reports another hash of state 1: the cell alone blames the encoding."""

    def hashes(self, scene, steps=None):
        for k, digest in enumerate(super().hashes(scene, steps)):
            yield digest if k != 1 else "0" * 64


def test_a_leaky_port_s_scenario_cells_name_the_leak_first() -> None:
    runner = ExecRunner("exec:protocol-leak", [sys.executable, str(PORT), "leak"], LIMITS)
    scenarios = [_scenario("overlap-wall"), _scenario("lone-agent")]
    result = run_matrix(scenarios, [runner], GOLDENS, with_vectors=False)
    row = result.cells[(PROTOCOL_ROW, runner.id)]
    assert row.status == DIVERGED and row.finding is not None and row.finding.slip is Slip.LEAK
    red = [c for c in result.cells.values() if c.row not in (PROTOCOL_ROW,) and c.status == DIVERGED]
    assert red, "the leak makes a scenario cell red (it runs after another scene in one process)"
    for cell in red:
        d = cell.diagnosis
        assert d.kind == PROTOCOL and d.protocol == row.finding
        assert d.headline.startswith("the port keeps state from one run into the next")
        assert "the state hash encoding is wrong" in d.headline  # what the cell alone reads, after
        assert not d.key.startswith("the state hash encoding")
    text = format_table(result)
    assert "the port keeps state from one run into the next" in text.split("DIVERGED orca/")[1]


def test_the_finding_reaches_the_cell_as_a_typed_record_not_as_words(monkeypatch) -> None:
    """The matrix hands the protocol row's ``finding`` to the engine: a row whose words say
    nothing of a leak, with a typed LEAK finding, still leads its scenario cells with the leak."""
    def quiet_row(runner):
        return Cell(PROTOCOL_ROW, runner.id, PASS, reason="nothing in these words", finding=OPAQUE)
    monkeypatch.setattr(matrix_module, "protocol_cell", quiet_row)
    result = run_matrix([_scenario("lone-agent")], [WrongHashAtOne("wrong-hash")], GOLDENS, with_vectors=False)
    d = result.cells[("orca/lone-agent", "wrong-hash")].diagnosis
    assert d is not None and d.protocol is OPAQUE and d.kind == PROTOCOL
    assert "words the engine must not read" in d.cause  # shown, and the headline is the slip's own
    assert "words the engine" not in d.headline


@pytest.mark.parametrize("protocol", [None, OPAQUE, lambda: OPAQUE, lambda: None])
def test_the_engine_takes_a_finding_or_a_function_giving_it(protocol) -> None:
    scenario = _scenario("lone-agent")
    expected = list(ReferenceRunner().hashes(scenario.scene))
    asked = []

    def vector_failure():
        asked.append(1)
        return None
    cell = judge_stream(scenario.id, scenario.scene, expected, WrongHashAtOne("w"), ReferenceRunner(),
                        vector_failure, protocol=protocol)
    given = protocol() if callable(protocol) else protocol
    assert cell.status == DIVERGED and asked == [1]
    assert cell.diagnosis.kind == (PROTOCOL if given is not None else ENCODING)
    assert cell.diagnosis.protocol is given


def test_a_cause_from_the_port_s_own_primitives_keeps_its_words() -> None:
    d = Diagnosis(3, found=Cause(CONSTRAINTS, headline="agent 1's constraint list differs",
                                 key="an agent's list differs"))
    d = say_first(d, ProtocolFinding(Slip.DUMP, "dumps", "the dump of step 1 is late"))
    assert d.kind == CONSTRAINTS and d.headline == "agent 1's constraint list differs"
    assert d.protocol is not None and any("dumps are not the states" in n for n in d.notes)


def test_a_dump_that_is_not_its_run_s_state_is_a_typed_finding() -> None:
    runner = ExecRunner("exec:protocol-dump-late", [sys.executable, str(PORT), "dump-late"], LIMITS)
    result = run_matrix([], [runner], GOLDENS, with_vectors=False)
    row = result.cells[(PROTOCOL_ROW, runner.id)]
    assert row.status == DIVERGED and row.finding == ProtocolFinding(Slip.DUMP, "dumps", row.finding.words)
