"""One variant of the C port: a single line of its sources rewritten, whichever generator made it.

Contract: a ``Variant`` is what both generators produce (``mutate.generate_mutants``: one-change
mutants; ``operators.find_variants``: the rewrites plausible ports make) and what the engine
judges (``tree.variant_tree`` edits the sources, ``engine.judge_all`` judges and caches).  It is
frozen and compared by value; its ``id`` is stable across runs and unique within its generator.
``file`` is the file as the generator names it in ids and reports (a mutant names a solver file,
``neighbors.c``; an operator names it from runners/c, ``solver/obstacle.c``); ``path`` is always
relative to runners/c.  ``prelude`` is C text the edit may need (an operator's helper
functions): the tree inserts it after the file's last ``#include`` only when the rewritten line
calls one of its functions.
"""

from __future__ import annotations

from dataclasses import dataclass

MUTATION, OPERATOR = "mutation", "operator"
"""The two generators of variants."""


@dataclass(frozen=True)
class Variant:
    id: str
    generator: str
    """``MUTATION`` or ``OPERATOR``."""
    kind: str
    """The mutation operator (``arithmetic``, ``delete``, ...) or the rewrite operator's name."""
    file: str
    path: str
    """The file relative to runners/c (``solver/neighbors.c``)."""
    line: int
    original: str
    mutated: str
    """The whole new line ("" deletes its text, keeping the line)."""
    function: str = ""
    """The ``oc_`` function holding the line, when the generator knows it."""
    prelude: str = ""

    @property
    def operator(self) -> str:
        """Both generators call the kind of their change its operator."""
        return self.kind

    def diff(self) -> str:
        where = f"{self.file}:{self.line}" + (f" ({self.function})" if self.function else "")
        return f"{where}\n- {self.original.strip()}\n+ {self.mutated.strip()}"
