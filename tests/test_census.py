"""The boundary census: every decision of the reference has data on its boundary, or an argument."""

from __future__ import annotations

import json

from conformance.selftest.census import boundary as census
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


# ----------------------------------------------------------------------------- the bands column

from conformance.data.band_kinds import in_bands, tie_in_band  # noqa: E402
from conformance.errors import InputError  # noqa: E402
from conformance.selftest.census import bands as census_bands  # noqa: E402


def test_the_band_kinds_come_from_the_syntax_of_each_site() -> None:
    kinds = {s.id: s.bands for s in census.find_sites()}
    assert kinds["contract.driver.Driver.preferred_velocity: dist <= speed * dt"] == (
        "tolerance", "float32", "squares")  # dist = sqrt(dist2): a root
    assert kinds["solver.neighbors.obstacle_neighbors: d2 <= reach2"] == ("tolerance", "float32", "roots")
    assert kinds["solver.obstacle.agent_case_form: dot1 * dot1 > r * r * ww"] == ("tolerance", "float32", "roots")
    assert kinds["solver.obstacle.support_distance: vb < va"] == ("tolerance", "float32", "signed-zeros")
    assert kinds["solver.linear_program.solve_closest: t < lower"] == ("tolerance", "float32", "signed-zeros")
    assert kinds["solver.linear_program.line_interval: disc < 0.0"] == ("tolerance", "float32")
    assert kinds["solver.neighbors._smallest: found.sort() ties"] == ("ties",)
    for integer in ("solver.fallback.relax: failed < hard_count", "contract.driver.Driver.preferred_velocity: k < last",
                    "solver.simulator.Simulator.new_velocity: failed < hard_count", "contract.driver.run: step == total"):
        assert kinds[integer] == (), integer


def test_each_band_holds_exactly_the_data_its_definition_names() -> None:
    both = ("tolerance", "float32", "roots", "squares", "signed-zeros")
    plain = ("tolerance", "float32")
    assert in_bands(both, "<", 1.0, 1.0 + 1e-6) == ("tolerance",)
    assert in_bands(both, "<", 1.0, 1.0 + 2e-5) == ()
    assert in_bands(plain, "<", -1e-47, 0.0) == ("tolerance", "float32")  # float32(-1e-47) == 0: 0 < 0 is false
    assert in_bands(plain, "<", 1e-47, 0.0) == ("tolerance",)  # false both ways: no float32 flip
    assert "squares" in in_bands(both, "<", -1e-47, 0.0)  # (-1e-47)^2 > 0: the squares decide otherwise
    assert "roots" in in_bands(both, "<", 1.0, 1.0 + 2 ** -52)  # sqrt(1 + 2^-52) == 1
    assert "roots" not in in_bands(both, "<=", 1.0, 1.0 + 2 ** -52)  # true both ways
    assert "squares" in in_bands(both, "!=", 1e-170, 0.0)  # (1e-170)^2 underflows to 0
    assert in_bands(both, "<", -0.0, 0.0) == ("signed-zeros",)
    assert in_bands(both, "<", 0.0, 0.0) == ()
    assert tie_in_band([1.0, 1.0 + 2 ** -52, 4.0]) and not tie_in_band([1.0, 1.0, 4.0])


def test_a_site_band_without_data_is_a_gap_unless_argued() -> None:
    site = census_shadow.Site("m.f: x < 0.0", "m", "f", 1, "x < 0.0", "compare", ("tolerance",))
    tally = census_shadow.Tally(kinds={site.id: site.bands})
    tally.probe(site.id, "<", 1.0, 0.0)
    row = census_bands.band_rows([site], tally)[0]
    assert (row.vectors, row.scenes, row.status) == (0, 0, "GAP")
    tally.probe(site.id, "<", 1e-6, 0.0)
    assert census_bands.band_rows([site], tally)[0].status == "VECTORS ONLY"
    tally.source = "orca/x"
    tally.probe(site.id, "<", -1e-6, 0.0)
    row = census_bands.band_rows([site], tally)[0]
    assert (row.vectors, row.scenes, row.first_scene, row.status) == (1, 1, "orca/x", "COVERED")
    scenes_only = census_bands.BandRow("s", "tolerance", 0, 0, scope="scenes", argued="x" * 50)
    assert scenes_only.status == "GAP"  # a scenes argument holds only while the vectors reach the band
    scenes_only.vectors = 3
    assert scenes_only.status == "ARGUED"


def test_band_arguments_and_proofs_name_real_site_bands() -> None:
    assert census_bands.band_problems(census.find_sites()) == []
    for (site, kind), entry in census_bands.proofs().items():
        assert entry["result"] == "unsat" and entry["bound"] and entry["encoding"], (site, kind)


def test_a_bad_proof_is_one_error_naming_the_file_and_key(monkeypatch) -> None:
    from conformance.data import vector_bands
    monkeypatch.setattr(vector_bands, "PROOFS", [{"site": "x", "band": "roots", "solver": "bitwuzla"}])
    try:
        census_bands.proofs()
    except InputError as err:
        assert "vector_bands.py" in str(err) and "PROOFS[0].encoding" in str(err)
    else:
        raise AssertionError("no InputError")


def test_every_band_case_names_its_site_band_and_clause() -> None:
    from conformance.contract.clauses import clause_map
    from conformance.data import vector_bands
    sites = {s.id: s.bands for s in census.find_sites()}
    known = set(clause_map().clauses)
    for case in vector_bands.CASES:
        assert case["band"] in sites[case["site"]], case["site"]
        assert case["clause"] in known, case["clause"]


def test_the_vector_band_counts_of_the_committed_census_match_a_live_run() -> None:
    committed = {s["id"]: s for s in json.loads(COMMITTED.read_text())["sites"]}
    table = census.rows(census.find_sites(), census.run_census(VECTORS, []))
    live = {(r.site.id, b.kind): b.vectors for r in table for b in r.bands or []}
    stored = {(sid, kind): band["vectors"] for sid, s in committed.items() for kind, band in s.get("bands", {}).items()}
    assert live == stored
