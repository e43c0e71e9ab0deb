"""A red cell of a report in a few seconds: its short form, and the causes a report's red cells share.

Contract: ``brief_of(cell)`` is a report cell's short form (the headline, then at most two
lines: judge/cell_text.py), or its reason for a report written before cells carried one.
``cause_groups(cells)`` groups the red cells by column and headline cause, in the order they
first appear, so that a page can say each distinct cause once before any detail.
"""

from __future__ import annotations

from dataclasses import dataclass, field


def brief_of(cell: dict) -> list[str]:
    """The headline and at most two lines of a DIVERGED or ERROR report cell."""
    return cell.get("brief") or [f"{cell['status']} {cell['row']} [{cell['runner']}]: {cell['reason']}"]


def cause_of(cell: dict) -> str:
    """The headline without its status, row and runner (the part cells of one mistake share)."""
    head = brief_of(cell)[0].split("]: ", 1)[-1]
    step = head.split(": ", 1)
    return step[1] if len(step) > 1 and step[0].startswith("step ") else head


@dataclass
class CauseGroup:
    """Red cells of one column that say the same cause."""

    column: str
    status: str
    cause: str
    cells: list[dict] = field(default_factory=list)


def cause_groups(cells: list[dict]) -> list[CauseGroup]:
    groups: dict[tuple[str, str], CauseGroup] = {}
    for cell in cells:
        if cell["status"] not in ("DIVERGED", "ERROR"):
            continue
        column = cell.get("column", cell["runner"])
        cause = cause_of(cell)
        group = groups.setdefault((column, cause), CauseGroup(column, cell["status"], cause))
        group.cells.append(cell)
    return list(groups.values())
