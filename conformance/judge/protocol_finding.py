"""What the protocol row found that a scenario cell's diagnosis must say first, as a typed record.

Contract: the protocol row (protocol_row.py) sets ``Cell.finding`` to a ``ProtocolFinding`` when
one of its checks saw a slip that makes a scenario cell's own diagnosis unreliable: state that
leaks from one run into the next (``Slip.LEAK``: a scenario cell runs in a process that ran other
scenes, so its hashes are not its scene's) or a dump that is not the state its run computes
(``Slip.DUMP``: every diagnosis reads the port's dumps).  The matrix, the pytest plugin and fuzz
hand it to the cell engine (``cell_engine.judge_stream``'s ``protocol`` argument, a finding or a
function giving it), which calls ``say_first``: a diagnosis judged from the port's runs and dumps
(an encoding, a load, a driver, a position update, a composition, or no cause at all) then
leads with the finding, its kind becomes ``PROTOCOL`` and its key the finding's (so the cells
group under it); a diagnosis that the port's own primitives give from the reference's state (a
constraint list, a linear program) keeps its cause and gets a note.  Either is a new Diagnosis
(``dataclasses.replace``: a diagnosis is never changed).  Nothing here reads a check's words:
the slip is decided where the check fails.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING, Callable, Union

from ..contract.clauses import Citation
from .causes import CONSTRAINTS, VELOCITY
from .outcomes import CauseKind

if TYPE_CHECKING:  # diagnosis.py is below this module; only its type is named here
    from .diagnosis import Diagnosis

PROTOCOL = CauseKind.PROTOCOL
"""``Diagnosis.kind`` of a cell whose cause the protocol row found first."""


class Slip(Enum):
    """A protocol slip that misleads a scenario cell's diagnosis."""

    LEAK = "leak"
    """The two-runs check: a second run of one scene, after another scene, differs from the first."""
    DUMP = "dump"
    """The dumps check: a dump is not the state (or preferred velocities) its run computes."""


SAID = {
    Slip.LEAK: ("the port keeps state from one run into the next (the protocol row's two-runs check)",
                "hash.states"),
    Slip.DUMP: ("the port's dumps are not the states its runs compute (the protocol row's dumps check)",
                "dump.preferred"),
}
"""Per slip: the words a scenario cell leads with, and the nearest clause."""


@dataclass(frozen=True)
class ProtocolFinding:
    """A slip the protocol row saw: which (``slip``), in which check (``check``), in the check's
    own words (``words``, shown, never parsed)."""

    slip: Slip
    check: str
    words: str

    def headline(self) -> str:
        return SAID[self.slip][0]


FindingSource = Union[ProtocolFinding, Callable[[], Union[ProtocolFinding, None]], None]
"""The runner's protocol finding, or a function giving it (called at most once, and only when a
diagnosis is made), or None when the row found nothing or was not asked."""

PRIMITIVE_KINDS = (CONSTRAINTS, VELOCITY)
"""Causes the port's own agent_step gives from the reference's state: no run or dump in them."""


def say_first(diagnosis: Diagnosis, finding: ProtocolFinding | None) -> Diagnosis:
    """``diagnosis`` led with ``finding`` (the module's contract), as a new Diagnosis; itself when None."""
    if finding is None:
        return diagnosis
    said, clause = SAID[finding.slip]
    if diagnosis.kind in PRIMITIVE_KINDS:
        return replace(diagnosis, protocol=finding, notes=diagnosis.notes + (
            f"{said}: {finding.words}; this cause is the port's own agent_step from the reference's state, which no "
            "run or dump of the port feeds",))
    cause = diagnosis.found
    before = cause.headline or cause.key  # record fields: never a cut of the cause's words
    others = cause.citation.ids if cause.citation is not None else []
    led = replace(cause, kind=PROTOCOL, key=f"{said}; fix that first",
                  detail=f"{said}: {finding.words}; fix that first" + (
                      f"; this cell's own reading, which it may explain: {cause.detail}" if cause.detail else ""),
                  headline=f"{said}; fix that first" + (f" (the cell alone would read: {before})" if before else ""),
                  citation=Citation(clause, [c for c in others if c != clause], found=False))
    return replace(diagnosis, protocol=finding, found=led)
