"""Negative controls and the misreading catalogue: each is caught in a scene, with a diagnosis."""

from __future__ import annotations


import pytest

from conformance.selftest.controls.catalogue import CAUGHT, CONTROLS, EQUIVALENT, NO_SCENE, SKIPPED, by_cost, format_controls, misreadings, run_control
from conformance.judge.cell_text import cell_lines
from conformance.judge.matrix import DIVERGED
from conformance.contract.scenario import load_suite
from conftest import ROOT

SCENARIOS = [s for s in load_suite(ROOT / "scenarios") if not s.slow]
MISREADINGS = {c.name for c in misreadings()}


def _marked(control) -> object:
    """A control as a parameter: the ones built by Zig for another architecture and run under an
    emulator (a cross build each, seconds of emulation) are in the heavy set, which .ci/run runs."""
    return pytest.param(control, id=control.name, marks=[pytest.mark.heavy] if "zig" in control.needs else [])


@pytest.mark.parametrize("control", [_marked(c) for c in CONTROLS])
def test_control_is_caught_with_a_diagnosis(control) -> None:
    result = run_control(control, SCENARIOS, ROOT / "goldens")
    print(format_controls([result]))
    if result.status == SKIPPED:
        pytest.skip(f"{control.name}: {result.reason}")
    if control.equivalent:
        assert result.status == EQUIVALENT, result.reason
        return
    if control.no_scene:
        assert result.status == NO_SCENE, result.reason
        # the vectors row cites the clause the entry breaks
        assert result.vectors.citation is not None and result.vectors.citation.primary in control.clauses, \
            (result.vectors.citation, control.clauses)
        assert "breaks " + result.vectors.citation.primary in result.vectors.reason
        return
    assert result.status == CAUGHT, f"{result.status}: {result.reason}"
    # the diagnosis benchmark: its cell names the declared cause (every control declares one), so
    # `controls` reports 100 % named when every control passes here
    from conformance.selftest.controls.catalogue import named_share
    assert named_share([result]) == (1, 1), result.reason
    if control.protocol:  # a contract slip: the protocol row names it (and a scene that diverged says it first)
        assert result.protocol is not None and result.protocol.status != "PASS"
        return
    assert result.cell is not None and result.cell.status == DIVERGED
    d = result.cell.diagnosis
    assert d is not None and d.cause and d.headline
    assert d.citation is not None, "a red cell cites a clause (or says it cannot)"
    short = cell_lines(result.cell)
    assert len(short) <= 3 and d.headline in short[0], short  # read in ten seconds: the cause in the headline
    if control.name in MISREADINGS:  # a catalogue entry: the cell names the very clause it misreads
        assert d.citation.found and d.citation.primary in control.clauses, (d.citation.ids, control.clauses)
        assert f"breaks {d.citation.primary} (" in d.summary()
        assert short[0].endswith(f"(breaks {d.citation.primary})"), short[0]
    if d.kind == "hash-encoding":  # the dumped states are bit-equal: only the hash is wrong
        assert d.state is None and d.summary().startswith(f"step {result.cell.step}; the state hash encoding")
        return
    assert d.state is not None
    assert d.summary().startswith(f"step {result.cell.step}; agent {d.state.agent}, ")


def test_controls_try_cheap_scenarios_first() -> None:
    ordered = by_cost(SCENARIOS)
    costs = [max(1, len(s.scene.agents)) * s.scene.steps for s in ordered]
    assert costs == sorted(costs) and ordered[-1].id == "orca/antipodal-circle-300"


def test_a_control_that_passes_everything_is_reported_not_caught() -> None:
    from conformance.selftest.controls.catalogue import NOT_CAUGHT, Control
    from conformance.runners.reference import ReferenceRunner
    honest = Control("honest", "no mistake at all", lambda: ReferenceRunner("control:honest"), has_vectors=False)
    cheap = by_cost(SCENARIOS)[:4]
    result = run_control(honest, cheap, ROOT / "goldens")
    assert result.status == NOT_CAUGHT and "passed all 4 scenarios" in result.reason


def test_the_catalogue_holds_a_few_dozen_documented_misreadings() -> None:
    catalogue = misreadings()
    assert len(catalogue) >= 40
    for control in catalogue:
        assert control.mistake and control.site and control.kind, control.name
    assert len({c.name for c in CONTROLS}) == len(CONTROLS)


def test_every_entry_caught_in_a_scene_declares_the_cause_its_cell_must_name() -> None:
    """controls calls an entry MISCAUSED when its cell's headline does not match ``cause``: every
    control declares one (the careless Python ports too: they answer agent_step from their own
    simulator, so that their cells can name their mistakes) unless it is argued equivalent or
    unreachable by a scene."""
    from conformance.selftest.controls.catalogue import CONTRACT_CONTROLS, TOOLCHAIN_CONTROLS
    for control in CONTROLS:
        if not (control.equivalent or control.no_scene):
            assert control.cause, f"{control.name}: no cause"
    assert {c.name for c in TOOLCHAIN_CONTROLS} >= {"fma-arm64", "clang-default-arm64", "fma-x64", "x87-i386",
                                                     "x87-i386-qemu", "fast-math-x64", "reciprocal-math-x64",
                                                     "no-signed-zeros-x64", "associative-math-x64", "unsafe-math-x64",
                                                     "fma-one-site"}
    assert {c.name for c in CONTRACT_CONTROLS} == {"state-between-runs", "dump-off-by-one", "short-run"}


def test_the_contract_slips_are_named_by_the_protocol_row_and_said_first_in_the_scenes() -> None:
    """The diagnosis benchmark's contract slips (issue 42 item 5): each is caught with its cause
    named; the leak's scenario cell leads with the protocol row's finding."""
    from conformance.selftest.controls.catalogue import CONTRACT_CONTROLS, named_share
    cheap = by_cost(SCENARIOS)[:3]
    results = [run_control(c, cheap, ROOT / "goldens") for c in CONTRACT_CONTROLS]
    assert named_share(results) == (3, 3), [(r.control.name, r.status, r.reason) for r in results]
    leak = results[0]
    assert leak.cell.status == DIVERGED and leak.cell.diagnosis.kind == "protocol"
    assert leak.cell.diagnosis.headline.startswith("the port keeps state from one run into the next")


def test_the_share_named_right_counts_only_caught_controls_that_declare_a_cause() -> None:
    from conformance.selftest.controls.catalogue import MISCAUSED, Control, ControlResult, named_share
    by_name = {c.name: c for c in CONTROLS}
    silent = Control("silent", "declares no cause", lambda: None)
    results = [ControlResult(by_name["fma-arm64"], CAUGHT), ControlResult(by_name["x87-i386"], MISCAUSED),
               ControlResult(silent, CAUGHT), ControlResult(by_name["reciprocal-math-x64"], SKIPPED)]
    assert named_share(results) == (1, 2)


def test_a_misreading_caught_only_by_vectors_is_a_gap() -> None:
    from conformance.selftest.controls.catalogue import VECTORS_ONLY, Control
    from conformance.judge.matrix import Cell
    from conformance.selftest.controls.catalogue import ControlResult, _judge
    result = ControlResult(Control("x", "y", lambda: None), "", None, Cell("vectors", "x", DIVERGED, reason="bad"))
    _judge(result, 20)
    assert result.status == VECTORS_ONLY
    claimed = ControlResult(Control("x", "y", lambda: None, equivalent="same bits"), "", None,
                            Cell("vectors", "x", DIVERGED, reason="bad"))
    _judge(claimed, 20)
    assert claimed.status == "WRONG CLAIM"


def test_every_control_is_a_matrix_column() -> None:
    from conformance.errors import InputError
    from conformance.judge.matrix import run_matrix
    from conformance.runners import known_ids, resolve
    assert "control:<name>" in known_ids()
    scenario = [s for s in SCENARIOS if s.id == "orca/degenerate"]
    result = run_matrix(scenario, ["control:leg-tie-left"], ROOT / "goldens", with_vectors=False, with_protocol=False)
    cell = result.cells[("orca/degenerate", "control:leg-tie-left")]
    assert cell.status == DIVERGED and cell.diagnosis is not None
    with pytest.raises(InputError, match="unknown control"):
        resolve("control:no-such-thing")


@pytest.mark.parametrize("name", ["agent-neighbor-nonstrict", "neighbor-ties-higher-index"])
def test_a_neighbor_search_misreading_is_named_in_the_cell(name) -> None:
    """The red cell names the neighbour search (the port's own neighbour primitive, asked for the
    divergent agent in the reference's state), not a guess at what else feeds the constraints."""
    control = next(c for c in CONTROLS if c.name == name)
    result = run_control(control, SCENARIOS, ROOT / "goldens")
    assert result.status == CAUGHT and result.cell is not None and result.cell.diagnosis is not None
    cause = result.cell.diagnosis.cause
    assert "the neighbor search is wrong: in this state the port's own agent_neighbors primitive" in cause, cause


@pytest.mark.parametrize("name, wrong, decision", [
    # a grouping slip moves the test's sides by rounding: named as a rounding-band reading
    ("cutoff-grouping", "swapping the two time horizons", "answering `dot1 * dot1 > r * r * ww` the other way near "
                                                          "its boundary (its sides rounded otherwise"),
    # a strict reach meets the boundary with both sides equal: named as the other strictness
    ("obstacle-reach-strict", "the obstacle reach without the radius", "`d2 <= reach2` read as `d2 < reach2` (the "
                                                                       "other strictness"),
    # and the other way round: the formula slip shows on later states, where only it explains the list
    ("reach-without-radius", "read as `d2 < reach2`", "the obstacle reach without the radius"),
])
def test_a_stock_reading_that_matches_by_chance_is_not_the_cause(name, wrong, decision) -> None:
    """A boundary scene can let a stock reading reproduce the port's list by coincidence; the
    port's own primitives and the decision read the other way at its boundary decide instead."""
    control = next(c for c in CONTROLS if c.name == name)
    result = run_control(control, SCENARIOS, ROOT / "goldens")
    assert result.status == CAUGHT and result.cell is not None and result.cell.diagnosis is not None
    summary = result.cell.diagnosis.summary()
    assert wrong not in summary and decision in summary, summary


def test_the_other_agents_on_later_states_side_with_the_stock_reading() -> None:
    """Where the divergent agent's list is given both by a stock reading and by a decision read
    otherwise at its boundary (the reach without the radius at the boundary scene of the reach),
    the other agents in this state and the reference's next ones decide: there, the stock reading."""
    from conformance.contract.scenario import load_scenario
    from conformance.judge.matrix import run_matrix
    scenario = load_scenario(ROOT / "scenarios" / "orca" / "boundary-obstacle-reach.yaml")
    result = run_matrix([scenario], ["control:reach-without-radius"], ROOT / "goldens", with_vectors=False,
                        with_protocol=False)
    cell = result.cells[(scenario.id, "control:reach-without-radius")]
    assert cell.status == DIVERGED and cell.diagnosis is not None
    summary = cell.diagnosis.summary()
    assert "the obstacle reach without the radius" in summary and "read as `d2 < reach2`" not in summary, summary
