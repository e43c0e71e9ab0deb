"""Wrong ports that passed every scene before the schema-boundary and feature scenes: each
fails one of those now, and the cell says where.

The fakes (conformance/selftest/controls/careless_inputs.py) read an explicit 0 as a language default
(``x || 0.1``), skip agents of radius 0 as points, or find neighbors in a grid built before the
last move.  Each also passes an older scene that exercises the same code, the reason it went
unnoticed.
"""

from __future__ import annotations

import pytest

from conformance.contract.scenario import load_scenario
from conformance.judge.cell_text import cell_lines
from conformance.judge.matrix import DIVERGED, PASS, compare_scenario
from conformance.runners.reference import ReferenceRunner
from conformance.selftest.controls.careless_inputs import LanguageDefaultsRunner, PointsSkippedSimulator, StaleGridSimulator, defaulted
from conftest import ROOT

REFERENCE = ReferenceRunner()


def cell(runner, name: str):
    scenario = load_scenario(ROOT / "scenarios" / "orca" / f"{name}.yaml")
    found = compare_scenario(scenario, runner, ROOT / "goldens", REFERENCE, None)
    print("\n".join(cell_lines(found, verbose=True)))
    return found


def test_an_explicit_zero_goal_radius_read_as_a_default_is_a_driver_bug() -> None:
    port = LanguageDefaultsRunner()
    assert cell(port, "boundary-preferred-velocity").status == PASS
    found = cell(port, "schema-zero-goal-radius")
    assert found.status == DIVERGED and found.step == 1
    assert found.diagnosis.kind == "driver" and found.diagnosis.citation.primary.startswith("driver.")
    assert "driver bug" in cell_lines(found)[0]


def test_zero_neighbor_limits_read_as_defaults_diverge() -> None:
    port = LanguageDefaultsRunner("falsy-limits", {"max_neighbors": 10, "neighbor_distance": 5.0})
    found = cell(port, "schema-zero-neighbors")
    assert found.status == DIVERGED and found.step == 1


def test_radius_zero_agents_skipped_as_points_diverge_in_the_solver() -> None:
    port = ReferenceRunner("points-skipped", PointsSkippedSimulator)
    assert cell(port, "degenerate").status == PASS
    found = cell(port, "schema-zero-radius")
    assert found.status == DIVERGED and found.step == 1
    assert found.diagnosis.kind == "solver", found.diagnosis.cause
    assert "new velocity differs" in cell_lines(found)[0]


@pytest.mark.parametrize("name", ["feature-fast-agents", "feature-coarse-dt"])
def test_a_stale_neighbor_grid_misses_the_agent_that_jumped_cells(name: str) -> None:
    port = ReferenceRunner("stale-grid", StaleGridSimulator)
    assert cell(port, "wide-reach-first").status == PASS
    found = cell(port, name)
    # the standing agent 0 does not dodge the agent that came two cells in one step
    assert found.status == DIVERGED and found.step == 4 and found.diagnosis.kind == "solver"
    assert "agent 0's new velocity differs" in cell_lines(found)[0]


def test_defaulted_changes_only_the_zeros_it_names() -> None:
    scene = load_scenario(ROOT / "scenarios" / "orca" / "schema-zero-goal-radius.yaml").scene
    seen = defaulted(scene, {"goal_radius": 0.1})
    assert [a.goal_radius for a in seen.agents] == [0.1] * len(scene.agents)
    assert [a.params for a in seen.agents] == [a.params for a in scene.agents]
    assert defaulted(seen, {"goal_radius": 0.5}) == seen


@pytest.mark.parametrize("make", [
    lambda: LanguageDefaultsRunner("falsy-goal", {"goal_radius": 0.1}),
    lambda: ReferenceRunner("points-skipped", PointsSkippedSimulator),
    lambda: ReferenceRunner("stale-grid", StaleGridSimulator),
], ids=["falsy-goal", "points-skipped", "stale-grid"])
def test_the_contract_fuzz_kind_finds_each_slip(make) -> None:
    """The fuzz kind that samples the schema's boundaries finds each of these ports in a few
    dozen scenes (the geometric kinds essentially never do)."""
    from conformance.selftest.fuzz import campaign as fuzz
    result = fuzz.run_fuzz([make()], 0, 80, None, ("contract",), fuzz.Expected(), ROOT / "goldens" / "vectors",
                           with_vectors=False)
    assert result.findings, f"no finding in {result.scenes} contract scenes"
