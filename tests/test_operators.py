"""Rewrite operators at every site: the operator files, the engine, the committed report.

The full run is ``orca-conformance operators --write`` (about 15 minutes); here a fixed sample,
one variant per class and judged from scratch, must get the committed report's status, and the
committed report must be fresh and have no gap.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest

from conformance.errors import InputError
from conformance.selftest.variants import operator_report
from conformance.selftest.variants.operator_run import FAILING, SCENE, judge_variants, select_variants
from conformance.selftest.variants.operators import OPERATORS_DIR, find_variants, functions, load_operators
from conftest import ROOT

CLASSES = {"roots-for-squares", "squares-for-roots", "float32", "library-minmax", "tolerance", "arithmetic",
           "sort-keys", "off-by-one", "added-guards", "fused"}


def _report() -> dict:
    return json.loads((ROOT / "docs" / "operators" / "report.json").read_text())


def test_every_operator_class_of_the_issue_is_there_and_has_sites() -> None:
    operators = load_operators()
    assert CLASSES <= {o.name for o in operators}
    variants = find_variants(operators)
    per = Counter(v.operator for v in variants)
    assert all(per[name] > 0 for name in CLASSES), per
    assert len({v.id for v in variants}) == len(variants)
    assert all(v.original != v.mutated for v in variants)
    assert find_variants(load_operators()) == variants  # stable ids and order


def test_the_tolerance_operator_makes_one_variant_per_value() -> None:
    variants = [v for v in find_variants(load_operators()) if v.operator == "tolerance"]
    for eps in ("1e-12", "1e-9", "1e-6", "1e-5"):
        assert any(eps in v.mutated for v in variants), eps
    sites = Counter((v.file, v.line) for v in variants)
    assert all(n % 4 == 0 for n in sites.values()), sites


def test_functions_are_found_with_their_bodies() -> None:
    text = (ROOT / "runners" / "c" / "solver" / "obstacle.c").read_text()
    found = {name: (first, last) for name, first, last in functions(text)}
    assert {"oc_SegmentDistanceSquared", "oc_TryCandidate", "oc_SupportDistance"} <= set(found)
    lines = text.splitlines()
    first, last = found["oc_SegmentDistanceSquared"]
    assert lines[first - 1] == "{" and lines[last - 1] == "}"


def _copy_operators(tmp_path: Path) -> Path:
    folder = tmp_path / "operators"
    shutil.copytree(OPERATORS_DIR, folder)
    return folder


@pytest.mark.parametrize("change, key, words", [
    (lambda d: d.pop("title"), "title", "missing"),
    (lambda d: d["rewrites"][0].update(find="(unclosed"), "rewrites[0].find", "not a regular expression"),
    (lambda d: d.update(scope=["decisons"]), "scope[0]", "did you mean 'decisions'"),
    (lambda d: d["rewrites"][0].update(replace="x {NOPE}"), "rewrites[0].replace", "{NOPE}"),
    (lambda d: d["rewrites"][0].update(bound={"group": "zz", "to": "sqrt"}), "rewrites[0].bound.group", "no group"),
    (lambda d: d.update(band="float64"), "band", ""),
])
def test_a_bad_operator_file_is_one_error_naming_the_file_and_key(tmp_path: Path, change, key: str,
                                                                   words: str) -> None:
    folder = _copy_operators(tmp_path)
    path = folder / "roots-for-squares.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))
    with pytest.raises(InputError) as err:
        load_operators(folder)
    text = str(err.value)
    assert str(path) in text and key in text and words in text, text


def test_names_cause_takes_the_class_then_the_component() -> None:
    float32 = next(o for o in load_operators() if o.name == "float32")
    assert float32.names_cause("solver/obstacle.c", "the port's positions are float32 (low 29 mantissa bits zero)") == "class"
    assert float32.names_cause("harness/driver.c", "driver bug: agent 0's preferred velocity differs") == "component"
    assert float32.names_cause("harness/driver.c", "agent 2's constraint list differs: other neighbors") == ""


def test_a_bad_component_pattern_is_one_error(tmp_path: Path) -> None:
    folder = _copy_operators(tmp_path)
    data = json.loads((folder / "scopes.json").read_text())
    data["components"]["solver/neighbors.c"] = "neighbo(("
    (folder / "scopes.json").write_text(json.dumps(data))
    with pytest.raises(InputError) as err:
        load_operators(folder)
    assert "scopes.json" in str(err.value) and "components.solver/neighbors.c" in str(err.value)


def test_a_bad_scopes_file_is_one_error(tmp_path: Path) -> None:
    folder = _copy_operators(tmp_path)
    (folder / "scopes.json").write_text(json.dumps({"scopes": {"decisions": ["solver/obstacle.c"]}}))
    with pytest.raises(InputError) as err:
        load_operators(folder)
    assert "scopes.json" in str(err.value) and "scopes.decisions[0]" in str(err.value)


OPEN_GAPS: dict[str, str] = {}
"""The variants nothing kills or proves yet, each with why (docs/boundaries.md lists them, at the
top): none since 2026-12-03.  A new gap fails the test; a closed one must leave this list."""


def test_the_committed_report_is_fresh_and_has_no_gap_but_the_open_ones() -> None:
    stale = operator_report.freshness(ROOT)
    assert stale is None, f"{stale}: run `orca-conformance operators --write`"
    report = _report()
    summary = report["summary"]
    failing = {v["id"] for v in report["variants"] if v["status"] in FAILING}
    assert failing == set(OPEN_GAPS), (f"new gaps: {sorted(failing - set(OPEN_GAPS))}; closed (drop them from "
                                       f"OPEN_GAPS): {sorted(set(OPEN_GAPS) - failing)}")
    assert summary[SCENE] > len(report["variants"]) // 2, summary


def test_every_class_is_killed_in_a_scene_somewhere_and_names_its_cause() -> None:
    report = _report()
    operators = {o.name: o for o in load_operators()}
    for name in CLASSES:
        kills = [v for v in report["variants"] if v["operator"] == name and v["status"] == SCENE]
        assert kills, name
        for v in kills:
            named = operators[name].names_cause(v["file"], v["headline"])
            assert v["killed_by"] == "crash" or named == v["named"] != "", (v["id"], v["headline"])


def _sample() -> list[str]:
    """One variant per class that the committed report says a scene kills, the cheapest first."""
    chosen: dict[str, str] = {}
    for v in sorted(_report()["variants"], key=lambda v: v["seconds"]):
        if v["status"] == SCENE and v["killed_by"] != "crash":
            chosen.setdefault(v["operator"], v["id"])
    return sorted(chosen.values())


@pytest.mark.heavy
def test_a_fixed_sample_gets_the_committed_verdict_from_scratch() -> None:
    sample = _sample()
    assert len(sample) >= len(CLASSES) - 1
    variants = select_variants(sample, None, 1)
    assert [v.id for v in variants] == sample
    committed = {v["id"]: v for v in _report()["variants"]}
    crashed = []
    for judged in judge_variants(variants, ROOT, jobs=2, timeout=120.0, cached=False):
        want = committed[judged.variant.id]
        # the same verdict; the killing scene may be a cheaper one added since (a cached kill stands)
        assert judged.status == want["status"], judged.variant.diff()
        if judged.killed_by == "crash":
            # a variant that writes out of bounds (an off-by-one on a capacity) is undefined
            # behaviour: whether glibc aborts before the first wrong hash depends on the heap's
            # layout, which differs between machines (CI aborted where the committed run did not)
            crashed.append(judged.variant.id)
            continue
        assert judged.killed_by.startswith("scenario:"), judged.variant.diff()
        assert judged.named in ("class", "component"), judged.headline
    assert len(crashed) <= 1, crashed  # the cell's naming is what this test holds, for nearly every class


def test_the_command_names_a_glob_that_matches_nothing(capsys) -> None:
    from conformance.cli import main
    assert main(["operators", "--only", "no-such-operator:*"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--only" in err[0] and "no-such-operator" in err[0]
    assert main(["operators", "--write", "--sample", "3"]) == 2


def test_every_proved_survivor_still_proves_and_names_a_current_variant() -> None:
    from conformance.selftest.variants.operator_proofs import CLAIMS, prove
    from conformance.selftest.variants.review import load_reviewed
    reviewed = load_reviewed(ROOT)
    current = {v.id: v for v in find_variants(load_operators())}
    proved = [e for e in reviewed.values() if e.proof is not None]
    assert proved
    for entry in reviewed.values():
        assert entry.id in current, f"{entry.id}: no such variant of the current sources (review it again)"
    for entry in proved:
        claim = entry.proof["claim"]
        assert claim in CLAIMS and prove(claim)[0] == "unsat", entry.id
        shape = {"negate-product": " * -", "negate-quotient": " / -", "square-of-root-positive": "le * le > ",
                 "past-parallel-tolerance": "denom > 1e-12", "past-parallel-float32": "Round32(denom) > 0.0",
                 **{f"segment-clamp-{m}-{o}": f"(t = f{m}(" for m in ("max", "min") for o in ("first", "second")}}[claim]
        assert shape in current[entry.id].mutated, entry.id  # the rewrite the claim is about


def test_a_false_claim_is_not_proved() -> None:
    from conformance.selftest.variants import operator_proofs

    def sum_regrouped(bw, tm, f64, rne):
        a, b, c = (tm.mk_const(f64, n) for n in "abc")
        add = bw.Kind.FP_ADD
        return [operator_proofs.Query(tm.mk_term(add, [rne, tm.mk_term(add, [rne, a, b]), c]),
                                      tm.mk_term(add, [rne, a, tm.mk_term(add, [rne, b, c])]))]
    operator_proofs.CLAIMS["test-regroup"] = ("(a + b) + c as a + (b + c)", sum_regrouped)
    try:
        assert operator_proofs.prove("test-regroup")[0] == "sat"
        with pytest.raises(ValueError):
            operator_proofs.proof_record("test-regroup")
    finally:
        del operator_proofs.CLAIMS["test-regroup"]


def test_a_chain_fails_when_any_step_fails() -> None:
    """The segment clamp's chain holds only with each of its guards: without the text's domain a
    NaN t separates the clamps; compared by bits, a library max's +0 is another value than -0."""
    import dataclasses
    from conformance.selftest.variants import operator_proofs
    build = operator_proofs.CLAIMS["segment-clamp-max-first"][1]
    assert operator_proofs.prove("segment-clamp-max-first")[0] == "unsat"
    for step, change in ((0, {"guards": ()}), (1, {"zeros_alike": False})):
        def weakened(bw, tm, f64, rne, step=step, change=change):
            queries = build(bw, tm, f64, rne)
            queries[step] = dataclasses.replace(queries[step], **change)
            return queries
        operator_proofs.CLAIMS["test-weakened"] = ("weakened", weakened)
        try:
            assert operator_proofs.prove("test-weakened")[0] == "sat", (step, change)
        finally:
            del operator_proofs.CLAIMS["test-weakened"]


def test_a_bad_reviewed_file_is_one_error(tmp_path: Path) -> None:
    from conformance.selftest.variants.review import REVIEWED, load_reviewed
    (tmp_path / REVIEWED).parent.mkdir(parents=True)
    (tmp_path / REVIEWED).write_text(json.dumps({"equivalent": [{"id": "float32:x.c:1:0123456789", "reason": "r",
                                                                  "proof": {"solver": "s", "claim": "c",
                                                                            "result": "sat"}}]}))
    with pytest.raises(InputError) as err:
        load_reviewed(tmp_path)
    assert "equivalent.json" in str(err.value) and "equivalent[0].proof.result" in str(err.value)


@pytest.mark.heavy
def test_an_overflowing_off_by_one_is_a_sanitizer_kill_under_asan() -> None:
    """One step too many writes past the output buffer: a heap overflow, named as such."""
    from conformance.runners.build.sanitizer import unavailable
    why = unavailable("address")
    if why:
        pytest.skip(why)
    variants = select_variants(["off-by-one:driver.c:433:*"], None, 1)
    overflow = [v for v in variants if "count + 1" in v.mutated]
    assert len(overflow) == 1
    [judged] = judge_variants(overflow, ROOT, jobs=1, timeout=300.0, sanitizer="address", cached=False)
    assert judged.status == SCENE and judged.killed_by == "sanitizer:address", (judged.killed_by, judged.detail)
    assert "heap-buffer-overflow" in judged.detail


def test_the_controls_benchmark_counts_every_class_named_in_every_scene_kill(tmp_path: Path) -> None:
    """Issue 42 item 5, the rewrite part: ``controls`` reports, from the committed report, the
    share of scene kills whose cell names the operator's class or component (100 %, every class)."""
    from conformance.commands.controls import operators_line
    from conformance.selftest.variants.operator_report import named_share
    share = named_share(ROOT)
    assert share is not None and set(share) == CLASSES, share
    assert all(named == kills > 0 for named, kills in share.values()), share
    total = sum(k for _, k in share.values())
    assert f"in {total} of the {total} variants" in operators_line(ROOT)
    assert named_share(tmp_path) is None and "no committed report" in operators_line(tmp_path)
