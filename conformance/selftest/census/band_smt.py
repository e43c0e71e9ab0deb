"""Binary64 arithmetic as SMT terms (bitwuzla's floating-point theory), written like Python.

Contract: ``Problem()`` holds one query.  ``Problem.var(name)`` is a binary64 input,
``Problem.const(x)`` an exact constant; ``F`` terms take ``+ - * /``, unary ``-``, ``sqrt()``
and ``f32()`` (rounding to binary32), all to nearest, ties to even, as IEEE 754 and Python's
floats do, and compare into ``B`` terms (``lt le gt ge eq ne`` with IEEE semantics: -0 == +0,
NaN unequal) that combine with ``& | ~``; ``ite(b, x, y)`` selects.  ``Problem.check()``
answers ``sat``, ``unsat`` or ``unknown`` (out of the time given to ``Problem(seconds)``); after ``sat``, ``Problem.value(x)``
is the model's double.  Used only by selftest/census/band_solver.py, never at test or CI time (bitwuzla
comes with the ``test`` extra).
"""

from __future__ import annotations

import struct

import bitwuzla as bw

K = bw.Kind


class Problem:
    """One satisfiability query over binary64 inputs."""

    def __init__(self, seconds: float = 60.0):
        self.tm = bw.TermManager()
        options = bw.Options()
        options.set(bw.Option.PRODUCE_MODELS, True)
        options.set(bw.Option.TIME_LIMIT_PER, int(seconds * 1000))
        self.solver = bw.Bitwuzla(self.tm, options)
        self.f64 = self.tm.mk_fp_sort(11, 53)
        self.f32_sort = self.tm.mk_fp_sort(8, 24)
        self.rne = self.tm.mk_rm_value(bw.RoundingMode.RNE)
        self.vars: dict[str, F] = {}
        self.boxes: list[str] = []
        """The ranges the encoding put its inputs in (the bound of an ``unsat``)."""

    def var(self, name: str) -> "F":
        """A binary64 input, finite (never NaN nor an infinity)."""
        term = F(self, self.tm.mk_const(self.f64, name))
        self.vars[name] = term
        self.assume(~B(self, self.tm.mk_term(K.OR, [self.tm.mk_term(K.FP_IS_NAN, [term.t]),
                                                      self.tm.mk_term(K.FP_IS_INF, [term.t])])))
        return term

    def const(self, x: float) -> "F":
        bits = struct.unpack("<Q", struct.pack("<d", x))[0]
        bv = self.tm.mk_bv_value(self.tm.mk_bv_sort(64), bits)
        return F(self, self.tm.mk_term(K.FP_TO_FP_FROM_BV, [bv], [11, 53]))

    def assume(self, condition: "B") -> None:
        self.solver.assert_formula(condition.t)

    def check(self) -> str:
        result = self.solver.check_sat()
        return {bw.Result.SAT: "sat", bw.Result.UNSAT: "unsat"}.get(result, "unknown")

    def value(self, x: "F") -> float:
        bits = self.solver.get_value(x.t).value(fp_as_tuple=False)
        return struct.unpack("<d", struct.pack("<Q", int(bits, 2)))[0]

    def lift(self, x: "F | float") -> "F":
        return x if isinstance(x, F) else self.const(float(x))


class F:
    """A binary64 term."""

    def __init__(self, p: Problem, t):
        self.p = p
        self.t = t

    def _op(self, kind, other, swap: bool = False) -> "F":
        other = self.p.lift(other)
        a, b = (other, self) if swap else (self, other)
        return F(self.p, self.p.tm.mk_term(kind, [self.p.rne, a.t, b.t]))

    def __add__(self, o): return self._op(K.FP_ADD, o)
    def __radd__(self, o): return self._op(K.FP_ADD, o, True)
    def __sub__(self, o): return self._op(K.FP_SUB, o)
    def __rsub__(self, o): return self._op(K.FP_SUB, o, True)
    def __mul__(self, o): return self._op(K.FP_MUL, o)
    def __rmul__(self, o): return self._op(K.FP_MUL, o, True)
    def __truediv__(self, o): return self._op(K.FP_DIV, o)
    def __rtruediv__(self, o): return self._op(K.FP_DIV, o, True)

    def __neg__(self) -> "F":
        return F(self.p, self.p.tm.mk_term(K.FP_NEG, [self.t]))

    def sqrt(self) -> "F":
        return F(self.p, self.p.tm.mk_term(K.FP_SQRT, [self.p.rne, self.t]))

    def f32(self) -> "F":
        """Rounded to binary32 (then exactly widened back, so it compares with binary64 terms)."""
        narrow = self.p.tm.mk_term(K.FP_TO_FP_FROM_FP, [self.p.rne, self.t], [8, 24])
        return F(self.p, self.p.tm.mk_term(K.FP_TO_FP_FROM_FP, [self.p.rne, narrow], [11, 53]))

    def _cmp(self, kind, other) -> "B":
        return B(self.p, self.p.tm.mk_term(kind, [self.t, self.p.lift(other).t]))

    def lt(self, o): return self._cmp(K.FP_LT, o)
    def le(self, o): return self._cmp(K.FP_LEQ, o)
    def gt(self, o): return self._cmp(K.FP_GT, o)
    def ge(self, o): return self._cmp(K.FP_GEQ, o)
    def eq(self, o): return self._cmp(K.FP_EQUAL, o)
    def ne(self, o): return ~self._cmp(K.FP_EQUAL, o)

    def cmp(self, op: str, o) -> "B":
        """The comparison written as Python's operator text (``<``, ``<=``, ...)."""
        return {"<": self.lt, "<=": self.le, ">": self.gt, ">=": self.ge, "==": self.eq, "!=": self.ne}[op](o)

    def is_neg_zero(self) -> "B":
        tm = self.p.tm
        return B(self.p, tm.mk_term(K.AND, [tm.mk_term(K.FP_IS_ZERO, [self.t]), tm.mk_term(K.FP_IS_NEG, [self.t])]))

    def is_pos_zero(self) -> "B":
        tm = self.p.tm
        return B(self.p, tm.mk_term(K.AND, [tm.mk_term(K.FP_IS_ZERO, [self.t]), tm.mk_term(K.FP_IS_POS, [self.t])]))

    def abs(self) -> "F":
        return F(self.p, self.p.tm.mk_term(K.FP_ABS, [self.t]))


class B:
    """A Boolean term."""

    def __init__(self, p: Problem, t):
        self.p = p
        self.t = t

    def __and__(self, o: "B") -> "B":
        return B(self.p, self.p.tm.mk_term(K.AND, [self.t, o.t]))

    def __or__(self, o: "B") -> "B":
        return B(self.p, self.p.tm.mk_term(K.OR, [self.t, o.t]))

    def __invert__(self) -> "B":
        return B(self.p, self.p.tm.mk_term(K.NOT, [self.t]))


def ite(condition: B, x: F, y: F) -> F:
    """x where the condition holds, else y."""
    return F(condition.p, condition.p.tm.mk_term(K.ITE, [condition.t, x.t, y.t]))


def in_band(kind: str, op: str, a: F, b: F) -> B:
    """The band ``kind`` of data/band_kinds.py for the comparison ``a op b``, as a formula."""
    if kind == "tolerance":
        return a.ne(b) & (a - b).abs().le(1e-5)
    same = a.cmp(op, b)
    other = {"float32": lambda: a.f32().cmp(op, b.f32()), "roots": lambda: a.sqrt().cmp(op, b.sqrt()),
             "squares": lambda: (a * a).cmp(op, b * b)}.get(kind)
    if other is not None:
        flipped = other()
        return a.ne(b) & ((same & ~flipped) | (~same & flipped))
    if kind == "signed-zeros":
        return (a.is_neg_zero() & b.is_pos_zero()) | (a.is_pos_zero() & b.is_neg_zero())
    raise ValueError(kind)
