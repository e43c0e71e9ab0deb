"""Proofs that a rewrite cannot change a bit, by a bit-precise IEEE binary64 solver (Bitwuzla).

Contract: ``CLAIMS`` names each rewrite identity a reviewed survivor of the operator run may
rest on (docs/operators/equivalent.json, ``proof.claim``): the text's expression (or decision) and
the rewritten one over free binary64 inputs, rounding to nearest even.  ``prove(claim)`` asks the
solver for inputs on which the two results differ (other bits, a zero of the other sign
included; two NaNs count as equal, since a NaN ends the run whatever its bits) and returns
``("unsat", seconds)`` when there are none, or ``("sat", seconds)`` with no proof.  A proof
holds for every site the operator's rewrite matches, because it quantifies over every input of
the expression, whatever computed them.
"""

from __future__ import annotations

import time
from typing import Callable

from ...contract.float_bits import bits

SOLVER = "bitwuzla"


def _terms():
    import bitwuzla as bw
    tm = bw.TermManager()
    f64 = tm.mk_fp_sort(11, 53)
    rne = tm.mk_rm_value(bw.RoundingMode.RNE)
    return bw, tm, f64, rne


def _negate_factor(kind_name: str) -> Callable:
    """``(-a) op b`` against ``a op (-b)``."""
    def build(bw, tm, f64, rne):
        a, b = tm.mk_const(f64, "a"), tm.mk_const(f64, "b")
        kind = getattr(bw.Kind, kind_name)
        neg = bw.Kind.FP_NEG
        return (tm.mk_term(kind, [rne, tm.mk_term(neg, [a]), b]),
                tm.mk_term(kind, [rne, a, tm.mk_term(neg, [b])]))
    return build


def _square_of_root_positive(bw, tm, f64, rne):
    """``le > 0`` against ``le * le > 0`` where ``le = sqrt(x)`` (the zero-length test of a
    segment, le = |e| = sqrt(e . e)): the square of a root underflows to zero only if the root's
    argument already was zero."""
    x = tm.mk_const(f64, "x")
    le = tm.mk_term(bw.Kind.FP_SQRT, [rne, x])
    zero = tm.mk_fp_pos_zero(f64)
    return (tm.mk_term(bw.Kind.FP_GT, [le, zero]),
            tm.mk_term(bw.Kind.FP_GT, [tm.mk_term(bw.Kind.FP_MUL, [rne, le, le]), zero]))


def _past_the_parallel_test(rewrite: str) -> Callable:
    """``denom > 0`` against its rewrite, for every denom the parallel test
    ``-1e-12 <= denom && denom <= 1e-12`` let through (linear_program.c, line_interval)."""
    def build(bw, tm, f64, rne):
        d = tm.mk_const(f64, "denom")
        zero = tm.mk_fp_pos_zero(f64)
        eps = tm.mk_term(bw.Kind.FP_TO_FP_FROM_BV, [tm.mk_bv_value(tm.mk_bv_sort(64), bits(1e-12))], [11, 53])
        inside = tm.mk_term(bw.Kind.AND, [tm.mk_term(bw.Kind.FP_LEQ, [tm.mk_term(bw.Kind.FP_NEG, [eps]), d]),
                                          tm.mk_term(bw.Kind.FP_LEQ, [d, eps])])
        if rewrite == "tolerance":
            other = tm.mk_term(bw.Kind.FP_GT, [d, eps])
        else:
            f32 = tm.mk_fp_sort(8, 24)
            narrow = tm.mk_term(bw.Kind.FP_TO_FP_FROM_FP, [rne, d], [8, 24])
            other = tm.mk_term(bw.Kind.FP_GT, [narrow, tm.mk_fp_pos_zero(f32)])
        return tm.mk_term(bw.Kind.FP_GT, [d, zero]), other, tm.mk_term(bw.Kind.NOT, [inside])
    return build


CLAIMS: dict[str, tuple[str, Callable]] = {
    "negate-product": ("(-a) * b has the bits of a * (-b) for every binary64 a, b", _negate_factor("FP_MUL")),
    "negate-quotient": ("(-a) / b has the bits of a / (-b) for every binary64 a, b", _negate_factor("FP_DIV")),
    "square-of-root-positive": ("sqrt(x) > 0 exactly when sqrt(x) * sqrt(x) > 0, for every binary64 x",
                                _square_of_root_positive),
    "past-parallel-tolerance": ("denom > 0 exactly when denom > 1e-12, for every denom outside [-1e-12, 1e-12]",
                                _past_the_parallel_test("tolerance")),
    "past-parallel-float32": ("denom > 0 exactly when float32(denom) > 0, for every denom outside [-1e-12, 1e-12]",
                              _past_the_parallel_test("float32")),
}
"""claim id -> (the claim in words, a builder of the two expressions)."""


def prove(claim: str) -> tuple[str, float]:
    """("unsat", seconds) when no binary64 input tells the two expressions apart."""
    bw, tm, f64, rne = _terms()
    options = bw.Options()
    solver = bw.Bitwuzla(tm, options)
    x, y, *guard = CLAIMS[claim][1](bw, tm, f64, rne)  # guard: the inputs the claim is about (all when none)
    same = tm.mk_term(bw.Kind.EQUAL, [x, y])  # two decisions: the same truth value
    if not x.sort().is_bool():  # two numbers: the same bits, or both NaN
        both_nan = tm.mk_term(bw.Kind.AND, [tm.mk_term(bw.Kind.FP_IS_NAN, [x]), tm.mk_term(bw.Kind.FP_IS_NAN, [y])])
        same = tm.mk_term(bw.Kind.OR, [both_nan, same])
    solver.assert_formula(tm.mk_term(bw.Kind.NOT, [same]))
    for condition in guard:
        solver.assert_formula(condition)
    started = time.perf_counter()
    result = solver.check_sat()
    seconds = time.perf_counter() - started
    return ("unsat" if result == bw.Result.UNSAT else "sat"), seconds


def proof_record(claim: str) -> dict:
    """The ``proof`` object of a reviewed entry (an unsat proof only; ValueError otherwise)."""
    result, seconds = prove(claim)
    if result != "unsat":
        raise ValueError(f"claim {claim!r} does not hold: the solver found inputs that tell the two apart")
    return {"solver": SOLVER, "claim": claim, "result": "unsat", "seconds": round(seconds, 3)}
