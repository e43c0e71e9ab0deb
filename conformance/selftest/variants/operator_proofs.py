"""Proofs that a rewrite cannot change a bit, by a bit-precise IEEE binary64 solver (Bitwuzla).

Contract: ``CLAIMS`` names each rewrite identity a reviewed survivor of the operator run may
rest on (docs/operators/equivalent.json, ``proof.claim``): one or more ``Query`` records, each
the text's expression (or decision) and the rewritten one over free binary64 inputs, rounding to
nearest even, with the inputs it is about (``guards``).  ``prove(claim)`` asks the solver, query
by query, for inputs on which the two results differ (other bits, a zero of the other sign
included; two NaNs count as equal, since a NaN ends the run whatever its bits; with
``zeros_alike`` two zeros of either sign count as equal too) and returns ``("unsat", seconds)``
when no query has any, or ``("sat", seconds)`` with no proof.  A claim of several queries is a
chain: each step's results agree, or are zeros that the next step proves it cannot tell apart,
and equal inputs give equal results (an expression is a function of its inputs).  A proof holds
for every site the operator's rewrite matches, because it quantifies over every input of the
expression, whatever computed them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable

from ...contract.float_bits import bits

SOLVER = "bitwuzla"


def _terms():
    import bitwuzla as bw
    tm = bw.TermManager()
    f64 = tm.mk_fp_sort(11, 53)
    rne = tm.mk_rm_value(bw.RoundingMode.RNE)
    return bw, tm, f64, rne


@dataclass(frozen=True)
class Query:
    """One solver query of a claim: ``text`` and ``rewrite`` agree on every input ``guards`` allow."""

    text: Any
    rewrite: Any
    guards: tuple = ()
    zeros_alike: bool = False
    """Two zeros of opposite signs count as agreeing (the claim's next query shows why)."""


def _negate_factor(kind_name: str) -> Callable:
    """``(-a) op b`` against ``a op (-b)``."""
    def build(bw, tm, f64, rne):
        a, b = tm.mk_const(f64, "a"), tm.mk_const(f64, "b")
        kind = getattr(bw.Kind, kind_name)
        neg = bw.Kind.FP_NEG
        return [Query(tm.mk_term(kind, [rne, tm.mk_term(neg, [a]), b]),
                      tm.mk_term(kind, [rne, a, tm.mk_term(neg, [b])]))]
    return build


def _square_of_root_positive(bw, tm, f64, rne):
    """``le > 0`` against ``le * le > 0`` where ``le = sqrt(x)`` (the zero-length test of a
    segment, le = |e| = sqrt(e . e)): the square of a root underflows to zero only if the root's
    argument already was zero."""
    x = tm.mk_const(f64, "x")
    le = tm.mk_term(bw.Kind.FP_SQRT, [rne, x])
    zero = tm.mk_fp_pos_zero(f64)
    return [Query(tm.mk_term(bw.Kind.FP_GT, [le, zero]),
                  tm.mk_term(bw.Kind.FP_GT, [tm.mk_term(bw.Kind.FP_MUL, [rne, le, le]), zero]))]


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
        return [Query(tm.mk_term(bw.Kind.FP_GT, [d, zero]), other, (tm.mk_term(bw.Kind.NOT, [inside]),))]
    return build


SEGMENT_DOMAIN = float(2 ** 22)
"""The largest magnitude of a segment end relative to an agent: both are positions, which cross
the library boundary below 2^21 (the text's first paragraph), so their difference is below 2^22."""


def _library_clamp(rewrite: str) -> Callable:
    """The segment's clamp of t as a library max or min (``fmax(t, 0.0)``, ``fmax(0.0, t)``,
    ``fmin(t, 1.0)``, ``fmin(1.0, t)``) against the text's ``t < 0`` then ``t > 1``, through to
    the squared distance a + e*t squared and summed (obstacle.c, oc_SegmentDistanceSquared).

    A library max or min may return either zero when its operands are zeros of opposite signs
    (C leaves it open; x86's maxsd returns its second operand): a free choice models both.  The
    chain: (1) on the domain (ends below 2^22, e.e not zero) t = -(a.e)/(e.e) is no NaN;
    (2) for every t that is no NaN both clamps give the same value, or zeros; (3) e times
    either zero is a zero, for a finite e; (4) a plus either zero agrees, or is a zero, for a
    finite a; (5) either zero squared is +0.  So the squared distance has the same bits."""
    def build(bw, tm, f64, rne):
        K = bw.Kind

        def term(kind, *args):
            return tm.mk_term(kind, list(args))

        def const(value: float):
            return tm.mk_term(K.FP_TO_FP_FROM_BV, [tm.mk_bv_value(tm.mk_bv_sort(64), bits(value))], [11, 53])

        def add(x, y):
            return term(K.FP_ADD, rne, x, y)

        def mul(x, y):
            return term(K.FP_MUL, rne, x, y)

        def finite(x):
            return term(K.NOT, term(K.OR, term(K.FP_IS_NAN, x), term(K.FP_IS_INF, x)))

        zero, one = tm.mk_fp_pos_zero(f64), const(1.0)
        ax, ay, bx, by, t, e, a, z1, z2 = (tm.mk_const(f64, n) for n in ("ax", "ay", "bx", "by", "t", "e", "a",
                                                                          "z1", "z2"))
        pick = tm.mk_const(tm.mk_bool_sort(), "pick")

        def library(x, y, smaller: bool):
            before = (lambda p, q: term(K.FP_LT, p, q)) if smaller else (lambda p, q: term(K.FP_GT, p, q))
            return term(K.ITE, term(K.FP_IS_NAN, x), y, term(K.ITE, term(K.FP_IS_NAN, y), x,
                        term(K.ITE, before(x, y), x, term(K.ITE, before(y, x), y, term(K.ITE, pick, x, y)))))

        ex, ey = term(K.FP_SUB, rne, bx, ax), term(K.FP_SUB, rne, by, ay)
        ee = add(mul(ex, ex), mul(ey, ey))
        quotient = term(K.FP_DIV, rne, term(K.FP_NEG, add(mul(ax, ex), mul(ay, ey))), ee)
        limit = const(SEGMENT_DOMAIN)
        domain = tuple(term(K.FP_LEQ, term(K.FP_ABS, v), limit) for v in (ax, ay, bx, by))
        text = term(K.ITE, term(K.FP_LT, t, zero), zero, term(K.ITE, term(K.FP_GT, t, one), one, t))
        if rewrite.startswith("max"):
            low = library(t, zero, False) if rewrite == "max-first" else library(zero, t, False)
            other = term(K.ITE, term(K.FP_GT, low, one), one, low)
        else:
            high = library(t, one, True) if rewrite == "min-first" else library(one, t, True)
            other = term(K.ITE, term(K.FP_LT, t, zero), zero, high)
        zeros = (term(K.FP_IS_ZERO, z1), term(K.FP_IS_ZERO, z2))
        return [Query(term(K.FP_IS_NAN, quotient), tm.mk_false(), domain + (term(K.NOT, term(K.FP_IS_ZERO, ee)),)),
                Query(text, other, (term(K.NOT, term(K.FP_IS_NAN, t)),), zeros_alike=True),
                Query(mul(e, z1), mul(e, z2), (finite(e),) + zeros, zeros_alike=True),
                Query(add(a, z1), add(a, z2), (finite(a),) + zeros, zeros_alike=True),
                Query(mul(z1, z1), mul(z2, z2), zeros)]
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
    **{f"segment-clamp-{rewrite}": (f"the segment's clamp of t by {call} gives the squared distance the text's "
                                    "comparisons give, for every segment end within the position domain",
                                    _library_clamp(rewrite))
       for rewrite, call in (("max-first", "fmax(t, 0.0)"), ("max-second", "fmax(0.0, t)"),
                             ("min-first", "fmin(t, 1.0)"), ("min-second", "fmin(1.0, t)"))},
}
"""claim id -> (the claim in words, a builder of the two expressions)."""


def _disagree(bw, tm, query: Query):
    """The formula "the two results of ``query`` differ" (the module's contract)."""
    x, y = query.text, query.rewrite
    same = tm.mk_term(bw.Kind.EQUAL, [x, y])  # two decisions: the same truth value
    if not x.sort().is_bool():  # two numbers: the same bits, or both NaN (or both zeros)
        alike = [tm.mk_term(bw.Kind.AND, [tm.mk_term(bw.Kind.FP_IS_NAN, [x]), tm.mk_term(bw.Kind.FP_IS_NAN, [y])])]
        if query.zeros_alike:
            alike.append(tm.mk_term(bw.Kind.AND, [tm.mk_term(bw.Kind.FP_IS_ZERO, [x]),
                                                  tm.mk_term(bw.Kind.FP_IS_ZERO, [y])]))
        same = tm.mk_term(bw.Kind.OR, [*alike, same])
    return tm.mk_term(bw.Kind.NOT, [same])


def prove(claim: str) -> tuple[str, float]:
    """("unsat", seconds) when no binary64 input tells the two expressions of any of the claim's
    queries apart (seconds: the solver's time over all of them)."""
    bw, tm, f64, rne = _terms()
    seconds = 0.0
    for query in CLAIMS[claim][1](bw, tm, f64, rne):
        solver = bw.Bitwuzla(tm, bw.Options())
        solver.assert_formula(_disagree(bw, tm, query))
        for condition in query.guards:
            solver.assert_formula(condition)
        started = time.perf_counter()
        result = solver.check_sat()
        seconds += time.perf_counter() - started
        if result != bw.Result.UNSAT:
            return "sat", seconds
    return "unsat", seconds


def proof_record(claim: str) -> dict:
    """The ``proof`` object of a reviewed entry (an unsat proof only; ValueError otherwise)."""
    result, seconds = prove(claim)
    if result != "unsat":
        raise ValueError(f"claim {claim!r} does not hold: the solver found inputs that tell the two apart")
    return {"solver": SOLVER, "claim": claim, "result": "unsat", "seconds": round(seconds, 3)}
