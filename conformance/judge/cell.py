"""A cell of the hash matrix and its statuses: one row (a scenario, the vectors row or the
protocol row) on one runner.

Contract: a ``Cell`` ends as PASS, DIVERGED (``step``: the first divergent state, when the row is
a scenario), ERROR (``reason``), NOT PROVIDED (the vectors row of a port whose hello leaves out
some families) or SKIPPED (``reason``).  A scenario cell's short form and clauses come from its
``diagnosis``; a row without one (the vectors row, the protocol row) carries its own ``brief``
(a headline, then at most two lines) and ``citation``.  judge/matrix.py re-exports every name
here, so that callers keep importing them from there.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..contract.clauses import Citation
from .diagnosis import Diagnosis
from .protocol_finding import ProtocolFinding
from .outcomes import Status

PASS, DIVERGED, ERROR, NOT_PROVIDED, SKIPPED = (Status.PASS, Status.DIVERGED, Status.ERROR, Status.NOT_PROVIDED,
                                               Status.SKIPPED)
STATUSES = tuple(Status)


def status_text(status: Status, step: int | None) -> str:
    """A cell as the tables show it: PASS, DIVERGED@k, ERROR, NOT PROVIDED, SKIPPED."""
    return f"DIVERGED@{step}" if status == DIVERGED and step is not None else str(status)


@dataclass
class Cell:
    """One scenario (or the vectors or protocol row) on one runner."""

    row: str
    runner: str
    status: Status
    step: int | None = None
    reason: str = ""
    diagnosis: Diagnosis | None = None
    compared: int = 0
    seconds: float = 0.0
    citation: Citation | None = None  # the vectors or protocol row's (a scenario cell's is its diagnosis's)
    failure: str = ""
    """An ERROR's own reason, without the port's stderr tail or a diagnosis after it: what cells
    that failed alike share (judge/cell_groups.py groups undiagnosed ERRORs by it)."""
    brief: list[str] = field(default_factory=list)
    """The vectors or protocol row's short form (a headline, then at most two lines); a scenario
    cell's comes from its diagnosis (judge/cell_text.py)."""
    finding: ProtocolFinding | None = None
    """The protocol row's slip that its column's scenario cells must say first (protocol_finding.py)."""

    def short(self) -> str:
        return status_text(self.status, self.step)

    def to_json(self) -> dict:
        return {"row": self.row, "runner": self.runner, "status": str(self.status), "step": self.step,
                "reason": self.reason, "compared": self.compared, "seconds": round(self.seconds, 3),
                "diagnosis": self.diagnosis.to_json() if self.diagnosis else None,
                "clauses": self.clauses()}

    def clauses(self) -> list[str]:
        """The clause ids this cell cites (its diagnosis's, or the vectors or protocol row's)."""
        if self.diagnosis is not None and self.diagnosis.citation is not None:
            return self.diagnosis.citation.ids
        return list(self.citation.ids) if self.citation is not None else []
