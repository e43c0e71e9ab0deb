"""One column's exact share of the matrix's progress bar, and each row's share in units.

Contract: ``shares(scenarios, lead_rows)`` gives every row its units on the bar (a scenario's
agent-states, a lead row one unit); a ``ColumnMeter`` advances the bar by exactly its column's
share, whatever the cells end as, and tells the column's clock (``MatrixClock``, duck-typed: it
has ``now``, ``progress``, ``record`` and ``finished``) each cell's progress and time.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator, Sequence


class ColumnMeter:
    """One column's share of the matrix bar, advanced exactly: one cell when each row ends, and
    at ``finish`` the rows it never ran (a skipped or broken column); the clock learns each cell's
    progress in its units (its steps times ``per_step``, as ``compare_scenario`` calls
    ``on_step`` once per matching state) and every finished cell's time."""

    def __init__(self, bar, clock, column: str, shares: dict[str, tuple[int, int]]):
        self.bar, self.clock, self.column = bar, clock, column
        self.shares = shares  # row -> (units, units per on_step)
        self.open = dict.fromkeys(shares)  # rows whose cell is not counted yet

    @contextmanager
    def cell(self, row: str) -> Iterator[Callable[[], None]]:
        """``with meter.cell(row) as on_step``: tells the clock the cell's progress, counts the
        cell on the bar when it ends, times it."""
        units, per_step = self.shares[row] if row in self.open else (0, 0)
        count = 1 if row in self.open else 0
        self.open.pop(row, None)
        left, percent = [units], [0]
        self.bar.advance(0, label=f"{self.column} {row}")
        started = self.clock.now()

        def on_step() -> None:
            left[0] -= min(per_step, left[0])
            if units and 100 * (units - left[0]) // units != percent[0]:  # every 1 % of the cell
                percent[0] = 100 * (units - left[0]) // units
                self.clock.progress(self.column, row, percent[0])
                self.bar.advance(0)

        try:
            yield on_step
            self.clock.record(self.column, row, self.clock.now() - started)
        finally:
            self.bar.advance(count)

    def finish(self) -> None:
        """The cells the column never ran; its worker is free."""
        rest = len(self.open)
        self.open.clear()
        self.clock.finished(self.column)
        self.bar.advance(rest)


def shares(scenarios, lead_rows: str | Sequence[str] | None) -> dict[str, tuple[int, int]]:
    """Each row's (units, units per on_step): a scenario is max(1, agents) units for each of its
    steps + 1 states (a scene of no agent still counts its states); each lead row (the vectors
    row, the protocol row: ``lead_rows``, a name or a sequence of them) is one unit."""
    leads = [lead_rows] if isinstance(lead_rows, str) else list(lead_rows or [])
    rows = {row: (1, 1) for row in leads}
    for s in scenarios:
        per_step = max(1, len(s.scene.agents))
        rows[s.id] = (per_step * (s.scene.steps + 1), per_step)
    return rows
