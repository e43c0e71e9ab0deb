"""The reference solver with ONE multiply-add fused: how a port that calls fma (Rust ``mul_add``,
C++ ``std::fma``) at one place, or a compiler that contracts one expression, computes a step.

Contract: ``FUSED_SITES`` lists every ``a*b ± c``, ``c ± a*b`` and ``a*b ± c*d`` of the solver's
modules (``MODULES``, in import order) once per product that a fused multiply-add can take in,
as frozen ``FusedSite`` records (``id``: ``module.function: text`` with ``#2``... when a text
repeats in a function, as the census names decisions; ``product``: the product fused).  The
contraction sites are the ones ``arith_models.contraction_sides`` finds (one engine: the
fingerprint's fma models fuse every one of them, this module one at a time).
``solver(site)`` is the solver's namespace (``Simulator``...) with that one site rounded once
(``contract.fused.fma``) and every other operation the reference's binary64 one, in the text's
order; it is compiled on first use and kept for the process.  ``family_reference(site, family)`` is a vector family's reference function on it (the solver's
function it calls; agent_step's own).  The reference itself
is never touched.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from .. import shipped
from ..contract.fused import fma
from ..solver import Simulator
from .arith_models import contraction_sides, fused_call

MODULES = ("halfplane", "obstacle", "constraint", "linear_program", "fallback", "neighbors", "simulator")
"""The solver's modules a step runs, in import order (their top-level names never clash)."""


@dataclass(frozen=True)
class FusedSite:
    """One product of one contraction site of the reference, fused."""

    id: str
    """``solver.linear_program.line_interval: pd * pd + radius * radius`` (``#2`` for a repeat)."""
    module: str
    function: str
    line: int
    text: str
    """The expression of the site, as the source writes it."""
    product: str
    """The product fused (``pd * pd``): the one a port's fma takes in."""
    side: str
    """``left`` or ``right``: which operand of the sum the product is."""

    def reading(self) -> str:
        """The reading in words: "`pd * pd` fused into `pd * pd + radius * radius`"."""
        return f"a fused multiply-add at `{self.text}` (`{self.product}` fused)"


def _path(module: str):
    return shipped.PACKAGE / "solver" / f"{module}.py"


class _Sites(ast.NodeVisitor):
    """Collects the contraction sites of one module, in source order, per function."""

    def __init__(self, module: str):
        self.module = module
        self.function = "<module>"
        self.found: list[tuple[ast.BinOp, FusedSite]] = []
        self._seen: dict[str, int] = {}

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        outer = self.function
        self.function = node.name if outer == "<module>" else f"{outer}.{node.name}"
        self.generic_visit(node)
        self.function = outer

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        outer = self.function
        self.function = node.name
        self.generic_visit(node)
        self.function = outer

    def visit_BinOp(self, node: ast.BinOp) -> None:
        sides = contraction_sides(node)
        if sides:
            text = ast.unparse(node)
            base = f"solver.{self.module}.{self.function}: {text}"
            self._seen[base] = self._seen.get(base, 0) + 1
            site_id = base if self._seen[base] == 1 else f"{base} #{self._seen[base]}"
            for side in sides:
                self.found.append((node, FusedSite(site_id, f"solver.{self.module}", self.function, node.lineno, text,
                                                   ast.unparse(getattr(node, side)), side)))
        self.generic_visit(node)


@lru_cache(maxsize=None)
def _parsed(module: str) -> tuple[str, tuple[FusedSite, ...]]:
    """A module's source and its sites (each site's node is found again by position)."""
    source = _path(module).read_text(encoding="utf-8")
    sites = _Sites(module)
    sites.visit(ast.parse(source))
    return source, tuple(site for _, site in sites.found)


FUSED_SITES: tuple[FusedSite, ...] = tuple(site for module in MODULES for site in _parsed(module)[1])
"""Every product of every contraction site of the step's modules, in import and source order."""
SITE_BY_KEY = {(s.id, s.side): s for s in FUSED_SITES}


class _FuseOne(ast.NodeTransformer):
    """Rewrites the one contraction node at ``index`` (in ``_Sites`` order) into ``_fma(...)``
    and drops the solver's relative imports (the namespace already holds those names)."""

    def __init__(self, index: int, side: str):
        self.index, self.side, self.count = index, side, -1

    def visit_ImportFrom(self, node: ast.ImportFrom):
        return None if node.level else node

    def visit_BinOp(self, node: ast.BinOp):
        if contraction_sides(node):
            self.count += 1
            if self.count == self.index:
                return fused_call(node, self.side, self.visit,
                                  lambda a, b, c, np, nc: ast.Call(ast.Name("_fma", ast.Load()), [a, b, c, np, nc], []))
        return self.generic_visit(node)


def _fused(a: float, b: float, c: float, negate_product: bool, negate_c: bool) -> float:
    """``(±a*b) + (±c)`` rounded once."""
    return fma(-a if negate_product else a, b, -c if negate_c else c)


def _node_index(site: FusedSite) -> int:
    """The position of the site's node among its module's contraction nodes (both products of
    one node share it)."""
    nodes: list[str] = []
    for s in _parsed(site.module.split(".", 1)[1])[1]:
        if not nodes or nodes[-1] != s.id:
            nodes.append(s.id)
    return nodes.index(site.id)


@lru_cache(maxsize=None)
def _code(module: str, site: FusedSite | None = None):
    """A module compiled with ``site`` fused (None: as it is), its relative imports dropped."""
    tree = ast.parse(_parsed(module)[0])
    tree = _FuseOne(_node_index(site) if site is not None else -1, site.side if site is not None else "").visit(tree)
    label = f" [{site.id}: {site.product} fused]" if site is not None else ""
    return compile(ast.fix_missing_locations(tree), f"{_path(module)}{label}", "exec")


@lru_cache(maxsize=None)
def solver(site: FusedSite) -> dict:
    """The step's modules with ``site`` alone fused, executed in one namespace (``Simulator``,
    ``AgentParams``, ``solve_closest``...)."""
    # the real package's name: a dataclass looks its module up in sys.modules
    names: dict = {"_fma": _fused, "__name__": Simulator.__module__}
    for module in MODULES:
        exec(_code(module, site if f"solver.{module}" == site.module else None), names)
    exec(_agent_step_code(), names)
    return names


@lru_cache(maxsize=1)
def _agent_step_code():
    """The agent_step family's reference (data/vector_family.py), to run on the namespace's
    solver: its import of the solver dropped."""
    from . import vector_family
    tree = ast.parse(textwrap.dedent(inspect.getsource(vector_family._agent_step)))
    return compile(ast.fix_missing_locations(_FuseOne(-1, "").visit(tree)), "agent_step [fused site]", "exec")


WRAPPED = {"segment_distance_squared": lambda f: lambda *a: (f(*a),),
           "support_distance": lambda f: lambda *a: f(*a[:8], bool(a[8]))}
"""The families whose reference wraps its solver function (the others call it as it is)."""


def family_reference(site: FusedSite, family) -> Callable | None:
    """The reference function of ``family`` (a vector Family record) on ``solver(site)``: the
    solver function it calls, or agent_step's; None for a family of the driver or a wrapper."""
    names = solver(site)
    if family.name == "agent_step":
        return names["_agent_step"]
    function = names.get(family.name)
    if function is None or not getattr(family.reference, "__module__", "").startswith(Simulator.__module__.rsplit(".", 1)[0]) \
            and family.name not in WRAPPED:
        return None
    return WRAPPED[family.name](function) if family.name in WRAPPED else function
