"""The fused rewrite operator, the off-axis vectors that kill its variants, and the band search
that now stands behind every equivalence claim of the operator report."""

from __future__ import annotations

from pathlib import Path

from conformance.contract.fused import fma
from conformance.data import offaxis_write, vector_offaxis, vectors
from conformance.judge.matrix import DIVERGED, vector_cell
from conformance.runners.build.layer import DETERMINISM_FLAGS, system_cc
from conformance.runners.cffi_runner import CffiRunner, CVariant
from conformance.selftest.variants.review import Reviewed
from conformance.selftest.variants.operators import find_variants, load_operators
from conformance.selftest.controls.patches import load_patch, patched_tree
from conftest import ROOT

GOLDENS = ROOT / "goldens" / "vectors"


def _fused() -> dict[tuple[str, int], list[str]]:
    out: dict[tuple[str, int], list[str]] = {}
    for v in find_variants([o for o in load_operators() if o.name == "fused"]):
        out.setdefault((Path(v.file).name, v.line), []).append(v.mutated.strip())
    return out


def test_the_fused_class_fuses_every_kind_of_site_with_either_product():
    sites = _fused()
    # a*b - c*d: either product fused
    assert sorted(sites[("vector.h", 62)]) == ["return fma(-a.y, b.x, a.x * b.y);", "return fma(a.x, b.y, -(a.y * b.x));"]
    # the helpers' products fused where they are called: the case form's side test, both readings
    assert sorted(sites[("obstacle.h", 76)]) == ["if (oc_FusedCrossX(a, w) > 0.0)", "if (oc_FusedCrossY(a, w) > 0.0)"]
    # c - a*b, a*b + c, c + a*b and p + d*t per component
    assert sites[("obstacle.c", 82)] == ["double ll = fma(-r, r, rho2);"]
    assert sites[("simulator.c", 419)] == ["double reach = fma(prm->timeHorizonObst, prm->maxSpeed, prm->radius);"]
    assert "pref.x = fma(magnitude, oc_Uniform(seed, n), pref.x);" in sites[("driver.c", 80)]
    assert "v = oc_FusedAddScaled(p, d, t);" in sites[("linear_program.c", 124)]
    # a product inside a longer product is no site: r * r * ww has no sum
    assert ("obstacle.h", 56) not in sites


def test_every_off_axis_case_is_off_the_axes_and_separates_the_readings_it_names():
    targets = {(t.family, t.site): t for t in offaxis_write.ALL_TARGETS}
    assert vector_offaxis.CASES, "no off-axis case"
    for case in vector_offaxis.CASES:
        copied = (case["family"], case["site"]) not in targets  # a case-form case repeated for agent_constraint
        target = targets[("agent_case_form", case["site"])] if copied else targets[(case["family"], case["site"])]
        args = [*case["args"][:4], *case["args"][5:7]] if copied else case["args"]
        assert case["band"] == "fused" and case["readings"]
        for reading in case["readings"]:
            assert target.differs(args, reading), (case["site"], reading)


def test_every_fused_reading_of_every_target_is_held_by_a_case():
    """No reading is left to chance: each has a case of its own or a mirror image that holds it."""
    for target in offaxis_write.ALL_TARGETS:
        held = {r for c in vector_offaxis.CASES if (c["family"], c["site"]) == (target.family, target.site)
                for r in c["readings"]}
        assert held == set(target.readings), (target.site, sorted(set(target.readings) - held))


def test_the_mirror_exchanges_x_and_y_in_every_pair_and_row():
    from conformance.data.vector_mirror import mirrored
    assert mirrored("support_distance", [1.0, 2.0, 3.0, 4.0, 0.5, 2.0, 5.0, 6.0, 1]) == \
        [2.0, 1.0, 4.0, 3.0, 0.5, 2.0, 6.0, 5.0, 1]
    assert mirrored("relax", [[(1.0, 2.0, 0.6, 0.8)], 0, 2.0, 0]) == [[(2.0, 1.0, 0.8, 0.6)], 0, 2.0, 0]
    assert mirrored("solve_direction", [[(1.0, 2.0, 0.6, 0.8)], 2.0, 0.3, 0.4]) == [[(2.0, 1.0, 0.8, 0.6)], 2.0, 0.4, 0.3]
    step = mirrored("agent_step", [0, [1.0], [2.0], [3.0], [4.0], [5.0], [6.0], [0.5], [1.0], [3.0], [4], [2.0],
                                   [0.1], [(1.0, 2.0, 3.0, 4.0)], 0.1])
    assert step[1:7] == [[2.0], [1.0], [4.0], [3.0], [6.0], [5.0]] and step[13] == [(2.0, 1.0, 4.0, 3.0)]
    assert step[7:13] == [[0.5], [1.0], [3.0], [4], [2.0], [0.1]]


def test_a_mirror_case_holds_the_reading_its_twin_does_not():
    """The fallback's first level with the x product fused: the search found no case; the mirror
    of the case that separates the y product does."""
    from conformance.data.vector_mirror import mirrored
    [twin] = [c for c in vector_offaxis.CASES if c["family"] == "relax" and c["readings"] == ["level-second"]]
    [mirror] = [c for c in vector_offaxis.CASES if c.get("mirror") and c["args"] == mirrored("relax", twin["args"])]
    assert "level-first" in mirror["readings"] and "level-first" not in twin["readings"]


def test_the_off_axis_cases_close_their_families():
    """Appended after every older case, in the stored vector files, in order."""
    for name in vector_offaxis.families():
        _, stored = vectors.read_vectors(GOLDENS / f"{name}.json")
        mine = vector_offaxis.cases(name)
        tail = [[vectors.decode_value(c, v) for c, v in zip(vectors.FAMILY_BY_NAME[name].args, case["args"])]
                for case in stored[len(stored) - len(mine):]]
        assert [repr(x) for x in tail] == [repr(x) for x in mine], name


def test_the_side_test_as_one_fma_diverges_on_an_off_axis_vector():
    """The issue's port: fma(ax, wy, -(ay*wx)) in the case form's side test.  It passed every
    scene and vector before; an off-axis case, w almost along a, now catches it."""
    tree = patched_tree((load_patch(ROOT / "tests" / "c_variants" / "fma-side-test.json"),))
    runner = CffiRunner(CVariant("c-fma-side-test", system_cc(), DETERMINISM_FLAGS + ("-O2",), tree))
    row, failure = vector_cell(runner, GOLDENS)
    assert row.status == DIVERGED, row.reason
    family, case = failure
    first_offaxis = len(vectors.raw_cases(family)) - len(vector_offaxis.cases(family))
    assert family in ("agent_case_form", "agent_constraint") and case >= first_offaxis, (family, case)


def test_the_side_test_case_is_decided_otherwise_by_one_rounding():
    [case] = [c for c in vector_offaxis.CASES if c["family"] == "agent_case_form" and c["clause"] == "agents.leg-side"]
    ax, ay, _, tau, xx, xy = case["args"]
    wx, wy = xx - ax / tau, xy - ay / tau
    assert (ax * wy - ay * wx > 0.0) != (fma(ax, wy, -(ay * wx)) > 0.0)
    assert ax != 0.0 and ay != 0.0 and abs(ax) != abs(ay)  # off the axes and the diagonals


def test_random_evidence_alone_no_longer_makes_a_variant_equivalent():
    from conformance.selftest.variants.band_search import SearchResult
    from conformance.selftest.variants.tree import sources_digest
    evidence = {"compared": 97954, "differ": 0, "first": "", "sources": sources_digest()[:16], "scenarios": 1}
    assert Reviewed("x:y.c:1:0123456789", "r", evidence).status() == "gap"
    clean = SearchResult(23000, 0).to_record()
    assert Reviewed("x:y.c:1:0123456789", "r", evidence, None, clean).status() == "searched"
    separated = SearchResult(23000, 3, "for_boundary#2", [0.0]).to_record()
    assert Reviewed("x:y.c:1:0123456789", "r", evidence, None, separated).status() == "gap"
    stale = {**clean, "generator": "0" * 16}
    assert Reviewed("x:y.c:1:0123456789", "r", evidence, None, stale).status() == "gap"
    assert Reviewed("x:y.c:1:0123456789", "r", None, {"solver": "bitwuzla", "claim": "c", "result": "unsat"}).status() \
        == "proved"
