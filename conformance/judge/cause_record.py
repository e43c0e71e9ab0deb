"""The cause of a divergence as a frozen value, and the other typed facts a diagnosis is built from.

Contract: a ``Cause`` is what a cause function (causes.py) returns: its ``kind`` (outcomes.py),
its words (``detail``, the whole of it; ``headline``, one short sentence; ``key``, the headline
as every cell of the same mistake says it), the clauses it breaks (``citation``) and the
evidence it rests on (the preferred velocity or constraint that differs, the wrong hash
encoding, the first different decision, the formula primitives that differ by rounding and the
fix, its own notes).  It is never changed: a later stage that adds to it (the vectors row's
rounding finding, a precision finding, a walk to the first different decision) builds a new
one with ``dataclasses.replace``.  ``NO_CAUSE`` is the cause when nothing could be said.
``NonFiniteValue`` is where a run stopped on a NaN or an infinity, as the runner raised it
(``runners.base.NonFinite``) or the diagnosis found it; its text is the one reports show.
Nothing here reads words: every decision is made on these fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..contract.clauses import Citation
from .outcomes import CauseKind

if TYPE_CHECKING:  # the evidence's types; neither module needs this one
    from .state_difference import Difference
    from .constraint_difference import ConstraintDifference


@dataclass(frozen=True)
class Cause:
    """What kind of mistake a port made, in words, with the clauses and the evidence."""

    kind: CauseKind = CauseKind.UNKNOWN
    detail: str = ""
    """The cause in full, as a red cell's whole diagnosis says it ("" when nothing could be said)."""
    headline: str = ""
    """The cause in one short sentence: what a red cell's first line says."""
    key: str = ""
    """The headline as every cell of the same mistake says it: no agent, step or count of this
    cell in it (``"an agent's constraint list differs: ..."``); cells are grouped by it, their
    ``kind`` and their clauses (judge/cell_groups.py), never by their words otherwise."""
    citation: Citation | None = None
    """The clause of the text the cause breaks (judge/citation.py), when one was found."""
    preferred: Difference | None = None
    """The first preferred velocity that differs (kind driver)."""
    constraint: ConstraintDifference | None = None
    """The first difference of the port's agent_step (kinds constraints, velocity, composition)."""
    encoding: str = ""
    """The wrong hash encoding that reproduces the port's hash (kind hash-encoding)."""
    decision: dict | None = None
    """The first different decision after a first difference of rounding (judge/first_decision.py)."""
    rounding: str = ""
    """Which formula primitives differ by rounding only, when the port's arithmetic is what differs
    (the vectors row's finding, which ``cell_engine.attach_vector_failure`` puts first)."""
    fix: str = ""
    """The fix of the evaluation model that reproduces the port's rounding (judge/fingerprint.py)."""
    shared_from: str = ""
    """"row@step" of the cell whose full search this cause used (judge/shared_causes.py), or ""."""
    notes: tuple[str, ...] = ()
    """What the search for this cause noted on the way (a primitive that failed, a search shared)."""


NO_CAUSE = Cause()
"""The cause when nothing could be said."""


@dataclass(frozen=True)
class NonFiniteValue:
    """The first value of a state that is not finite: its agent and field (``velocity.x``) when the
    port or the diagnosis named one (else ``agent`` None), and its value when the port said."""

    agent: int | None = None
    field: str = ""
    value: str = ""

    def __str__(self) -> str:
        """``agent i field``, or "agent not named by the port"."""
        return f"agent {self.agent} {self.field}" if self.agent is not None else "agent not named by the port"
