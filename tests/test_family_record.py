"""A vector family is one record (conformance/data/family.py): registering one toy family makes
it a family of the vectors machinery, of the clause tables, of the census's run and of the
matrix's vectors row, and every table keyed by a family's name is a view of the records."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from conformance.contract.float_bits import hexd
from conformance.data import family, vector_family, vectors
from conformance.data.arith_models import FORMULA_FAMILIES as ARITH_FAMILIES
from conformance.data.family_clauses import FAMILY_CLAUSES
from conformance.errors import InputError
from conformance.judge import vector_failure
from conformance.judge.matrix import FORMULA_FAMILIES, vector_cell
from conformance.runners import cffi_runner, export_layer
from conformance.runners.exec_runner import provided_families
from conformance.runners.reference import ReferenceRunner
from conftest import ROOT

TOY = "toy_twice"
CALLS: list[tuple] = []


def _twice(x):
    CALLS.append((x,))
    return (x + x,)


def _toy_random(name: str, rng: random.Random) -> list[list]:
    return [[rng.uniform(-1.0, 1.0)] for _ in range(4)] + [[0.5]]


def _toy() -> family.Family:
    return family.Family(TOY, ("d",), ("d",), _twice, ("driver.splitmix",), {"random": _toy_random},
                         formula=True, arg_names=("x",), result_names=("twice",))


def _folder(tmp_path: Path, cases: int = 3) -> Path:
    """Every stored family cut to its first ``cases`` cases, and the toy family's whole file."""
    folder = tmp_path / "vectors"
    folder.mkdir()
    for path in sorted((ROOT / "goldens" / "vectors").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        data["cases"] = data["cases"][:cases]
        (folder / path.name).write_text(json.dumps(data), encoding="utf-8")
    assert vectors.regenerate_all(folder, [TOY]) == [(TOY, "new")]
    return folder


def test_the_registry_is_the_built_in_records_in_the_stored_order():
    names = [f.name for f in vectors.FAMILIES]
    assert names == [f.name for f in vector_family.BUILTIN] and len(names) == 15
    assert names[0] == "segment_distance_squared" and names[-1] == "agent_step"
    assert list(FAMILY_CLAUSES) == names and FAMILY_CLAUSES["relax"][0] == "fallback.goal"
    assert list(ARITH_FAMILIES) == names[:5]
    assert sorted(FORMULA_FAMILIES) == sorted(names[:5] + ["uniform", "preferred_velocity"])
    assert list(export_layer.PRIMITIVES) == names and list(cffi_runner._PRIMITIVES) == names
    assert vector_failure.ARG_NAMES["relax"] == ("lines", "hardCount", "R", "failed")


def test_the_port_names_of_every_record_are_the_ports_entry_points():
    headers = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "runners" / "c").rglob("*.h"))
    exports = (ROOT / "runners" / "wasm" / "exports.c").read_text(encoding="utf-8")
    skeleton = (ROOT / "runners" / "skeleton-js" / "port.mjs").read_text(encoding="utf-8")
    for f in vectors.FAMILIES:
        assert f"{f.c_name}(" in headers, f.name
        assert f"OW_EXPORT({f.wasm_name})(" in exports, f.name
        assert f"function {f.js_name}(" in skeleton, f.name


def test_a_registered_family_is_a_family_of_the_vectors_machinery(tmp_path):
    with family.register(_toy()) as toy:
        assert vectors.FAMILY_BY_NAME[TOY] is toy and vectors.FAMILIES[-1] is toy and len(vectors.FAMILIES) == 16
        cases = vectors.generate(TOY)
        assert len(cases) == 5 and cases[-1] == {"args": [hexd(0.5)], "result": [hexd(1.0)]}
        assert vectors.generate(TOY, seed=1)[0] != cases[0]  # another seed, other random cases
        folder = _folder(tmp_path)
        assert vectors.read_vectors(folder / f"{TOY}.json") == (TOY, cases)
        assert list(vectors.load_all(folder))[-1] == TOY
        problems = vectors.check_all(folder)
        assert problems and not [p for p in problems if p.startswith(TOY)]  # the cut files differ; the toy's not
        assert provided_families({"protocol": 2, "provides": [TOY]}) == (TOY,)
        assert FAMILY_CLAUSES[TOY] == ("driver.splitmix",) and TOY in FORMULA_FAMILIES
        with pytest.raises(ValueError, match="registered already"):
            with family.register(_toy()):
                pass
    assert TOY not in vectors.FAMILY_BY_NAME and len(vectors.FAMILIES) == 15 and TOY not in FAMILY_CLAUSES
    with pytest.raises(InputError, match="unknown vector family"):
        vectors.read_vectors(folder / f"{TOY}.json")


def test_a_registered_family_is_in_the_clause_tables():
    from conformance.selftest.clauses.coverage import dependents, unnamed_pieces
    with family.register(_toy()):
        assert TOY in dependents([])["driver.splitmix"]["vector families"]
    assert TOY not in dependents([])["driver.splitmix"]["vector families"]
    bare = family.Family("toy_bare", ("d",), ("d",), _twice)
    with family.register(bare):
        assert "vector family toy_bare: no clauses" in unnamed_pieces([])


def test_the_census_evaluates_a_registered_family_through_its_shadow(tmp_path):
    from conformance.data.shadow import SHADOW
    from conformance.selftest.census.boundary import run_census
    with family.register(_toy()):
        folder = _folder(tmp_path)
        CALLS.clear()
        tally = run_census(folder, [])
        stored = [json.loads((folder / f"{TOY}.json").read_text(encoding="utf-8"))["cases"]]
        assert CALLS == [(vectors.decode_value("d", c["args"][0]),) for c in stored[0]]
        import sys
        shadow = sys.modules[f"{SHADOW}.data.vector_family"]
        assert shadow.FAMILY_BY_NAME[TOY].reference is _twice  # the toy is in the shadow's registry
        assert shadow.FAMILY_BY_NAME["relax"].reference is not vector_family.FAMILY_BY_NAME["relax"].reference
        assert any(source == "vectors" for _, source, _ in tally.counts)


class _WrongToy(ReferenceRunner):
    """The reference, except that it answers the toy family with x instead of 2x."""

    def vectors(self, family_name: str, args: list[list]) -> list[list]:
        if family_name == TOY:
            return [[a[0]] for a in args]
        return super().vectors(family_name, args)


def test_the_vectors_row_of_the_matrix_names_a_registered_family(tmp_path):
    with family.register(_toy()):
        folder = _folder(tmp_path)
        cell, failure = vector_cell(_WrongToy(), folder)
        assert (failure.family, failure.case) == (TOY, 0)
        assert f"first failing primitive: {TOY}, case 0 of 5 (5 bad)" in cell.reason
        assert "x=" in failure.detail and "twice=" in failure.detail
        good, failure = vector_cell(ReferenceRunner(), folder)
        assert failure is None and good.compared == 15 * 3 + 5
