"""A primitive vector family as one record, and the registry's live views.

Contract: a ``Family`` is everything the suite knows about one primitive it tests ports on
directly: its protocol name, argument and result type codes (vectors.py's codes), the
reference function, the clauses of ``contract/clauses.json`` it serves (the main one first; a
red vectors row cites it), its case makers by kind (``MAKER_KINDS``, in the order their cases
are stored), whether it is a formula primitive (and whether the arithmetic models replay it),
the names of its arguments and results in a failure's line, and its entry points in the ports
(C, the wasm export layer, the JavaScript skeleton) as plain strings; the runners hold the glue
for those entry points.  The built-in records are data/vector_family.py's ``BUILTIN``; every
table of the suite keyed by a family's name is a ``view`` of the registry, computed on access,
so ``register(family)`` (a context manager that undoes itself) adds a family everywhere at once.

This module imports neither the solver nor the driver: the census's shadow (data/shadow.py)
shares it with the real package, so a family registered here is seen by both.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterator

Maker = Callable[[str, random.Random], list]
"""``(family name, rng) -> raw argument lists``; the makers of one family share one rng, in
``MAKER_KINDS`` order, so a maker's draws move every later kind's."""

MAKER_KINDS = ("random", "edges", "boundaries", "bands", "operators", "offaxis")
"""Kinds of case makers, in the order a family's cases are stored (later kinds append, so the
stored cases before them never move)."""


@dataclass(frozen=True)
class Family:
    """One primitive vector family (see the module's contract)."""

    name: str
    args: tuple[str, ...]
    result: tuple[str, ...]
    reference: Callable[..., tuple]
    clauses: tuple[str, ...] = ()
    makers: Mapping[str, Maker] = field(default_factory=dict, hash=False)
    """kind (one of ``MAKER_KINDS``) -> maker; a kind left out makes no cases."""
    formula: bool = False
    """One formula of its arguments (few decisions): its failures count in the matrix's vote on
    whether a port's arithmetic differs; the composite ones amplify a rounding difference."""
    arith_model: bool = False
    """Its code is in the solver modules data/arith_models.py rewrites (fingerprint replay)."""
    arg_names: tuple[str, ...] = ()
    result_names: tuple[str, ...] = ()
    c_name: str = ""
    """The C port's entry point (runners/c/solver)."""
    wasm_name: str = ""
    """The export layer's entry point (runners/wasm/exports.c; the wasm and unicorn columns)."""
    js_name: str = ""
    """The JavaScript skeleton's function (runners/skeleton-js/port.mjs)."""

    def cases(self, rng: random.Random) -> list[list]:
        """Raw argument lists of every kind, in ``MAKER_KINDS`` order, drawn from ``rng``."""
        out: list[list] = []
        for kind in MAKER_KINDS:
            maker = self.makers.get(kind)
            if maker is not None:
                out += maker(self.name, rng)
        return out


_REGISTERED: list[Family] = []
"""Families added at run time by ``register``, after the built-in ones."""
_VERSION = [0]


@contextmanager
def register(family: Family) -> Iterator[Family]:
    """Add ``family`` to every view of the registry for the ``with`` block; ValueError when a
    family of that name is registered already."""
    if any(f.name == family.name for f in _REGISTERED):
        raise ValueError(f"vector family {family.name!r} is registered already")
    _REGISTERED.append(family)
    _VERSION[0] += 1
    try:
        yield family
    finally:
        _REGISTERED.remove(family)
        _VERSION[0] += 1


def version() -> int:
    """Changes whenever ``register`` adds or removes a family (for caches of validated data)."""
    return _VERSION[0]


class Registry(Sequence):
    """The families, built-in ones first and then the registered ones, in order; a built-in
    name registered again is a ValueError on access."""

    def __init__(self, builtin: Sequence[Family]):
        self._builtin = tuple(builtin)
        self._cache: tuple[int, tuple[Family, ...], dict[str, Family]] | None = None

    def _current(self) -> tuple[tuple[Family, ...], dict[str, Family]]:
        if self._cache is None or self._cache[0] != _VERSION[0]:
            records = self._builtin + tuple(_REGISTERED)
            by_name = {f.name: f for f in records}
            if len(by_name) != len(records):
                raise ValueError("two vector families share a name")
            self._cache = (_VERSION[0], records, by_name)
        return self._cache[1], self._cache[2]

    def __getitem__(self, index):
        return self._current()[0][index]

    def __len__(self) -> int:
        return len(self._current()[0])

    def __iter__(self) -> Iterator[Family]:
        return iter(self._current()[0])

    def __repr__(self) -> str:
        return f"Registry({[f.name for f in self]})"

    def by_name(self) -> dict[str, Family]:
        """name -> record (the current registry's; do not change it)."""
        return self._current()[1]

    def view(self, value: Callable[[Family], object], where: Callable[[Family], bool] = lambda f: True) -> "View":
        """A live mapping name -> ``value(record)`` over the records ``where`` holds."""
        return View(self, value, where)

    def names(self, where: Callable[[Family], bool]) -> "Names":
        """A live sequence of the names of the records ``where`` holds, in registry order."""
        return Names(self, where)


class View(Mapping):
    """A table keyed by family name, computed from the records on every access."""

    def __init__(self, registry: Registry, value: Callable[[Family], object], where: Callable[[Family], bool]):
        self._registry, self._value, self._where = registry, value, where

    def __getitem__(self, name: str):
        family = self._registry.by_name().get(name)
        if family is None or not self._where(family):
            raise KeyError(name)
        return self._value(family)

    def __iter__(self) -> Iterator[str]:
        return (f.name for f in self._registry if self._where(f))

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"View({dict(self)})"


class Names(Sequence):
    """Family names picked by a predicate on the records, in registry order, computed on access."""

    def __init__(self, registry: Registry, where: Callable[[Family], bool]):
        self._registry, self._where = registry, where

    def _names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self._registry if self._where(f))

    def __getitem__(self, index):
        return self._names()[index]

    def __len__(self) -> int:
        return len(self._names())

    def __contains__(self, name) -> bool:
        family = self._registry.by_name().get(name)
        return family is not None and self._where(family)

    def __repr__(self) -> str:
        return f"Names({list(self._names())})"
