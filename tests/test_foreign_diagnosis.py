"""Diagnoses that hold on a foreign implementation: what a wrapped library does differently is
named as such, and what it does the same way in another form is not blamed.

Each test runs a port built in-process: a catalogue entry of the C port (a plausible reading of
one decision), a careless Python port, or one of those wrapped so that it answers a primitive in
another, equivalent form, as a library wrapped as a port does.
"""

from __future__ import annotations

import dataclasses
import math

from conformance.contract.scenario import load_scenario
from conformance.data import vectors
from conformance.judge import causes
from conformance.judge.cell_text import cell_lines
from conformance.judge.matrix import DIVERGED, compare_scenario
from conformance.judge.state_difference import precision_finding
from conformance.contract.float_bits import to_float32
from conformance.runners.base import Runner, RunnerError
from conformance.solver import AgentParams, Simulator
from conformance.runners.reference import ReferenceRunner
from conformance.selftest.controls import careless
from conformance.selftest.controls.catalogue import control_runner
from conftest import ROOT, Delegating

GOLDENS = ROOT / "goldens"
REFERENCE = ReferenceRunner()


def run_cell(runner: Runner, name: str):
    scenario = load_scenario(ROOT / "scenarios" / "orca" / f"{name}.yaml")
    found = compare_scenario(scenario, runner, GOLDENS, REFERENCE, None)
    print("\n".join(cell_lines(found, verbose=True)))
    return found


class Reanchored(Delegating):
    """A port whose agent_step reports each constraint's line by another of its points (P moved
    half a metre along the line), as a library that stores a line by a point and a direction
    may: the same half-planes, other anchors."""

    def __init__(self, inner: Runner):
        super().__init__(inner, "reanchored")

    def vectors(self, family, args):
        results = self.inner.vectors(family, args)
        if family != "agent_step":
            return results
        code = vectors.FAMILY_BY_NAME[family].result[0]
        moved = []
        for result in results:
            lines = vectors.decode_value(code, result[0])
            lines = [(px - 0.5 * ny, py + 0.5 * nx, nx, ny) for px, py, nx, ny in lines]
            moved.append([vectors.encode_value(code, lines)] + list(result[1:]))
        return moved


def test_a_float32_port_is_named_by_its_precision_first() -> None:
    # head-on-exact starts exact in float32: only the precision of the steps differs
    found = run_cell(ReferenceRunner("float32", careless.Float32StateSimulator), "head-on-exact")
    assert found.status == DIVERGED
    head = cell_lines(found)[0]
    assert "the port's state is float32" in head and head.index("float32") < head.index("(breaks")
    assert found.diagnosis.citation.primary == "arith.state"


def test_a_fixed_point_state_is_named_by_its_grid() -> None:
    reference = [0.1 * k + 1.0 / 3.0 for k in range(12)]
    assert precision_finding([round(v * 1024) / 1024 for v in reference], reference) == "a fixed-point grid of 2^-10"
    assert precision_finding([to_float32(v) for v in reference], reference) == "float32"
    assert precision_finding(reference, reference) == ""
    assert precision_finding([1.0, -5.0, 0.5], [1.0, -4.9, 0.5]) == ""  # too few values to tell a format


def test_a_port_that_anchors_its_lines_elsewhere_is_not_blamed_for_it() -> None:
    # the step composition is what is wrong (agents updated in place); the anchors are not
    port = Reanchored(control_runner("sequential-step"))
    try:
        found = run_cell(port, "antipodal-circle-100")
    finally:
        port.close()
    d = found.diagnosis
    assert found.status == DIVERGED and d.kind == causes.COMPOSITION, d.cause
    assert any("anchored at another point of its line" in note for note in d.notes), d.notes


def control_cell(control: str, name: str):
    port = control_runner(control)
    try:
        return run_cell(port, name)
    finally:
        port.close()


def test_a_strict_reach_is_named_by_its_strictness_and_clause() -> None:
    found = control_cell("obstacle-reach-strict", "boundary-obstacle-reach")
    head = cell_lines(found)[0]
    assert "`d2 <= reach2` read as `d2 < reach2`" in head and head.endswith("(breaks neighbors.obstacles)"), head


def test_a_tie_reversing_port_is_named_by_its_tie() -> None:
    found = control_cell("neighbor-ties-higher-index", "equal-distance-ties")
    d = found.diagnosis
    assert d.constraint is not None and d.constraint.tie.startswith("the port breaks a tie otherwise"), d.cause
    assert "breaks a tie" in cell_lines(found)[0] and "(breaks neighbors.agents)" in cell_lines(found)[0]


class RoundedShortSighted(Simulator):
    """A library that rounds its new velocities otherwise (an ulp up: a reciprocal multiply) and
    leaves out an agent neighbour in the outer tenth of the neighbour distance: rounding from the
    first step, a different decision once an agent first comes that close."""

    def constraints(self, i, dt, grid=None):
        lines, hard = super().constraints(i, dt, grid)
        prm = self.params[i]
        grid = grid if grid is not None else self.grid()
        near = 0.9 * prm.neighbor_distance
        kept = [line for line, (d2, _) in zip(lines[hard:], grid.neighbors(i, prm.neighbor_distance,
                                                                            prm.max_neighbors)) if d2 < near * near]
        return lines[:hard] + kept, hard

    def new_velocity(self, i, dt, grid=None):
        vx, vy = super().new_velocity(i, dt, grid)
        return math.nextafter(vx, math.inf), vy


class RoundingThenDecision(ReferenceRunner):
    """The run and the agent_step primitive of ``RoundedShortSighted`` (no other family)."""

    def __init__(self):
        super().__init__("rounding-then-decision", RoundedShortSighted, "a library with its own rounding")

    def info(self):
        return dataclasses.replace(super().info(), provides=("agent_step",))

    def vectors(self, family, args):
        if family != "agent_step":
            raise RunnerError(f"unknown family {family}")
        fam = vectors.FAMILY_BY_NAME[family]
        out = []
        for case in args:
            i, xs, ys, vxs, vys, pxs, pys, radii, speeds, dists, counts, taus, tau_obsts, segments, dt = [
                vectors.decode_value(c, v) for c, v in zip(fam.args, case)]
            sim = RoundedShortSighted(segments)
            for k in range(len(xs)):
                sim.add_agent((xs[k], ys[k]), AgentParams(radii[k], speeds[k], dists[k], counts[k], taus[k],
                                                          tau_obsts[k]), (vxs[k], vys[k]))
                sim.pref_x[k], sim.pref_y[k] = pxs[k], pys[k]
            grid = sim.grid()
            lines, hard = sim.constraints(i, dt, grid)
            vx, vy = sim.new_velocity(i, dt, grid)
            out.append([vectors.encode_value(c, v) for c, v in zip(fam.result, ([tuple(x) for x in lines], hard, vx, vy))])
        return out


def test_rounding_first_then_a_decision_shows_both_steps() -> None:
    found = run_cell(RoundingThenDecision(), "head-on-perturbed")
    d = found.diagnosis
    assert found.status == DIVERGED and d.state.ulps <= 64, d.cause
    assert d.decision is not None and d.decision["step"] > d.step, d.notes
    head = cell_lines(found)[0]
    assert head.count("step ") >= 2 and f"rounding only at step {d.step}" in head, head
    assert f"the first different decision is at step {d.decision['step']}" in head
    assert d.citation.primary == "neighbors.agents", d.citation
