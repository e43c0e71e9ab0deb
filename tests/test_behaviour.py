"""Behaviour checks of the text, over the figures stored in the goldens and each ``expect:``.

The checker itself is ``conformance.contract.expectations`` (``check`` and ``goldens regen`` use it too).

The figures were measured by the reference while it made the golden, so these tests cost no
simulation; ``goldens check`` (in CI) proves that the goldens still match the reference.
"""

from __future__ import annotations


import pytest

from conformance.contract.expectations import check_expectations
from conformance.data.goldens import MISSING, OK, golden_status
from conformance.contract.scenario import Scenario, load_suite
from conftest import ROOT

SCENARIOS = load_suite(ROOT / "scenarios")
THE_TEXTS_KINDS = ("antipodal-circle", "crossing-blocks", "wall-gap", "two-way-corridor")


def figures_of(scenario: Scenario) -> dict:
    status = golden_status(ROOT / "goldens", scenario)
    if status.kind == MISSING and scenario.slow:
        pytest.skip(f"{scenario.id}: slow scenario without a golden yet (orca-conformance goldens regen --all)")
    assert status.kind == OK, status.problem(scenario.id, status.path)
    return status.golden.figures


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_scenario_meets_its_expectations(scenario: Scenario) -> None:
    fig = figures_of(scenario)
    print(scenario.id, {k: fig[k] for k in ("max_overlap", "arrival_step", "fallbacks")})
    assert fig["states"] == scenario.scene.steps + 1
    assert check_expectations(scenario, fig) == []


def test_the_texts_four_kinds_are_present_and_bounded() -> None:
    for kind in THE_TEXTS_KINDS:
        found = [s for s in SCENARIOS if kind in s.id]
        assert found, kind
        for s in found:
            assert "arrival_within" in s.expect and "max_overlap" in s.expect, s.id
            text_bound = 0.1
            if kind == "antipodal-circle":
                text_bound = 0.75 if len(s.scene.agents) >= 1000 else 0.5
            assert s.expect["max_overlap"] <= text_bound, s.id


def test_sizes_the_issue_asks_for() -> None:
    sizes = {s.id: len(s.scene.agents) for s in SCENARIOS}
    assert sizes["orca/antipodal-circle-100"] == 100
    assert sizes["orca/antipodal-circle-300"] == 300
    assert sizes["orca/antipodal-circle-1000"] == 1000
    assert sizes["orca/crossing-blocks"] >= 100
    assert sizes["orca/wall-gap"] >= 40 and sizes["orca/two-way-corridor"] >= 80


def test_checker_catches_violations() -> None:
    head_on = next(s for s in SCENARIOS if s.id == "orca/head-on-exact")
    bad = {"arrival_step": None, "arrived": 1, "max_overlap": 0.2, "max_wall_overlap": 0.0,
           "final_overlap": 0.0, "passed_each_other": True, "final_max_speed": 1.0, "final_gap": 3.0,
           "fallbacks": 0, "hard_fallbacks": 0}
    problems = check_expectations(head_on, bad)
    assert len(problems) == 5, problems
    assert all(p.startswith("expect.max_overlap: ") or p.startswith("expect.face_to_face: ") for p in problems)


def test_checker_reports_missing_figures_instead_of_raising() -> None:
    head_on = next(s for s in SCENARIOS if s.id == "orca/head-on-exact")
    problems = check_expectations(head_on, {"max_overlap": "0.0"})
    assert problems and all("regenerate" in p for p in problems), problems


def test_expect_keys_documented_and_match_the_schema() -> None:
    import json

    from conformance.contract.expectations import EXPECT_KEYS
    schema = json.loads((ROOT / "conformance" / "schemas" / "scenario.schema.json").read_text())
    keys = [k.key for k in EXPECT_KEYS]
    assert sorted(keys) == sorted(schema["properties"]["expect"]["properties"])
    doc = (ROOT / "docs" / "scenarios.md").read_text()
    for key in keys:
        assert f"`{key}`" in doc, key
