"""Red cells that say one cause, once: grouped by typed fields, never by their words.

Contract: ``cause_of(cell)`` is what a DIVERGED or ERROR cell's cause is, as a frozen record: its
column, its status, its diagnosis's ``kind`` and ``key`` (the headline with no agent, step or
count of this cell in it: diagnosis.py), the clauses it cites and whether they were found, and,
for an ERROR cell with a diagnosis, whether its run stopped on a non-finite state.  A cell
without a diagnosis (the vectors or protocol row, an ERROR before any state could be compared)
is keyed by its own whole headline (``own_head``), so it shares a group only with cells that
say exactly the same thing.  ``place_of(cell)`` is where the cell failed: its row, the step and
the agent its headline names.  ``group_causes(pairs)`` groups (cause, place) pairs by cause, in
the order the causes first appear.  The records go into report.json (``cause_json`` and
``from_report_cell``), so that a page grouping a report's cells uses the same keys as the
terminal did.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .cell import DIVERGED, ERROR, Cell
from .diagnosis import Diagnosis

RED = (DIVERGED, ERROR)
NO_CAUSE = "no cause could be told"


@dataclass(frozen=True)
class CellCause:
    """What the cells of one mistake on one column share."""

    column: str
    status: str
    kind: str
    """The diagnosis's kind (causes.py); "" for a cell without a diagnosis."""
    key: str
    """The diagnosis's key, or the whole headline of a cell without a diagnosis."""
    clauses: tuple[str, ...] = ()
    found: bool = False
    """Whether the first clause is the one broken (else the nearest one)."""
    stopped: str = ""
    """For an ERROR cell with a diagnosis: "non-finite" (its run stopped on a NaN or an infinity) or "failed"."""

    def said(self) -> str:
        """The cause the cells share, with its clause: ``<key> (breaks <clause>)``; an ERROR group
        says first how its runs stopped."""
        said = self.key
        if self.stopped:
            how = "stopped on a non-finite state" if self.stopped == "non-finite" else "failed"
            said = f"the run {how}; at its failing step: {said}"
        breaks = f" (breaks {self.clauses[0]})" if self.found and self.clauses and self.kind else ""
        return f"{said}{breaks}"

    def headline(self, count: int) -> str:
        """``11 cells: <key> (breaks <clause>)``."""
        return f"{count} cell{'s' if count != 1 else ''}: {self.said()}"


@dataclass(frozen=True)
class CellPlace:
    """Where one cell of a group failed."""

    row: str
    step: int | None = None
    agent: int | None = None

    def text(self) -> str:
        """``orca/wall-gap@1 agent 0`` (as much of it as is known)."""
        at = f"@{self.step}" if self.step is not None else ""
        return f"{self.row}{at}" + (f" agent {self.agent}" if self.agent is not None else "")


@dataclass
class CauseGroup:
    cause: CellCause
    places: list[CellPlace] = field(default_factory=list)
    members: list = field(default_factory=list)
    """The cells themselves (Cell objects, or report dicts), in the order given."""

    def to_json(self) -> dict:
        c = self.cause
        return {"column": c.column, "status": str(c.status), "kind": str(c.kind), "key": c.key, "clauses": list(c.clauses),
                "clause_found": c.found, "headline": c.headline(len(self.places)),
                "cells": [{"row": p.row, "step": p.step, "agent": p.agent} for p in self.places]}


def own_head(cell: Cell) -> str:
    """The headline of a cell without a diagnosis: the vectors or protocol row's brief, else the
    port's own reason for its ERROR (``Cell.failure``: no stderr tail), else its reason."""
    return cell.brief[0] if cell.brief else cell.failure or cell.reason


def agent_of(d: Diagnosis) -> int | None:
    """The agent a diagnosis's headline names: the constraint's, the preferred velocity's, else the state's."""
    if d.constraint is not None:
        return d.constraint.agent
    if d.preferred is not None:
        return d.preferred.agent
    return d.state.agent if d.state is not None and d.state.agent >= 0 else None


def cause_of(cell: Cell) -> CellCause:
    d = cell.diagnosis
    if d is None:
        citation = cell.citation
        ids = tuple(citation.ids) if citation is not None else ()
        return CellCause(cell.runner, cell.status, "", own_head(cell), ids, bool(citation and citation.found))
    ids = tuple(d.citation.ids) if d.citation is not None else ()
    stopped = ("non-finite" if d.non_finite is not None else "failed") if cell.status == ERROR else ""
    return CellCause(cell.runner, cell.status, d.kind, d.key or d.headline or NO_CAUSE, ids,
                     bool(d.citation and d.citation.found), stopped)


def place_of(cell: Cell) -> CellPlace:
    d = cell.diagnosis
    if d is None:
        return CellPlace(cell.row, cell.step)
    return CellPlace(cell.row, d.step, agent_of(d))


def cause_json(cell: Cell) -> dict:
    """The cause and the agent of a red cell, as report.json keeps them (``from_report_cell`` reads them)."""
    c = cause_of(cell)
    return {"kind": str(c.kind), "key": c.key, "clauses": list(c.clauses), "clause_found": c.found,
            "stopped": c.stopped, "agent": place_of(cell).agent}


def from_report_cell(cell: dict) -> tuple[CellCause, CellPlace]:
    """A report cell's cause and place; a cell of a report written before causes were recorded is
    a group of its own (keyed by its row)."""
    column = cell.get("column", cell["runner"])
    recorded = cell.get("cause")
    if not isinstance(recorded, dict):
        return CellCause(column, cell["status"], "", f"{cell['row']}: {cell['reason']}"), CellPlace(cell["row"], cell["step"])
    cause = CellCause(column, cell["status"], recorded.get("kind", ""), recorded.get("key", ""),
                      tuple(recorded.get("clauses", ())), bool(recorded.get("clause_found")), recorded.get("stopped", ""))
    step = (cell.get("diagnosis") or {}).get("step", cell["step"])
    return cause, CellPlace(cell["row"], step, recorded.get("agent"))


def group_causes(items: list[tuple[CellCause, CellPlace, object]]) -> list[CauseGroup]:
    """(cause, place, cell) triples grouped by cause, in the order the causes first appear."""
    groups: dict[CellCause, CauseGroup] = {}
    for cause, place, member in items:
        group = groups.setdefault(cause, CauseGroup(cause))
        group.places.append(place)
        group.members.append(member)
    return list(groups.values())


def group_cells(cells: list[Cell]) -> list[CauseGroup]:
    """The red cells among ``cells``, grouped by cause (``group_causes``)."""
    return group_causes([(cause_of(c), place_of(c), c) for c in cells if c.status in RED])


def group_report_cells(cells: list[dict]) -> list[CauseGroup]:
    """A report's red cells grouped by their recorded causes."""
    return group_causes([(*from_report_cell(c), c) for c in cells if c["status"] in RED])
