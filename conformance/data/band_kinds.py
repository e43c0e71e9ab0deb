"""Rounding bands: which floating-point rewrite of a decision could flip it, and whether a pair of
operands sits where it would.

Contract: ``BANDS`` names the band kinds (docs/boundaries.md defines them; other tools refer to
these exact names).  ``FunctionFacts(function, returns)`` reads one function of the reference
once (which names are integers, squared quantities or roots, from their bindings in the
function); ``compare_bands(left, right, facts, selects)`` is the tuple of kinds that apply to
one comparison, decided from its syntax alone; ``in_bands(kinds, op, a, b)`` is the sub-tuple
of kinds whose band holds the operands a, b of one evaluation; ``tie_in_band(keys)`` says
whether a list of sort keys holds two distinct keys with equal square roots.  Nothing here
imports the solver: the shadow uses it to instrument the reference, the solver module to check
what it found.
"""

from __future__ import annotations

import ast
import ctypes
import math
import operator
from typing import Callable, Iterable

BANDS = ("tolerance", "float32", "roots", "squares", "signed-zeros", "ties")
"""Every band kind, in the census's column order."""

TOLERANCE_BAND = 1e-5
"""Largest |a - b| of the ``tolerance`` band (the widest added tolerance it stands for)."""

OPS: dict[str, Callable] = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
                            "==": operator.eq, "!=": operator.ne}


class FunctionFacts:
    """What one function's bindings say about its names: integers, squares, roots."""

    def __init__(self, function: ast.FunctionDef | None, returns: dict[str, tuple[str, ...]]):
        self.bindings: dict[str, list[ast.expr | None]] = {}
        """name -> every expression bound to it in the function (None: not an expression we read)."""
        self.ints: set[str] = set()
        if function is None:
            return
        for arg in function.args.args + function.args.kwonlyargs:
            if arg.annotation is not None and ast.unparse(arg.annotation) == "int":
                self.ints.add(arg.arg)
        for node in ast.walk(function):
            self._bind(node, returns)
        changed = True
        while changed:  # a name bound only to integer expressions is an integer
            changed = False
            for name, values in self.bindings.items():
                if name not in self.ints and values and all(v is not None and self.is_int(v) for v in values):
                    self.ints.add(name)
                    changed = True

    def _add(self, target: ast.expr, value: ast.expr | None) -> None:
        if isinstance(target, ast.Name):
            self.bindings.setdefault(target.id, []).append(value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self._add(element, None)

    def _bind(self, node: ast.AST, returns: dict[str, tuple[str, ...]]) -> None:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Call):
                    self._unpack(target, node.value, returns)
                else:
                    self._add(target, node.value)
        elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
            self._add(node.target, node.value)
        elif isinstance(node, ast.AugAssign):
            self._add(node.target, ast.BinOp(node.target, node.op, node.value))
        elif isinstance(node, (ast.For, ast.comprehension)):
            ranged = isinstance(node.iter, ast.Call) and _name(node.iter.func) == "range"
            self._add(node.target, ast.Constant(0) if ranged else None)

    def _unpack(self, target: ast.Tuple, call: ast.Call, returns: dict[str, tuple[str, ...]]) -> None:
        """``x, y, failed = solve_closest(...)``: each name takes the annotated type of its place."""
        types = returns.get(_name(call.func) or "", ())
        for k, element in enumerate(target.elts):
            known = k < len(types) and len(types) == len(target.elts) and types[k] == "int"
            self._add(element, ast.Constant(0) if known else None)

    def is_int(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Constant):
            return type(node.value) is int
        if isinstance(node, ast.Name):
            return node.id in self.ints
        if isinstance(node, ast.Call):
            return _name(node.func) == "len"
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv)):
            return self.is_int(node.left) and self.is_int(node.right)
        if isinstance(node, ast.UnaryOp):
            return self.is_int(node.operand)
        return False

    def _all_bound(self, name: str, test: Callable[[ast.expr, frozenset], bool], seen: frozenset) -> bool:
        values = self.bindings.get(name, [])
        return (name not in seen and bool(values)
                and all(v is not None and test(v, seen | {name}) for v in values))

    def is_squared(self, node: ast.expr, seen: frozenset = frozenset()) -> bool:
        """x*x, a product or sum of squares (a dot of a vector with itself), a *_squared call,
        or a name every binding of which is one of those."""
        if isinstance(node, ast.NamedExpr):
            return self.is_squared(node.value, seen)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            return (ast.dump(node.left) == ast.dump(node.right)
                    or (self.is_squared(node.left, seen) and self.is_squared(node.right, seen)))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self.is_squared(node.left, seen) and self.is_squared(node.right, seen)
        if isinstance(node, ast.Call):
            return (_name(node.func) or "").endswith("_squared")
        if isinstance(node, ast.Name):
            return self._all_bound(node.id, self.is_squared, seen)
        return False

    def is_root(self, node: ast.expr, seen: frozenset = frozenset()) -> bool:
        """sqrt(...), or a name every binding of which is one (a length)."""
        if isinstance(node, ast.NamedExpr):
            return self.is_root(node.value, seen)
        if isinstance(node, ast.Call):
            return _name(node.func) == "sqrt"
        if isinstance(node, ast.Name):
            return self._all_bound(node.id, self.is_root, seen)
        return False


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def return_types(trees: Iterable[ast.Module]) -> dict[str, tuple[str, ...]]:
    """Function name -> the element types of its ``tuple[...]`` return annotation."""
    out: dict[str, tuple[str, ...]] = {}
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and isinstance(node.returns, ast.Subscript):
                inner = node.returns.slice
                if ast.unparse(node.returns.value) == "tuple" and isinstance(inner, ast.Tuple):
                    out[node.name] = tuple(ast.unparse(e) for e in inner.elts)
    return out


def compare_bands(left: ast.expr, right: ast.expr, facts: FunctionFacts, selects: bool) -> tuple[str, ...]:
    """The band kinds of one comparison: none for integers; tolerance and float32 for every
    comparison of floats; roots where a side is squared; squares where a side is a root;
    signed-zeros where the comparison selects one of its sides (``selects``)."""
    if facts.is_int(left) or facts.is_int(right):
        return ()
    kinds = ["tolerance", "float32"]
    if facts.is_squared(left) or facts.is_squared(right):
        kinds.append("roots")
    if facts.is_root(left) or facts.is_root(right):
        kinds.append("squares")
    if selects:
        kinds.append("signed-zeros")
    return tuple(kinds)


def selections(node: ast.If | ast.IfExp) -> list[ast.Compare]:
    """The comparisons of an ``if`` or a conditional expression that select one of their own
    sides: ``b if b < a else a``, ``if t < lo: t = lo``, ``if v > best: best = v``."""
    tests = [n for n in ast.walk(node.test) if isinstance(n, ast.Compare) and len(n.ops) == 1]
    if isinstance(node, ast.IfExp):
        values = {ast.unparse(node.body), ast.unparse(node.orelse)}
        return [c for c in tests if {ast.unparse(c.left), ast.unparse(c.comparators[0])} == values]
    pairs = {(ast.unparse(s.targets[0]), ast.unparse(s.value)) for s in node.body
             if isinstance(s, ast.Assign) and len(s.targets) == 1}
    out = []
    for c in tests:
        a, b = ast.unparse(c.left), ast.unparse(c.comparators[0])
        if (a, b) in pairs or (b, a) in pairs:
            out.append(c)
    return out


# ----------------------------------------------------------------------------- evaluation

def float32(x: float) -> float:
    """x rounded to binary32 (to nearest, ties to even; out of range: an infinity)."""
    return ctypes.c_float(x).value


def in_bands(kinds: tuple[str, ...], op: str, a, b) -> tuple[str, ...]:
    """The kinds among ``kinds`` whose band holds this evaluation of ``a op b`` (see BANDS)."""
    try:
        if a == b:
            if "signed-zeros" in kinds and a == 0 and math.copysign(1.0, a) != math.copysign(1.0, b):
                return ("signed-zeros",)
            return ()
        diff = abs(a - b)
        big = max(abs(a), abs(b))
        if diff > TOLERANCE_BAND and diff > big * 1.2e-7 and big < 3.4e38 and "squares" not in kinds:
            return ()  # far apart: no tolerance, and binary32 rounding and roots (monotone) keep them apart
        hits = []
        decision = OPS[op](a, b)
        if "tolerance" in kinds and diff <= TOLERANCE_BAND:
            hits.append("tolerance")
        if "float32" in kinds and (diff <= big * 1.2e-7 or big < 1.2e-38 or big > 3.4e38) \
                and OPS[op](float32(a), float32(b)) != decision:
            hits.append("float32")
        if "roots" in kinds and a >= 0 and b >= 0 and diff <= big * 5e-16 \
                and OPS[op](math.sqrt(a), math.sqrt(b)) != decision:
            hits.append("roots")
        if "squares" in kinds and OPS[op](a * a, b * b) != decision:
            hits.append("squares")
        return tuple(hits)
    except (TypeError, ValueError, OverflowError):
        return ()


def tie_in_band(keys: list) -> bool:
    """Two distinct non-negative keys whose square roots are equal (a sort on the rounded root
    of the key would tie them)."""
    try:
        distinct = sorted(set(keys))
        return any(0 <= x and y - x <= y * 5e-16 and math.sqrt(x) == math.sqrt(y)
                   for x, y in zip(distinct, distinct[1:]))
    except (TypeError, ValueError):
        return False
