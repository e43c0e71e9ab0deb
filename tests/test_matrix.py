"""The hash matrix: the C port agrees with the reference; wrong variants are localized."""

from __future__ import annotations

import dataclasses
import math
import shutil
import struct
from pathlib import Path

import pytest

from conformance.runners.build.layer import DETERMINISM_FLAGS, system_cc
from conformance.contract.driver import Driver, build_simulator
from conformance.data.goldens import compute_golden, golden_path, read_golden, write_golden
from conformance.judge.matrix import DIVERGED, PASS, VECTORS_ROW, run_matrix
from conformance.judge.cell_text import format_table
from conformance.runners.cffi_runner import CffiRunner, CVariant, c_variants
from conformance.runners.cli_port import CliRunner, cli_spec
from conformance.runners.reference import ReferenceRunner
from conformance.contract.scenario import load_scenario, load_suite
from conformance.selftest.controls.patches import load_patch, patched_tree
from conftest import ROOT

VARIANTS = Path(__file__).resolve().parent / "c_variants"


def test_c_port_matches_reference_on_every_scenario_and_vector() -> None:
    scenarios = [s for s in load_suite(ROOT / "scenarios") if not s.slow]
    result = run_matrix(scenarios, ["c", "c:O3-native"], ROOT / "goldens")
    print(format_table(result))
    assert len(scenarios) >= 15
    for cell in result.cells.values():
        assert cell.status == PASS, (cell.row, cell.runner, cell.reason)
        assert cell.compared > 0, (cell.row, cell.runner)
    assert result.compared() > 10_000


CIRCLE = """\
id: t/circle
description: A small antipodal circle.
dt: 0.1
steps: 250
perturbation: {seed: 5, magnitude: 0.0001}
agents:
  - circle: {count: 24, radius: 6.0}
expect:
  max_overlap: 0.5
"""


@pytest.fixture(scope="module")
def tiny_suite(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("suite")
    (root / "scenarios" / "t").mkdir(parents=True)
    (root / "scenarios" / "t" / "circle.yaml").write_text(CIRCLE)
    scenario = load_scenario(root / "scenarios" / "t" / "circle.yaml")
    write_golden(compute_golden(scenario, root / "goldens"), root / "goldens" / "t" / "circle.json")
    shutil.copytree(ROOT / "goldens" / "vectors", root / "goldens" / "vectors")
    return root


def variant(name: str) -> CffiRunner:
    tree = patched_tree((load_patch(VARIANTS / f"{name}.json"),))
    return CffiRunner(CVariant(f"c-variant:{name}", system_cc(), DETERMINISM_FLAGS + ("-O2",), tree))


def bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def first_divergence_by_stepping(runner: CffiRunner, scene) -> tuple[int, int, str]:
    """Independent oracle: step the reference and dump the variant at every step."""
    sim = build_simulator(scene)
    driver = Driver(scene)
    names = ("position.x", "position.y", "velocity.x", "velocity.y")
    for step in range(scene.steps + 1):
        got = runner.dump(scene, step)
        for i in range(len(sim)):
            want = (sim.px[i], sim.py[i], sim.vx[i], sim.vy[i])
            for f in (2, 3, 0, 1):  # velocity before position, as the diagnosis reports
                if bits(want[f]) != bits(got.agents[i][f]):
                    return step, i, names[f]
        driver.set_preferred_velocities(sim, step)
        sim.step(scene.dt)
    raise AssertionError("the variant never diverged")


@pytest.mark.parametrize("name, cause", [("hypot-length", "solver bug"), ("swapped-perturbation", "driver bug")])
def test_wrong_variant_is_localized(tiny_suite: Path, name: str, cause: str) -> None:
    scenario = load_scenario(tiny_suite / "scenarios" / "t" / "circle.yaml")
    runner = variant(name)
    result = run_matrix([scenario], [runner], tiny_suite / "goldens")
    print(format_table(result))
    cell = result.cells[(scenario.id, runner.id)]
    assert cell.status == DIVERGED
    step, agent, field = first_divergence_by_stepping(runner, scenario.scene)
    d = cell.diagnosis
    assert (cell.step, d.state.agent, d.state.field) == (step, agent, field)
    assert d.cause.startswith(cause), d.cause
    assert d.state.ulps is not None and d.state.ulps > 0
    assert d.summary().startswith(f"step {step}; agent {agent}, {field}, 0x")
    if cause == "driver bug":
        assert d.preferred is not None and result.cells[(VECTORS_ROW, runner.id)].status == DIVERGED
        assert d.vector_family == "preferred_velocity"
    else:
        assert math.isfinite(d.state.got)


def test_diagnosis_works_through_the_exec_protocol(tiny_suite: Path) -> None:
    scenario = load_scenario(tiny_suite / "scenarios" / "t" / "circle.yaml")
    tree = patched_tree((load_patch(VARIANTS / "hypot-length.json"),))
    cli = CliRunner("c-variant-cli:hypot-length",
                    cli_spec("variant-cli-hypot", system_cc(), DETERMINISM_FLAGS + ("-O2",), source_dir=tree))
    in_process = variant("hypot-length")
    result = run_matrix([scenario], [cli, in_process], tiny_suite / "goldens")
    print(format_table(result))
    through_exec = result.cells[(scenario.id, cli.id)]
    direct = result.cells[(scenario.id, in_process.id)]
    assert through_exec.status == DIVERGED and through_exec.reason == direct.reason.replace(in_process.id, cli.id)
    assert result.infos[cli.id].name == "orca-c"


@pytest.mark.parametrize("threads", [2, 7])
def test_multithreaded_step_gives_the_same_bits(threads: int) -> None:
    scenario = load_scenario(ROOT / "scenarios" / "orca" / "crossing-blocks.yaml")
    runner = CffiRunner(c_variants()["c"])
    single = list(runner.hashes(scenario.scene, threads=1))
    multi = list(runner.hashes(scenario.scene, threads=threads))
    assert len(single) == scenario.scene.steps + 1
    assert multi == single


@pytest.mark.parametrize("threads", [2, 3])
def test_the_worker_pool_reproduces_the_golden_of_a_crowd(threads: int) -> None:
    """300 agents: both the preferred velocities (chunks of 256) and phase 1 (chunks of 32) are
    handed out to the pool's workers, whichever takes which chunk."""
    scenario = load_scenario(ROOT / "scenarios" / "orca" / "antipodal-circle-300.yaml")
    golden = read_golden(golden_path(ROOT / "goldens", scenario.id))
    runner = CffiRunner(c_variants()["c"])
    assert list(runner.hashes(scenario.scene, threads=threads)) == list(golden.hashes)


@pytest.mark.parametrize("name", ["wall-gap", "heterogeneous", "overlap-wall-deep"])
def test_single_agent_api_path_reproduces_the_goldens(name: str) -> None:
    """The C library's per-agent calls (getters, setters, NewVelocity, Constraints) step to the
    same bits as the bulk path that the columns use."""
    from conformance.runners.cffi_runner import c_variants
    scenario = load_scenario(ROOT / "scenarios" / "orca" / f"{name}.yaml")
    golden = read_golden(golden_path(ROOT / "goldens", scenario.id))
    got = list(CffiRunner(c_variants()["c"]).hashes(scenario.scene, per_agent=True))
    assert len(got) == scenario.scene.steps + 1 == len(golden.hashes)
    assert got == list(golden.hashes)


class _SomeFamilies(ReferenceRunner):
    """The reference answering only ``uniform`` and ``relax`` (its hello's provides), ``relax``
    wrong in its first case when ``wrong``; asking another family fails the test."""

    def __init__(self, wrong: bool):
        super().__init__("partial")
        self.wrong = wrong

    def info(self):
        return dataclasses.replace(super().info(), provides=("uniform", "relax"))

    def vectors(self, family, args):
        assert family in ("uniform", "relax"), f"{family} was asked but not provided"
        results = super().vectors(family, args)
        if self.wrong and family == "relax":
            results[0] = ["7ff0000000000000" for _ in results[0]]
        return results


@pytest.mark.parametrize("wrong", [False, True])
def test_a_vectors_row_asks_only_the_families_provided(wrong: bool) -> None:
    """All provided families pass: NOT PROVIDED, naming the others; one of them wrong: DIVERGED
    as always, and the count names the families not provided too."""
    from conformance.judge.matrix import NOT_PROVIDED, vector_cell
    cell, failure = vector_cell(_SomeFamilies(wrong), ROOT / "goldens" / "vectors")
    missing = ("segment_distance_squared, support_distance, agent_case_form, agent_constraint, segment_constraint, "
               "for_boundary, solve_closest, solve_direction, obstacle_neighbors, agent_neighbors, splitmix64, "
               "preferred_velocity, agent_step")
    if not wrong:
        assert cell.status == NOT_PROVIDED and failure is None and cell.short() == "NOT PROVIDED"
        assert cell.reason == f"not provided (the port's hello): {missing}; 2 of 15 families pass"
    else:
        assert cell.status == DIVERGED and failure.family == "relax"
        assert cell.reason.endswith(f" [1 of 15 families pass; not provided (the port's hello): {missing}]")
