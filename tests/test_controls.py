"""Negative controls: every careless port is caught, with a localized diagnosis."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.controls import CAUGHT, CONTROLS, SKIPPED, by_cost, format_controls, run_control
from conformance.matrix import DIVERGED
from conformance.scenario import load_suite

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = [s for s in load_suite(ROOT / "scenarios") if not s.slow]


@pytest.mark.parametrize("control", CONTROLS, ids=[c.name for c in CONTROLS])
def test_control_is_caught_with_a_diagnosis(control) -> None:
    result = run_control(control, SCENARIOS, ROOT / "goldens")
    print(format_controls([result]))
    if result.status == SKIPPED:
        pytest.skip(f"{control.name}: {result.reason}")
    assert result.status == CAUGHT, result.reason
    assert result.cell is not None and result.cell.status == DIVERGED
    d = result.cell.diagnosis
    assert d is not None and d.state is not None and d.cause
    assert d.summary().startswith(f"step {result.cell.step}; agent {d.state.agent}, ")


def test_controls_try_cheap_scenarios_first() -> None:
    ordered = by_cost(SCENARIOS)
    costs = [max(1, len(s.scene.agents)) * s.scene.steps for s in ordered]
    assert costs == sorted(costs) and ordered[-1].id == "orca/antipodal-circle-300"


def test_a_control_that_passes_everything_is_reported_not_caught() -> None:
    from conformance.controls import NOT_CAUGHT, Control
    from conformance.runners.reference import ReferenceRunner
    honest = Control("honest", "no mistake at all", lambda: ReferenceRunner("control:honest"), has_vectors=False)
    cheap = by_cost(SCENARIOS)[:4]
    result = run_control(honest, cheap, ROOT / "goldens")
    assert result.status == NOT_CAUGHT and "passed all 4 scenarios" in result.reason
