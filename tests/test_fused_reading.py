"""Fusion at one site as a candidate reading (issue 42 item 2): the one multiply-add a port fused
is named with its site, its clause and the fix, and never takes a misreading's name."""

from __future__ import annotations

from conformance.contract.fused import fma
from conformance.contract.scenario import load_scenario
from conformance.data.fused_sites import FUSED_SITES, SITE_BY_KEY, solver
from conformance.judge import causes
from conformance.judge.matrix import DIVERGED, compare_scenario
from conformance.runners.build.layer import DETERMINISM_FLAGS, system_cc
from conformance.runners.cffi_runner import CffiRunner, CVariant
from conformance.runners.reference import ReferenceRunner
from conformance.selftest.controls.catalogue import CAUGHT, CONTROLS, run_control
from conformance.selftest.controls.patches import SourcePatch, patched_tree
from conformance.solver import linear_program
from conftest import ROOT

DISC = "solver.linear_program.line_interval: pd * pd + radius * radius"


def test_every_contraction_site_is_listed_once_per_product() -> None:
    keys = {(s.id, s.product) for s in FUSED_SITES}
    assert len(keys) == len(FUSED_SITES)
    assert {(DISC, "pd * pd"), (DISC, "radius * radius")} <= keys
    side_test = "solver.obstacle.agent_case_form: ax * wy - ay * wx"
    assert {(side_test, "ax * wy"), (side_test, "ay * wx")} <= keys
    assert ("solver.obstacle.segment_distance_squared: ax + ex * t", "ex * t") in keys  # the segment point


def test_one_fused_site_changes_that_site_alone() -> None:
    site = SITE_BY_KEY[(DISC, "left")]
    other = SITE_BY_KEY[("solver.obstacle.agent_case_form: ax * wy - ay * wx", "left")]
    shown = 0
    for k in range(1, 40):  # P far along its line (pd large), the line near the origin: disc cancels
        nx, ny = 0.6, 0.8
        px, py = -ny * 3.7 * k + nx * 0.3, nx * 3.7 * k + ny * 0.3
        fused = solver(site)["line_interval"]([(px, py, nx, ny)], 0, 1.1)
        pd = px * -ny + py * nx
        disc = fma(pd, pd, 1.1 * 1.1) - (px * px + py * py)
        assert fused == (-pd - disc ** 0.5, -pd + disc ** 0.5)
        plain = linear_program.line_interval([(px, py, nx, ny)], 0, 1.1)
        shown += fused != plain
        assert solver(other)["line_interval"]([(px, py, nx, ny)], 0, 1.1) == plain
    assert shown  # some of the cases are ones where fusing shows


def test_a_port_that_fuses_one_constraint_site_is_named_with_the_site_and_the_fix() -> None:
    patch = SourcePatch.single("fma-along", "solver/obstacle.h", "\tdouble along = oc_Dot(x, dir);\n",
                               "\tdouble along = fma(x.x, dir.x, x.y * dir.y);\n")
    runner = CffiRunner(CVariant("variant:fma-along", system_cc(), DETERMINISM_FLAGS + ("-O2",),
                                 patched_tree((patch,))))
    scene = load_scenario(ROOT / "scenarios" / "orca" / "head-on-perturbed.yaml")
    cell = compare_scenario(scene, runner, ROOT / "goldens", ReferenceRunner(), None)
    d = cell.diagnosis
    assert cell.status == DIVERGED and d is not None and d.kind == causes.CONSTRAINTS, cell.reason
    assert "a fused multiply-add at `xx * dx + xy * dy` (`xx * dx` fused) in agent_case_form" in d.headline
    assert "fix: " in d.headline and "mul_add" in d.headline and "-ffp-contract=off" in d.headline
    assert d.citation.primary == "arith.binary64" and d.rounding  # the vectors row's rounding will not replace it
    assert "suspect what is fed to them" not in d.headline


def test_the_fused_site_control_is_named_and_misreadings_keep_their_names() -> None:
    """fma-one-site (the disc fused by hand) is named by its site; a misreading at a touching wall
    that one fused site reproduces in its first state (segment-far-end-as-b) keeps its own name:
    the port's failing vectors contradict the fused site."""
    scenarios = [load_scenario(ROOT / "scenarios" / "orca" / f"{n}.yaml")
                 for n in ("feature-fast-agents", "boundary-touching-walls")]
    by_name = {c.name: c for c in CONTROLS}
    fused = run_control(by_name["fma-one-site"], scenarios[:1], ROOT / "goldens")
    assert fused.status == CAUGHT, fused.reason
    assert "fused multiply-add at `pd * pd + radius * radius` (`pd * pd` fused) in line_interval" in fused.reason
    misread = run_control(by_name["segment-far-end-as-b"], scenarios[1:], ROOT / "goldens")
    assert misread.status == CAUGHT and "fused" not in misread.reason, misread.reason
