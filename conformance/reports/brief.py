"""A red cell of a report in a few seconds: its short form.

Contract: ``brief_of(cell)`` is a report cell's short form (the headline, then at most two
lines: judge/cell_text.py), or its reason for a report written before cells carried one.  The
causes a report's red cells share are grouped by judge/cell_groups.py from each cell's typed
``cause``, never from these words.
"""

from __future__ import annotations


def brief_of(cell: dict) -> list[str]:
    """The headline and at most two lines of a DIVERGED or ERROR report cell."""
    return cell.get("brief") or [f"{cell['status']} {cell['row']} [{cell['runner']}]: {cell['reason']}"]
