"""A red column's cells share the dear part of their diagnoses: each cause is searched once per
column (the other cells refer to the first), ``share=False`` (--verbose) searches every cell, and
the caching reference gives the very dumps the plain one does."""

from __future__ import annotations

import pytest

from conformance.contract.scenario import load_scenario
from conformance.judge import causes
from conformance.judge.matrix import DIVERGED, run_matrix
from conformance.judge.shared_causes import CachedReference, SharedCauses, stateless_driver
from conformance.runners.reference import ReferenceRunner
from conftest import ROOT

GOLDENS = ROOT / "goldens"
RED = ("band-signed-zeros", "band-tiny-crowd", "comb-wall", "overlap-agents", "equal-distance-ties", "dense-pack")
"""Cheap scenarios where the wrong agent_constraint primitive (u-as-c-minus-x) diverges."""


def _column(monkeypatch, share: bool) -> tuple[list, list[int]]:
    """The red cells of the misreading's column, and how often the dear walk ran (stubbed)."""
    walks: list[int] = []

    def walk(scene, runner, step, *rest):
        walks.append(step)
        return None
    monkeypatch.setattr(causes, "first_decision", walk)
    monkeypatch.setattr(causes, "own_primitive_wrong", lambda difference: False)  # walk even so
    scenarios = [load_scenario(ROOT / "scenarios" / "orca" / f"{n}.yaml") for n in RED]
    result = run_matrix(scenarios, ["control:u-as-c-minus-x"], GOLDENS, with_vectors=False, with_protocol=False,
                        share=share)
    return [c for c in result.cells.values() if c.status == DIVERGED], walks


def test_a_cause_is_searched_once_per_column_and_the_other_cells_refer_to_it(monkeypatch) -> None:
    red, walks = _column(monkeypatch, share=True)
    assert len(red) == len(RED) and len(walks) == 1
    first, others = red[0], red[1:]
    assert first.diagnosis.shared_from == ""
    for cell in others:
        d = cell.diagnosis
        assert d.shared_from == f"{first.row}@{first.step}" and d.key == first.diagnosis.key
        assert d.state is not None and d.constraint is not None and cell.step == d.step  # its own facts
        assert any("ran in full once for the column" in note for note in d.notes)


def test_share_off_searches_every_cell(monkeypatch) -> None:
    red, walks = _column(monkeypatch, share=False)
    assert len(walks) == len(red) == len(RED)
    assert all(c.diagnosis.shared_from == "" for c in red)


def test_a_search_recalled_under_another_signature_misses() -> None:
    shared = SharedCauses(owner="a@1")
    shared.keep("follow", ("constraints", "k1"), None)
    assert shared.recall("follow", ("constraints", "k1")) == ("a@1", None)
    assert shared.recall("follow", ("constraints", "k2"))[0] == "" and shared.searches == 1
    assert SharedCauses(enabled=False).recall("follow", ("constraints", "k1"))[0] == ""


@pytest.mark.parametrize("name", ["antipodal-circle-100", "wall-gap", "head-on-perturbed"])
def test_the_caching_reference_dumps_what_the_reference_dumps(name: str) -> None:
    scene = load_scenario(ROOT / "scenarios" / "orca" / f"{name}.yaml").scene
    plain, cached = ReferenceRunner(), CachedReference()
    seeded = cached.seed(scene, 6, plain.dump(scene, 6).agents)
    assert seeded == stateless_driver(scene)
    for step in (8, 7, 3, 12):
        assert cached.dump(scene, step) == plain.dump(scene, step)


def test_a_constraint_list_headline_says_how_the_list_differs_and_its_key_has_no_counts() -> None:
    from conformance.judge.causes import _list_headline, list_fact
    from conformance.contract.clauses import Citation
    from conformance.judge.constraint_difference import ConstraintDifference, Neighbor, Side
    from conformance.judge.step_comparison import StepResult
    line = (0.0, 0.0, 1.0, 0.0)
    reference, port = StepResult((line,) * 25, 22, 0.0, 0.0), StepResult((line,) * 13, 10, 0.0, 0.0)
    missing = ConstraintDifference(5, 10, Neighbor(Side.OBSTACLE, 331), "missing")
    nowhere = Citation("neighbors.obstacles", found=False)
    head = _list_headline("agent 5's", missing, nowhere, list_fact(reference, port, missing))
    assert head.startswith("agent 5's constraint list differs: 10 obstacle constraints where the reference has 22; "
                           "constraint 10 (segment 331) is missing")
    other = ConstraintDifference(7, 3, Neighbor(Side.OBSTACLE, 12), "missing")
    fewer = StepResult((line,) * 15, 12, 0.0, 0.0)
    keys = {_list_headline("an agent's", d, nowhere, list_fact(reference, p, d, counts=False))
            for d, p in ((missing, port), (other, fewer))}
    assert keys == {"an agent's constraint list differs: fewer obstacle constraints than the reference; an obstacle "
                    "constraint is missing (its primitives pass; suspect what is fed to them)"}


TOOLCHAIN_RED = ("boundary-touching-walls", "band-tiny-crowd", "overlap-agents")
"""Cheap scenarios where the -freciprocal-math build diverges (by rounding, from step 1)."""


def _toolchain_column(monkeypatch, share: bool) -> tuple[list, list[str]]:
    """The red cells of the -freciprocal-math build's column with its vectors row, and the rounding
    searches that ran (stubbed: the walk to a decision, the single fused site)."""
    ran: list[str] = []

    def walk(scene, runner, step, *rest):
        ran.append("follow")
        return None

    def fused(*args, **kwargs):
        ran.append("fused")
        return None
    monkeypatch.setattr(causes, "first_decision", walk)
    monkeypatch.setattr(causes, "fused_site", fused)
    scenarios = [load_scenario(ROOT / "scenarios" / "orca" / f"{n}.yaml") for n in TOOLCHAIN_RED]
    result = run_matrix(scenarios, ["control:reciprocal-math-x64"], GOLDENS, with_protocol=False, share=share)
    return [c for c in result.cells.values() if c.status == DIVERGED and c.row != "vectors"], ran


def test_a_column_whose_vectors_row_names_the_arithmetic_skips_the_rounding_searches(monkeypatch) -> None:
    """Issue 42 item 6: the fingerprint is the decisive fact, so no cell walks to a decision or
    tries single fused sites; each says why, and still leads with the slip and its fix."""
    red, ran = _toolchain_column(monkeypatch, share=True)
    assert len(red) == len(TOOLCHAIN_RED) and ran == []
    for cell in red:
        d = cell.diagnosis
        assert "reciprocal" in d.headline and "fix: " in d.headline, d.headline
        assert any("vectors row already names the port's arithmetic" in note for note in d.notes), d.notes


def test_verbose_runs_the_rounding_searches_the_vectors_row_made_moot(monkeypatch) -> None:
    red, ran = _toolchain_column(monkeypatch, share=False)
    assert len(red) == len(TOOLCHAIN_RED) and "fused" in ran
    assert all("reciprocal" in c.diagnosis.headline for c in red)
    assert not any("vectors row already names" in note for c in red for note in c.diagnosis.notes)


def test_settled_needs_the_arithmetic_and_sharing() -> None:
    assert not SharedCauses().settled()
    assert SharedCauses(arithmetic="divisions taken as multiplications by a reciprocal").settled()
    assert not SharedCauses(enabled=False, arithmetic="divisions taken as multiplications by a reciprocal").settled()


@pytest.mark.parametrize("name", ["schema-many-waypoints", "lone-agent"])
def test_the_caching_reference_gives_the_waypoints_a_fresh_replay_sees(name: str) -> None:
    """The driver cause's waypoint comes from the kept replay (no replay per cell): the index the
    observer of a fresh run sees at each state, asked in any order, before and after a dump."""
    from conformance.contract.driver import run
    scene = load_scenario(ROOT / "scenarios" / "orca" / f"{name}.yaml").scene
    seen: dict[int, list[int]] = {}
    for _ in run(scene, scene.steps, lambda s, sim, driver: seen.__setitem__(s, list(driver.waypoint))):
        pass
    assert any(k > 0 for row in seen.values() for k in row)  # some agent moves on to a later waypoint
    cached = CachedReference()
    for step in (scene.steps - 1, 3, scene.steps // 2, 0, scene.steps - 1):
        cached.dump(scene, step)
        assert [cached.waypoint(scene, step, i) for i in range(len(scene.agents))] == seen[step]
    fresh = CachedReference()
    assert [fresh.waypoint(scene, 5, i) for i in range(len(scene.agents))] == seen[5]  # without a dump first
