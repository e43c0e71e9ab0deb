"""The decisive fact in the headline (issue 42 item 4): a neighbour list that differs says which
neighbour is missing, extra or moved and the counts; a preferred velocity says which waypoint and
which branch; a move says what the port's position is."""

from __future__ import annotations

from conformance.contract.scenario import load_scenario
from conformance.judge.matrix import DIVERGED, compare_scenario
from conformance.judge.step_comparison import neighbor_change
from conformance.runners.build.layer import DETERMINISM_FLAGS, system_cc
from conformance.runners.cffi_runner import CffiRunner, CVariant
from conformance.runners.reference import ReferenceRunner
from conformance.selftest.controls.catalogue import CAUGHT, CONTROLS, run_control
from conformance.selftest.controls.patches import SourcePatch, patched_tree
from conftest import ROOT

BY_NAME = {c.name: c for c in CONTROLS}


def scenario(name: str):
    return load_scenario(ROOT / "scenarios" / "orca" / f"{name}.yaml")


def test_neighbor_change_says_the_count_and_the_first_missing_extra_or_moved() -> None:
    assert neighbor_change("agent_neighbors", [1, 2], [1, 7, 2]) == \
        "2 agents where the reference has 3; agent 7 is missing"
    assert neighbor_change("agent_neighbors", [1, 9, 2], [1, 2]) == \
        "3 agents where the reference has 2; agent 9 is extra"
    assert neighbor_change("obstacle_neighbors", [3, 1], [1, 3]) == "segment 3 is at place 0, the reference's place 1"
    assert neighbor_change("agent_neighbors", [4, 5], [4, 6]) == "agent 6 is missing"


def test_a_neighbor_list_headline_names_the_neighbor_moved() -> None:
    result = run_control(BY_NAME["obstacles-by-index"], [scenario("band-signed-zeros")], ROOT / "goldens")
    assert result.status == CAUGHT, result.reason
    headline = result.cell.diagnosis.headline
    assert "own obstacle_neighbors primitive gives other neighbors (segment " in headline
    assert "is at place" in headline
    assert "segment" not in result.cell.diagnosis.key  # the key groups the cells of one mistake: no neighbour in it


def test_a_preferred_velocity_headline_names_the_waypoint_and_the_branch() -> None:
    result = run_control(BY_NAME["waypoint-advance-strict"], [scenario("boundary-preferred-velocity")],
                         ROOT / "goldens")
    assert result.status == CAUGHT, result.reason
    headline = result.cell.diagnosis.headline
    assert "the reference steers to waypoint 1 at full speed; the port's points at waypoint 0" in headline, headline
    arrive = run_control(BY_NAME["arrive-strict"], [scenario("boundary-lp-start")], ROOT / "goldens")
    assert "arriving in one step" in arrive.cell.diagnosis.headline


def test_a_move_headline_names_the_agent_and_a_fused_update() -> None:
    old = run_control(BY_NAME["move-with-old-velocity"], [scenario("band-driver-squares")], ROOT / "goldens")
    assert "(agent 0's position.x: it moves with the old velocity)" in old.cell.diagnosis.headline
    patch = SourcePatch.single("fma-move", "solver/simulator.c",
                               "sim->positions[i] = oc_Add(sim->positions[i], oc_Scale(v, job->dt));",
                               "sim->positions[i] = oc_MakeVec2(fma(v.x, job->dt, sim->positions[i].x), "
                               "fma(v.y, job->dt, sim->positions[i].y));")
    runner = CffiRunner(CVariant("variant:fma-move", system_cc(), DETERMINISM_FLAGS + ("-O2",), patched_tree((patch,))))
    cell = compare_scenario(scenario("head-on-perturbed"), runner, ROOT / "goldens", ReferenceRunner(), None)
    assert cell.status == DIVERGED, cell.reason
    assert "it fuses p + v*dt into one multiply-add; fix: " in cell.diagnosis.headline, cell.diagnosis.headline
