"""The reference's formula primitives evaluated under another arithmetic: how a careless toolchain
computes them.

Contract: ``MODELS`` names each evaluation model a port's build may fall into, as a frozen
``Model`` (its id, what it is in words, and the fix for it).  ``formula(model_id, family)`` is
the reference function of a formula primitive family (``FORMULA_FAMILIES`` below) with every
``+ - * /`` and ``sqrt`` of the solver's modules (``solver.halfplane``, ``solver.obstacle``,
``solver.constraint``) rewritten into the model's operations; its results are doubles, as a
port's are.  The reference itself is never touched: the rewritten modules live in dictionaries
of their own, compiled once per model and process.

The models (each an operation-by-operation rule, exact where IEEE 754 is exact):
- ``fma-left`` / ``fma-right``: every ``a*b + c``, ``a*b - c``, ``c + a*b``, ``c - a*b`` rounded
  once (a fused multiply-add); in ``a*b ± c*d`` the left, or the right, product is the fused one
  (a contracting compiler picks one; C's ``-ffp-contract=fast``, Rust's ``mul_add``).
- ``x87``: every operation rounded to the 64-bit significand of the x87's extended format, a
  value rounded to a double only where it is stored (an assignment, a return): double rounding.
- ``reciprocal``: ``a / b`` as ``a * (1 / b)`` (``-freciprocal-math``).
- ``ftz``: subnormal operands and results as zeros of their sign (flush-to-zero, DAZ).
- ``no-signed-zeros``: every zero result is ``+0.0`` (``-fno-signed-zeros``).
- ``float32``: every result rounded to binary32 and back (storage in ``float``).
Integer arithmetic (indices, counts) stays exact in every model.
"""

from __future__ import annotations

import ast
import math
import struct
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Callable

from .. import shipped
from ..contract.fused import fma, round_to_double
from .vector_family import FAMILIES

FORMULA_FAMILIES = FAMILIES.names(lambda f: f.arith_model)
"""The formula primitives whose arithmetic the models replay (their code is the modules below):
the records' ``arith_model`` flag, a live sequence of names."""
MODULES = ("halfplane", "obstacle", "constraint")
"""The solver's modules that hold them, in import order."""


@dataclass(frozen=True)
class Model:
    """One evaluation model: ``id``, ``what`` it is, ``fix``: the one change that removes it in C
    and C++ (a red cell's line), and ``fixes``: the same for the other languages."""

    id: str
    what: str
    fix: str
    fixes: str


_NO_FUSE = ("Rust: no mul_add; C#: no Math.FusedMultiplyAdd; C++: no std::fma; JavaScript: no library fma")
_NO_FAST = "C#/Java/JavaScript: nothing rewrites arithmetic (no library 'fast' math); Rust: no fast-math intrinsics"
MODELS: tuple[Model, ...] = (
    Model("fma-left", "fused multiply-add (FMA contraction)",
          "-ffp-contract=off (contraction is on by default on arm64 and under -march=native)", _NO_FUSE),
    Model("fma-right", "fused multiply-add (FMA contraction, the right-hand product of a*b - c*d fused)",
          "-ffp-contract=off (contraction is on by default on arm64 and under -march=native)", _NO_FUSE),
    Model("x87", "x87 extended precision (80-bit intermediates rounded twice)",
          "-msse2 -mfpmath=sse on 32-bit x86 (or build for x86-64)",
          "C#/Java: run as a 64-bit process (SSE2); Rust: an i686 target with SSE2, not i586"),
    Model("reciprocal", "divisions taken as multiplications by a reciprocal",
          "no -ffast-math, -Ofast or -freciprocal-math", _NO_FAST + "; divide, never multiply by 1/x"),
    Model("ftz", "subnormals flushed to zero (FTZ/DAZ)",
          "no -ffast-math or -Ofast when linking (crtfastmath sets FTZ/DAZ); never set MXCSR or FPCR",
          "C#/Rust: never set the FPU control register; JavaScript: nothing to change"),
    Model("no-signed-zeros", "the sign of zero dropped",
          "no -ffast-math, -Ofast or -fno-signed-zeros", "JavaScript: keep -0 (no x || 0); C#/Rust: keep -0.0"),
    Model("float32", "values stored in single precision (float32)",
          "double everywhere (no float)", "C#: no float or MathF; JavaScript: no Math.fround; Rust: f64"),
)
MODEL_BY_ID = {m.id: m for m in MODELS}
FUSED = ("fma-left", "fma-right")
"""The contraction models (one slip, two ways a compiler picks the product it fuses)."""


def _ints(a, b) -> bool:
    return type(a) is int and type(b) is int


class _Arith:
    """One model's operations, called by the rewritten code: ``add``, ``sub``, ``mul``, ``div``,
    ``sqrt``, ``fused(a, b, c, sign)`` for a contracted ``c + sign * a*b`` (or ``a*b - c``: see
    ``_Rewrite``) and ``store`` at each assignment and return."""

    def __init__(self, model: str):
        self.model = model

    # -- rounding of one result ----------------------------------------------------------------
    def _result(self, exact: Fraction | float):
        model = self.model
        if model == "x87":
            return exact if isinstance(exact, Fraction) else Fraction(exact)
        value = exact
        if model == "float32":
            try:
                value = struct.unpack("f", struct.pack("f", value))[0]
            except OverflowError:
                value = math.copysign(math.inf, value)
        elif model == "ftz" and value != 0.0 and abs(value) < 2.2250738585072014e-308:
            value = math.copysign(0.0, value)
        elif model == "no-signed-zeros" and value == 0.0:
            value = 0.0
        return value

    def _in(self, a):
        """An operand as the model reads it (DAZ: a subnormal is a zero)."""
        if self.model == "ftz" and isinstance(a, float) and a != 0.0 and abs(a) < 2.2250738585072014e-308:
            return math.copysign(0.0, a)
        return a

    def _x87(self, a, b, op) -> Fraction | float:
        """An x87 operation: exact, then rounded to a 64-bit significand; IEEE specials as doubles."""
        fa, fb = _double(a), _double(b)  # an extended value past the double range is an infinity here
        if not (math.isfinite(fa) and math.isfinite(fb)) or (op == "/" and b == 0):
            return op_double(fa, fb, op)
        exact = {"+": Fraction(a) + Fraction(b), "-": Fraction(a) - Fraction(b),
                 "*": Fraction(a) * Fraction(b), "/": Fraction(a) / Fraction(b) if b else Fraction(0)}[op]
        return round_extended(exact) if exact != 0 else op_double(fa, fb, op)

    def _op(self, a, b, op):
        if _ints(a, b):
            return {"+": a + b, "-": a - b, "*": a * b, "/": a / b}[op]
        if self.model == "x87":
            return self._x87(a, b, op)
        a, b = self._in(a), self._in(b)
        if op == "/" and self.model == "reciprocal":
            return self._result(op_double(a, op_double(1.0, b, "/"), "*"))
        return self._result(op_double(a, b, op))

    def add(self, a, b):
        return self._op(a, b, "+")

    def sub(self, a, b):
        return self._op(a, b, "-")

    def mul(self, a, b):
        return self._op(a, b, "*")

    def div(self, a, b):
        return self._op(a, b, "/")

    def fused(self, a, b, c, negate_product: bool, negate_c: bool):
        """``(±a*b) + (±c)`` rounded once (the fma models; the others never see it)."""
        x = -_double(a) if negate_product else _double(a)
        return fma(x, _double(b), -_double(c) if negate_c else _double(c))

    def sqrt(self, a):
        if self.model == "x87" and isinstance(a, Fraction):
            return round_extended_sqrt(a)
        value = self._in(_double(a))
        return self._result(math.sqrt(value) if value >= 0 else math.nan)

    def store(self, value):
        """A value as stored in a double: the x87 model's second rounding; tuples element-wise."""
        if isinstance(value, tuple):
            return tuple(self.store(v) for v in value)
        if isinstance(value, Fraction):
            return round_to_double(value)
        return value


def _double(value) -> float:
    """A float as it is; an extended (Fraction) value rounded once to a double (an infinity past
    the range)."""
    return round_to_double(value) if isinstance(value, Fraction) else float(value)


def op_double(a: float, b: float, op: str) -> float:
    """One IEEE binary64 operation (Python's own float arithmetic), a division by zero as IEEE."""
    if op == "/" and b == 0.0:
        if a == 0.0 or math.isnan(a):
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else 0.0}[op]


def round_extended(value: Fraction) -> Fraction:
    """``value`` rounded to the x87 extended format's 64-bit significand (nearest, ties to even;
    its exponent range is wide enough for every value the solver makes).  The binary64 rounding
    of ``contract.fused`` with 64 bits and no lower exponent (that module stays as it is: the
    band search's reviews are keyed by its bytes)."""
    if value == 0:
        return value
    magnitude = abs(value)
    e = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    e += -1 if Fraction(2) ** e > magnitude else 1 if Fraction(2) ** (e + 1) <= magnitude else 0
    quantum = Fraction(2) ** (e - 63)
    scaled = magnitude / quantum
    n = scaled.numerator // scaled.denominator
    if scaled - n > Fraction(1, 2) or (scaled - n == Fraction(1, 2) and n % 2 == 1):
        n += 1
    return n * quantum if value > 0 else -(n * quantum)


def round_extended_sqrt(value: Fraction) -> Fraction | float:
    """The square root of ``value`` rounded to 64 significant bits (a NaN for a negative value)."""
    if value < 0:
        return math.nan
    if value == 0:
        return value
    scale = 2 * (140 - value.numerator.bit_length() // 2 + value.denominator.bit_length() // 2)
    root = math.isqrt(value.numerator * 4 ** (scale // 2 + 70) // value.denominator)
    return round_extended(Fraction(root, 2 ** (scale // 2 + 70)))


class _Rewrite(ast.NodeTransformer):
    """Every float operation into a call of ``_arith`` (with ``fma``: the contractions), every
    assignment's and return's value through ``_arith.store``, the solver's imports dropped (the
    loader binds those names)."""

    OPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div"}

    def __init__(self, contract: str | None):
        self.contract = contract  # None, "left" or "right"

    def visit_ImportFrom(self, node: ast.ImportFrom):
        return None if node.module != "__future__" else node

    def visit_Assign(self, node: ast.Assign):
        self.generic_visit(node)
        node.value = _call("store", [node.value])
        return node

    def visit_Return(self, node: ast.Return):
        self.generic_visit(node)
        if node.value is not None:
            node.value = _call("store", [node.value])
        return node

    def visit_BinOp(self, node: ast.BinOp):
        if type(node.op) not in self.OPS:
            return self.generic_visit(node)
        fused = self._contraction(node) if self.contract else None
        if fused is not None:
            return fused
        self.generic_visit(node)
        return _call(self.OPS[type(node.op)], [node.left, node.right])

    def _contraction(self, node: ast.BinOp):
        """``a*b ± c`` or ``c ± a*b`` as one fused call (the left or right product of two)."""
        products = contraction_sides(node)
        if not products:
            return None
        side = products[-1] if self.contract == "right" else products[0]
        return fused_call(node, side, self.visit, lambda a, b, c, np, nc: _call("fused", [a, b, c, np, nc]))


def contraction_sides(node: ast.AST) -> tuple[str, ...]:
    """The sides (``"left"``, ``"right"``) of a ``+`` or ``-`` whose operand is a product: each is a
    product a contracting compiler may fuse with the other operand (none: not a contraction site)."""
    if not isinstance(node, ast.BinOp) or not isinstance(node.op, (ast.Add, ast.Sub)):
        return ()
    return tuple(side for side in ("left", "right")
                 if isinstance(getattr(node, side), ast.BinOp) and isinstance(getattr(node, side).op, ast.Mult))


def fused_call(node: ast.BinOp, side: str, visit: Callable[[ast.AST], ast.AST],
               call: Callable[..., ast.expr]) -> ast.expr:
    """The contraction site ``node`` with its ``side`` product fused, as ``call(a, b, c,
    negate_product, negate_c)`` (each an AST node: ``(±a*b) + (±c)`` rounded once); ``visit``
    rewrites the operands first."""
    product, other = getattr(node, side), getattr(node, "right" if side == "left" else "left")
    a, b, c = visit(product.left), visit(product.right), visit(other)
    subtract = isinstance(node.op, ast.Sub)
    negate_product = subtract and side == "right"   # c - a*b
    negate_c = subtract and side == "left"          # a*b - c
    return call(a, b, c, ast.Constant(negate_product), ast.Constant(negate_c))


def _call(name: str, args: list[ast.expr]) -> ast.Call:
    return ast.Call(ast.Attribute(ast.Name("_arith", ast.Load()), name, ast.Load()), args, [])


@lru_cache(maxsize=None)
def _namespace(model: str) -> dict:
    """The solver's formula modules rewritten for ``model``, executed in one dictionary."""
    contract = {"fma-left": "left", "fma-right": "right"}.get(model)
    arith = _Arith(model)
    names: dict = {"_arith": arith, "sqrt": arith.sqrt, "__name__": f"arith_model_{model}"}
    for module in MODULES:
        path = shipped.PACKAGE / "solver" / f"{module}.py"
        tree = ast.fix_missing_locations(_Rewrite(contract).visit(ast.parse(path.read_text(encoding="utf-8"))))
        exec(compile(tree, f"{path} [{model}]", "exec"), names)
    names["sqrt"] = arith.sqrt
    return names


def formula(model: str, family: str) -> Callable:
    """The reference function of ``family`` (one of ``FORMULA_FAMILIES``) under ``model``, taking
    the family's decoded arguments and giving its results as a tuple of doubles."""
    names = _namespace(model)
    if family == "segment_distance_squared":
        return lambda ax, ay, bx, by: (float(names["segment_distance_squared"](ax, ay, bx, by)),)
    if family == "support_distance":
        return lambda ax, ay, bx, by, r, tau, xx, xy, ov: tuple(
            float(v) for v in names["support_distance"](ax, ay, bx, by, r, tau, xx, xy, bool(ov)))
    return lambda *args: tuple(float(v) for v in names[family](*args))
