"""The boundary census: every decision of the reference has data on its boundary, or an argument."""

from __future__ import annotations

import json

from conformance.selftest import census
from conformance.data import shadow as census_shadow
from conformance.contract.driver import run
from conformance.data.goldens import golden_path, read_golden
from conformance.contract.scenario import load_suite
from conformance.contract.state_hash import state_hash
from conftest import ROOT

VECTORS = ROOT / "goldens" / "vectors"
SCENARIOS = [s for s in load_suite(ROOT / "scenarios") if not s.slow]
COMMITTED = census.census_path(ROOT)


def test_the_committed_census_is_fresh_complete_and_has_no_gap() -> None:
    problems = census.check_committed(COMMITTED, VECTORS, SCENARIOS)
    assert not problems, "\n".join(problems[:20])


def test_the_census_finds_the_decisions_of_the_text() -> None:
    ids = {s.id for s in census.find_sites()}
    for expected in ("solver.linear_program.line_interval: disc < 0.0",
                     "solver.linear_program.line_interval: -PARALLEL_EPSILON <= denom",
                     "solver.linear_program.line_interval: denom <= PARALLEL_EPSILON",
                     "solver.obstacle.support_distance: value > best",
                     "solver.neighbors.obstacle_neighbors: found.sort() ties",
                     "contract.driver.Driver.preferred_velocity: dist2 <= reach2",
                     "contract.driver.Driver.preferred_velocity: dist <= speed * dt"):
        assert expected in ids


def test_the_vector_counts_of_the_committed_census_match_a_live_run() -> None:
    committed = {s["id"]: s for s in json.loads(COMMITTED.read_text())["sites"]}
    table = census.rows(census.find_sites(), census.run_census(VECTORS, []))
    live = {r.site.id: r.vectors for r in table}
    assert live == {k: v["vectors"] for k, v in committed.items()}
    assert sum(v["on"] for v in live.values()) > 1000


def test_the_instrumented_copy_keeps_the_bits() -> None:
    scenario = next(s for s in SCENARIOS if s.id == "orca/touching")
    tally = census_shadow.Tally()
    census_shadow.load_shadow(tally)
    import sys
    shadow_run = sys.modules[f"{census_shadow.SHADOW}.contract.driver"].run
    golden = read_golden(golden_path(ROOT / "goldens", scenario.id))
    assert [state_hash(b) for b in shadow_run(scenario.scene)] == list(golden.hashes)
    assert [state_hash(b) for b in run(scenario.scene)] == list(golden.hashes)
    assert sum(tally.counts.values()) > 100  # the probes really ran


def test_a_site_without_data_on_its_boundary_is_a_gap() -> None:
    site = census_shadow.Site("m.f: x < 0.0", "m", "f", 1, "x < 0.0", "compare")
    tally = census_shadow.Tally()
    assert tally.probe(site.id, "<", 1.0, 0.0) is False  # far from the boundary: not counted
    assert census.rows([site], tally)[0].status == "GAP"
    tally.probe(site.id, "<", -0.0, 0.0)  # -0.0 == 0.0: on the boundary
    assert census.rows([site], tally)[0].status == "VECTORS ONLY"
    tally.source = "orca/x"
    tally.probe(site.id, "<", 5e-324, 0.0)  # one ulp above
    row = census.rows([site], tally)[0]
    assert row.scenes == {"on": 0, "below": 0, "above": 1} and row.status == "VECTORS ONLY"
    tally.probe(site.id, "<", 0.0, 0.0)
    assert census.rows([site], tally)[0].status == "COVERED"


def test_every_argument_names_a_real_site() -> None:
    ids = {s.id for s in census.find_sites()}
    assert set(census.ARGUED) <= ids
    assert all(len(reason) > 40 for reason in census.ARGUED.values())
