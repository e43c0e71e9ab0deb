"""The toolchain fingerprint: the reference's formulas under each careless evaluation model, the
model named from a port's bits alone, the hello as evidence, and the fix in the red cell."""

from __future__ import annotations

import struct
from fractions import Fraction

import pytest

from conformance.data import vectors
from conformance.data.arith_models import FORMULA_FAMILIES, MODELS, formula, round_extended
from conformance.judge.fingerprint import HelloEvidence, fingerprint, hello_evidence, model
from conformance.judge.matrix import FamilyRun, vector_cell
from conformance.runners.base import RunnerInfo
from conformance.selftest.controls.catalogue import control_runner
from conftest import ROOT

CASES = {name: cases for name, cases in vectors.load_all(ROOT / "goldens" / "vectors").items()
         if name in FORMULA_FAMILIES}


def _bits(values) -> list[bytes]:
    return [struct.pack("<d", float(v)) for v in values]


def _port_runs(model_id: str) -> list[FamilyRun]:
    """What a port whose arithmetic is ``model_id`` answers for the committed formula cases."""
    runs = []
    for name, cases in CASES.items():
        fam = vectors.FAMILY_BY_NAME[name]
        results, bad = [], []
        for index, case in enumerate(cases):
            args = [vectors.decode_value(c, v) for c, v in zip(fam.args, case["args"])]
            got = formula(model_id, name)(*args)
            results.append([vectors.encode_value(c, v) for c, v in zip(fam.result, got)])
            want = [vectors.decode_value(c, v) for c, v in zip(fam.result, case["result"])]
            if _bits(want) != _bits(got):
                bad.append(index)
        runs.append(FamilyRun(name, cases, results, None, bad))
    return runs


@pytest.mark.parametrize("model_id", [pytest.param(m.id, marks=[pytest.mark.heavy] if m.id == "x87" else [])
                                      for m in MODELS])  # x87's extended rounding in Python: a minute
def test_a_port_built_one_careless_way_is_named_by_its_bits_alone(model_id: str) -> None:
    """Every model changes some committed formula case (the band data holds subnormals and zeros
    of both signs too), and the replay names the model from those bits alone."""
    runs = _port_runs(model_id)
    assert sum(len(r.bad) for r in runs) > 0, f"no committed formula case tells {model_id} from the reference"
    found = fingerprint(runs)
    assert found is not None and found.model.id == model_id, found
    assert found.reproduced == found.replayed and found.evidence == HelloEvidence.SILENT


def test_extended_rounding_keeps_64_significant_bits() -> None:
    third = round_extended(Fraction(1, 3))
    assert third.denominator == 2 ** 65 and abs(third - Fraction(1, 3)) <= Fraction(1, 2 ** 66)
    assert round_extended(Fraction(2 ** 64 + 1)) == 2 ** 64  # a tie to even at 65 bits
    assert round_extended(Fraction(2 ** 64 + 3)) == 2 ** 64 + 4


@pytest.mark.parametrize("model_id, flags, architecture, evidence", [
    ("fma-left", "-O2 -march=native", "x86_64", HelloEvidence.AGREES),
    ("fma-left", "-O2 -ffp-contract=off", "x86_64", HelloEvidence.CONTRADICTS),
    ("fma-left", "-O2", "x86_64", HelloEvidence.SILENT),
    ("x87", "-O2", "i386", HelloEvidence.AGREES),
    ("x87", "-O2 -msse2 -mfpmath=sse", "i386", HelloEvidence.CONTRADICTS),
    ("reciprocal", "-O2 -ffast-math", "x86_64", HelloEvidence.AGREES),
])
def test_the_hello_is_evidence_for_or_against_the_model(model_id, flags, architecture, evidence) -> None:
    info = RunnerInfo("port", "a port", platform=f"linux-{architecture}", architecture=architecture, flags=flags)
    assert hello_evidence(model(model_id), info)[0] == evidence


def test_a_fast_math_build_is_named_with_its_fix_in_the_vectors_row_and_the_scene() -> None:
    runner = control_runner("fast-math-x64")
    try:
        cell, failure = vector_cell(runner, ROOT / "goldens" / "vectors")
    finally:
        runner.close()
    found = failure.fingerprint
    assert found is not None and found.model.id == "reciprocal" and found.evidence == HelloEvidence.AGREES
    assert "-ffast-math" in found.hello and "-ffast-math" in cell.brief[1] and "fix: no -ffast-math" in cell.brief[1]
    from conformance.judge.diagnosis import Diagnosis
    from conformance.judge.cell_engine import attach_vector_failure
    diagnosis = attach_vector_failure(Diagnosis(3), failure)
    assert diagnosis.headline.endswith("fix: no -ffast-math, -Ofast or -freciprocal-math")
    assert "Math.fround" not in diagnosis.cause and "divide, never multiply by 1/x" in diagnosis.cause


@pytest.mark.parametrize("evidence, named", [(HelloEvidence.AGREES, True), (HelloEvidence.SILENT, False),
                                             (HelloEvidence.CONTRADICTS, False)])
def test_a_model_that_is_not_rounding_names_the_scene_only_when_the_hello_agrees(evidence, named) -> None:
    """A dropped sign of zero is not a rounding difference (the vectors row's ``rounding`` stays
    empty): the scene cell names it only on the port's own word, since a misreading with few bad
    cases can have half of them reproduced by a model by chance."""
    from conformance.judge.cell_engine import attach_vector_failure
    from conformance.judge.diagnosis import Diagnosis
    from conformance.judge.fingerprint import Fingerprint
    from conformance.judge.vector_failure import VectorFailure
    failure = VectorFailure("segment_constraint", 4)
    failure.fingerprint = Fingerprint(model("no-signed-zeros"), 38, 38, evidence, "-fno-signed-zeros")
    assert failure.fingerprint.decisive is named
    diagnosis = attach_vector_failure(Diagnosis(1), failure)
    assert diagnosis.vector_family == "segment_constraint"
    said = "the floating-point evaluation differs: the sign of zero dropped; fix: no -ffast-math, -Ofast or -fno-signed-zeros"
    assert (diagnosis.headline == said) is named, diagnosis.headline
