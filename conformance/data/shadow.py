"""The census's instrumented copy of the reference, in a package namespace of its own.

Contract: ``instrumented_tree(module)`` parses one module of ``INSTRUMENTED`` (the solver and
the driver) and rewrites every decision into a call that records it: each comparison (each half
of a chained one) into ``_probe``, each sort or ``nsmallest`` input into ``_ties``, returning
the rewritten tree and its ``Site`` list.  ``load_shadow(tally)`` executes those trees, and
fresh copies of the ``FRESH`` modules bound to them, as the package ``SHADOW`` whose probes
count into the ``Tally``; every module of ``SHARED`` (no decision of the contract in it) is the
real one.
The reference itself is never touched.  A module of the suite that a ``FRESH`` one imports must
be in ``SHARED`` or ``INSTRUMENTED``; one that imports the solver or the driver and is used by
the census run must be instrumented, or the census measures the uninstrumented reference.
"""

from __future__ import annotations

import ast
import functools
import importlib
import math
import operator
import sys
import threading
import types
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .. import shipped
from ..contract.float_bits import ulp_distance
from .band_kinds import FunctionFacts, compare_bands, in_bands, return_types, selections, tie_in_band

PACKAGE_DIR = shipped.PACKAGE
SHADOW = "orca_census_shadow"
"""Name of the package namespace that holds the instrumented copies."""

INSTRUMENTED = ("solver.vector", "solver.halfplane", "solver.obstacle", "solver.constraint",
                "solver.linear_program", "solver.fallback", "solver.neighbors", "solver.simulator",
                "solver", "contract.driver")
"""Modules whose decisions are the port contract, in import order (``solver`` is the package)."""

SHARED = ("errors", "jsonfile", "contract.float_bits", "contract.schema_files", "contract.generators",
          "contract.strict_yaml", "contract.expectations", "contract.scenario", "contract.state_hash",
          "data.vector_edges", "data.vector_lattice", "data.vector_neighbors", "data.vector_boundaries",
          "data.vector_random", "data.vector_bands", "data.vector_operators", "data.vector_offaxis",
          "data.family")
"""Modules the shadow shares with the real package (no decision of the contract in them)."""
FRESH = ("data.vector_family", "data.vectors")
"""Executed afresh, in order, bound to the instrumented modules: the family records, the vectors."""


@dataclass(frozen=True)
class Site:
    """One decision of the reference."""

    id: str
    """``module.function: source`` (with ``#2`` ... when the same text repeats in a function)."""
    module: str
    function: str
    line: int
    text: str
    kind: str
    """``compare`` (a comparison, one side of a chain) or ``ties`` (a sort or selection by key)."""
    bands: tuple[str, ...] = ()
    """The rounding-band kinds that apply to it (data/band_kinds.py), read from its syntax."""


def source_path(module: str) -> Path:
    """The source file of a module of the package (``solver`` is the package's __init__.py)."""
    parts = module.split(".")
    path = PACKAGE_DIR.joinpath(*parts)
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


class _Instrument(ast.NodeTransformer):
    """Rewrites comparisons into ``_probe`` calls and sort/selection inputs into ``_ties`` calls."""

    def __init__(self, module: str):
        self.module = module
        self.function = "<module>"
        self.sites: list[Site] = []
        self._seen: Counter = Counter()
        self._facts = FunctionFacts(None, {})
        self._selects: set[int] = set()
        """id() of the comparisons that select one of their own sides (signed-zeros applies)."""

    def _site(self, node: ast.AST, text: str, kind: str, bands: tuple[str, ...] = ()) -> str:
        base = f"{self.module}.{self.function}: {text}"
        self._seen[base] += 1
        site_id = base if self._seen[base] == 1 else f"{base} #{self._seen[base]}"
        self.sites.append(Site(site_id, self.module, self.function, node.lineno, text, kind, bands))
        return site_id

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        outer, outer_facts = self.function, self._facts
        self.function = node.name if outer == "<module>" else f"{outer}.{node.name}"
        self._facts = FunctionFacts(node, _returns())
        self.generic_visit(node)
        self.function, self._facts = outer, outer_facts
        return node

    def visit_If(self, node: ast.If) -> ast.AST:
        self._selects.update(id(c) for c in selections(node))
        self.generic_visit(node)
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self._selects.update(id(c) for c in selections(node))
        self.generic_visit(node)
        return node

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        outer = self.function
        self.function = node.name
        self.generic_visit(node)
        self.function = outer
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        sides = [node.left, *node.comparators]
        bands = [compare_bands(a, b, self._facts, id(node) in self._selects) for a, b in zip(sides, sides[1:])]
        self.generic_visit(node)
        if self.function == "<module>" or not all(type(op) in _OPS for op in node.ops):
            return node
        probes = []
        left = node.left
        for op, right, kinds in zip(node.ops, node.comparators, bands):
            text = f"{ast.unparse(left)} {_OPS[type(op)][0]} {ast.unparse(right)}"
            site_id = self._site(node, text, "compare", kinds)
            probes.append(ast.Call(ast.Name("_probe", ast.Load()),
                                   [ast.Constant(site_id), ast.Constant(_OPS[type(op)][0]), left, right], []))
            left = right
        result = probes[0] if len(probes) == 1 else ast.BoolOp(ast.And(), probes)
        return ast.copy_location(result, node)

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "sort" and not node.args:
            site_id = self._site(node, f"{ast.unparse(func.value)}.sort() ties", "ties", ("ties",))
            func.value = ast.Call(ast.Name("_ties", ast.Load()), [ast.Constant(site_id), func.value], [])
        elif isinstance(func, ast.Name) and func.id == "nsmallest" and len(node.args) == 2:
            site_id = self._site(node, f"nsmallest({ast.unparse(node.args[1])}) ties", "ties", ("ties",))
            node.args[1] = ast.Call(ast.Name("_ties", ast.Load()), [ast.Constant(site_id), node.args[1]], [])
        return node


_OPS: dict[type, tuple[str, Callable]] = {
    ast.Lt: ("<", operator.lt), ast.LtE: ("<=", operator.le), ast.Gt: (">", operator.gt),
    ast.GtE: (">=", operator.ge), ast.Eq: ("==", operator.eq), ast.NotEq: ("!=", operator.ne),
}
_OP_BY_TEXT = {text: fn for text, fn in _OPS.values()}


@functools.lru_cache(maxsize=1)
def _returns() -> dict[str, tuple[str, ...]]:
    """The tuple return annotations of every instrumented function (``failed`` is an int)."""
    return return_types(ast.parse(source_path(m).read_text(encoding="utf-8")) for m in INSTRUMENTED)


def instrumented_tree(module: str) -> tuple[ast.Module, list[Site]]:
    tree = ast.parse(source_path(module).read_text(encoding="utf-8"), filename=str(source_path(module)))
    instrument = _Instrument(module)
    tree = ast.fix_missing_locations(instrument.visit(tree))
    return tree, instrument.sites


# ----------------------------------------------------------------------------- recording

@dataclass
class Tally:
    """Counts of boundary hits: (site, source, category) -> n, where source is ``vectors`` or a
    scenario id."""

    counts: Counter = field(default_factory=Counter)
    source: str = "vectors"
    bands: Counter = field(default_factory=Counter)
    """Counts of rounding-band hits: (site, source, band kind) -> n (data/band_kinds.py)."""
    kinds: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Site id -> the band kinds that apply to it (filled by ``load_shadow``)."""

    def probe(self, site: str, op: str, a, b) -> bool:
        result = _OP_BY_TEXT[op](a, b)
        category = _category(a, b)
        if category is not None:
            self.counts[(site, self.source, category)] += 1
        kinds = self.kinds.get(site)
        if kinds:
            for kind in in_bands(kinds, op, a, b):
                self.bands[(site, self.source, kind)] += 1
        return result

    def ties(self, site: str, items):
        keys = [item[0] if isinstance(item, tuple) else item for item in items]
        if len(set(keys)) < len(keys):
            self.counts[(site, self.source, "on")] += 1
        if tie_in_band(keys):
            self.bands[(site, self.source, "ties")] += 1
        return items


def _category(a, b) -> str | None:
    """``on`` when a == b, ``below``/``above`` when a is one ulp (one, for integers) below/above b."""
    if a == b:
        return None if isinstance(a, bool) else "on"
    if type(a) is int and type(b) is int:
        return "below" if a == b - 1 else "above" if a == b + 1 else None
    try:
        if math.nextafter(a, b) != b:
            return None
    except TypeError:
        return None
    return "below" if a < b else "above"


def load_shadow(tally: "Tally | Trace") -> types.ModuleType:
    """The instrumented package: solver and driver rewritten, fresh ``FRESH`` modules bound to
    them, every other module of the suite shared with the real package.  Returns the shadow
    ``vectors``."""
    for name in list(sys.modules):
        if name == SHADOW or name.startswith(SHADOW + "."):
            del sys.modules[name]
    root = types.ModuleType(SHADOW)
    root.__path__ = []  # a package, so that relative imports resolve inside it
    sys.modules[SHADOW] = root
    for stage in ("contract", "data", "solver"):
        package = sys.modules[f"{SHADOW}.{stage}"] = types.ModuleType(f"{SHADOW}.{stage}")
        package.__path__ = []
    for shared in SHARED:
        sys.modules[f"{SHADOW}.{shared}"] = importlib.import_module(f"conformance.{shared}")
    for module in INSTRUMENTED:
        tree, sites = instrumented_tree(module)
        if isinstance(tally, Tally):
            tally.kinds.update((site.id, site.bands) for site in sites if site.bands)
        name = f"{SHADOW}.{module}"
        mod = sys.modules[name] if module == "solver" else types.ModuleType(name)
        mod.__package__ = name if module == "solver" else name.rpartition(".")[0]
        mod.__file__ = str(source_path(module))
        mod._probe, mod._ties = tally.probe, tally.ties
        sys.modules[name] = mod
        exec(compile(tree, str(source_path(module)), "exec"), mod.__dict__)
    for module in FRESH:
        fresh = sys.modules[f"{SHADOW}.{module}"] = types.ModuleType(f"{SHADOW}.{module}")
        fresh.__package__, source = f"{SHADOW}.data", source_path(module)
        exec(compile(source.read_text(encoding="utf-8"), str(source), "exec"), fresh.__dict__)
    return sys.modules[f"{SHADOW}.data.vectors"]


# ----------------------------------------------------------------------------- tracing one call

def distance(a, b) -> int | None:
    """How far the two sides of a comparison are from its boundary: ulps between two doubles,
    the difference of two integers; None for what is neither (booleans, NaN, infinities)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return None
    if type(a) is int and type(b) is int:
        return abs(a - b)
    try:
        a, b = float(a), float(b)
    except (TypeError, ValueError):
        return None
    if not (math.isfinite(a) and math.isfinite(b)):
        return None
    return ulp_distance(a, b)


@dataclass
class Trace:
    """What one evaluation through the shadow decided: per site, the closest its two sides came
    (``distance``; 0 for a sort that met equal keys) and its last outcome, in first-seen order."""

    closest: dict[str, int] = field(default_factory=dict)
    outcome: dict[str, bool] = field(default_factory=dict)
    integer: set[str] = field(default_factory=set)
    """Sites that compared integers (an index, a count)."""

    flip: tuple[str, str | int] | None = None
    """(site, "near" | "always" | n): answer that site the other way only near its boundary (a
    strictness or rounding-band reading), every time (an inverted test), or at its n-th
    evaluation only (a loop that stops one pass early or runs one pass more)."""
    seen: dict[str, int] = field(default_factory=dict)
    """How many times each site was evaluated."""

    def probe(self, site: str, op: str, a, b) -> bool:
        fn = _OP_BY_TEXT[op]
        result = fn(a, b)
        gap = distance(a, b)
        tolerance = _tolerance_side(site)
        if tolerance is not None and gap is not None:
            # a test against a tolerance is in the tolerance's band when the tolerance decided it
            without = fn(0.0 * a if tolerance == 0 else a, 0.0 * b if tolerance == 1 else b)
            gap = 0 if without != result else gap
        integer = type(a) is int and type(b) is int
        if integer:
            self.integer.add(site)
        if gap is not None and gap < self.closest.get(site, gap + 1):
            self.closest[site] = gap
        self.outcome[site] = result
        self.seen[site] = self.seen.get(site, 0) + 1
        if self.flip is not None and self.flip[0] == site:
            mode = self.flip[1]
            if mode in REWRITTEN:
                return REWRITTEN[mode](fn, a, b, result)
            near = gap is not None and (gap == 0 if integer else gap <= NEAR_BAND)
            if mode == "always" or (mode == "near" and near) or mode == self.seen[site]:
                return not result
        return result

    def ties(self, site: str, items):
        keys = [item[0] if isinstance(item, tuple) else item for item in items]
        if len(set(keys)) < len(keys):
            self.closest[site] = 0
        return items

    def reset(self) -> None:
        self.flip = None
        for seen in (self.seen, self.closest, self.outcome, self.integer):
            seen.clear()


def _on_roots(fn, a, b, result: bool) -> bool:
    try:
        return fn(math.sqrt(a), math.sqrt(b)) if a >= 0 and b >= 0 else result
    except (TypeError, ValueError):
        return result


def _on_squares(fn, a, b, result: bool) -> bool:
    try:
        return fn(a * a, b * b) if a >= 0 and b >= 0 else result
    except (TypeError, OverflowError):
        return result


REWRITTEN: dict[str, Callable] = {"roots": _on_roots, "squares": _on_squares}
"""Flip modes that decide a site on its sides rewritten as a port would (the rewrite operators
roots-for-squares and squares-for-roots): the comparison of the sides' roots, or of their squares."""


_SITE_BANDS: dict[str, tuple[str, ...]] = {}


def site_bands(site: str) -> tuple[str, ...]:
    """The band kinds that apply to a site of the instrumented modules (data/band_kinds.py)."""
    if not _SITE_BANDS:
        for module in INSTRUMENTED:
            _SITE_BANDS.update({s.id: s.bands for s in instrumented_tree(module)[1]})
    return _SITE_BANDS.get(site, ())


NEAR_BAND = 8
"""A comparison whose two doubles are at most this many ulps apart (integers: equal) is near its
boundary: a strictness, grouping or root-versus-square reading can flip it there."""

TOLERANCE_NAMES = ("tol", "EPSILON", "PARALLEL_NORMALS")
"""Names that mark a side of a comparison as a tolerance (1e-9 * ..., 1e-12, 1e-24, 1e-6)."""


def _tolerance_side(site: str) -> int | None:
    """0 or 1 for the side of a comparison site that is a tolerance, None when neither is."""
    text = site.split(": ", 1)[1].split(" #", 1)[0]
    for op in (" <= ", " >= ", " < ", " > ", " == ", " != "):
        if op in text:
            left, right = text.split(op, 1)
            for side, part in enumerate((left, right)):
                if any(name in part for name in TOLERANCE_NAMES):
                    return side
    return None


_TRACED: tuple[types.ModuleType, Trace] | None = None
TRACE_LOCK = threading.RLock()
"""Held by whoever runs a traced call and reads its Trace, and by ``traced()`` while it loads the
shadow: there is one per process, and the matrix diagnoses columns in several threads at once (a
trace read while another thread's call writes it cites the wrong clause; two loads at once delete
each other's half-built modules, a ModuleNotFoundError in the matrix)."""
_TRACED_MODULES: dict[str, types.ModuleType] = {}


def traced() -> tuple[types.ModuleType, Trace]:
    """A shadow of its own for tracing single calls (loaded once per process): its ``vectors``
    module and the Trace its probes write to.  ``sys.modules[SHADOW + ...]`` may be replaced by
    a later census run; the modules returned here keep their own bindings, and each call puts
    them back in ``sys.modules`` (a traced call's imports at run time must find them)."""
    global _TRACED
    with TRACE_LOCK:  # two columns' first citations at once: one loads, the other waits for it
        if _TRACED is None:
            trace = Trace()
            _TRACED = (load_shadow(trace), trace)
            _TRACED_MODULES.update({name: module for name, module in sys.modules.items()
                                    if name == SHADOW or name.startswith(SHADOW + ".")})
        else:  # a census run in between replaced them: the imports a traced call makes must find these
            sys.modules.update(_TRACED_MODULES)
        return _TRACED


def traced_module(name: str) -> types.ModuleType:
    """One module of the ``traced()`` shadow by its name below the package (``solver.neighbors``):
    the one bound to its Trace, even after a census run replaced ``sys.modules``' entries."""
    traced()
    return _TRACED_MODULES[f"{SHADOW}.{name}"]
