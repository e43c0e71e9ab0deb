"""The matrix's clock: the remaining wall time, from the rates measured in this run, and each
column's exact share of the progress bar.

Model: a cell takes ``factor[column] * cost[row]`` seconds.  A row's cost comes from every
finished cell of it, in any column (``fit``); a row no column has finished yet costs its size
(agent-states) times the seconds per agent-state of the finished scenario rows (the vectors and
protocol rows have no size: each is known once one column finished it).  A column's factor is its
own finished scenario cells' time over those rows' costs (the vectors row is other work, 6x slower
emulated where a crowd is 25x, so it does not set the factor; nor does the protocol row).

A column without a finished scenario cell has no factor of its own: it is given the *slowest*
factor measured so far, because a column emulated by Unicorn is 20-50 times slower than a native
one (with one job it comes after them in the default order; with several the matrix starts it
first, and the native columns finish beside it), and an ETA that shrinks is more honest than one
that jumps up at the end.  The current cell of a running column counts too: once 5 % of its states
are compared, its time is projected from its pace (the share of the time those states took in
the columns that ran the row before), and a first scenario cell's projection sets its column's
factor; before that, a cell that has already taken longer than the factor says counts as finished
now, a lower bound (``AtLeast``: the bar shows "ETA >m:ss").  The remaining wall time is the
greedy schedule that the thread pool follows: running columns keep their workers, queued columns
take the first worker free, in submission order.  Until a scenario cell is finished, ``None``: the
bar says "estimating".  No prior, no constant rate: everything comes from this run.  Not modelled:
columns running side by side slow each other down (cores, the GIL), so a column measured beside
another runs faster once alone, and the ETA overestimates until its pace shows it.
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

TINY = 1e-6  # seconds: a cell is never free (keeps the ratios finite)
MIN_PART = 0.05  # of a cell's states compared before its own pace projects its time


@dataclass
class MatrixClock:
    """``columns`` in submission order; ``rows`` in the order each column runs them; ``sizes``
    (agent-states) of the rows that can be extrapolated (the scenarios); ``jobs`` workers."""

    columns: list[str]
    rows: list[str]
    sizes: dict[str, float]
    jobs: int = 1
    now: Callable[[], float] = time.monotonic
    shares: dict[str, tuple[int, int]] = field(default_factory=dict)  # row -> (units, units per on_step)
    _seconds: dict[tuple[str, str], float] = field(default_factory=dict)
    _since: dict[str, float] = field(default_factory=dict)  # running column: when its current cell began
    _part: dict[str, int] = field(default_factory=dict)  # running column: percent of its current cell done
    _trace: dict[tuple[str, str], dict[int, float]] = field(default_factory=dict)  # cell: percent -> seconds
    _finished: set[str] = field(default_factory=set)
    _fit: tuple[dict[str, float], dict[str, float]] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def for_matrix(cls, columns: list[str], scenarios, lead_rows: str | Sequence[str] | None,
                   jobs: int) -> "MatrixClock":
        """The clock of a matrix run: its rows' shares (``shares``; ``lead_rows``, the vectors and
        protocol rows each column runs first, or one name, or None); ``jobs`` is 1 for one column."""
        share = shares(scenarios, lead_rows)
        return cls(list(columns), list(share), {s.id: share[s.id][0] for s in scenarios},
                   jobs=max(1, jobs) if len(columns) > 1 else 1, shares=share)

    @property
    def units(self) -> int:
        """One column's units on the bar."""
        return sum(units for units, _ in self.shares.values())

    def meter(self, bar, column: str) -> "ColumnMeter":
        return ColumnMeter(bar, self, column, self.shares)

    def started(self, column: str) -> None:
        """The column holds a worker and begins its first cell."""
        with self._lock:
            self._since[column] = self.now()

    def progress(self, column: str, row: str, percent: int) -> None:
        """``percent`` of the column's current cell (its states) is done."""
        with self._lock:
            self._part[column] = percent
            self._trace.setdefault((column, row), {})[percent] = self.now() - self._since.get(column, self.now())

    def record(self, column: str, row: str, seconds: float) -> None:
        """A finished cell (its own time); the column's next cell begins now."""
        with self._lock:
            self._seconds[(column, row)] = max(TINY, seconds)
            self._since[column] = self.now()
            self._part.pop(column, None)
            self._fit = None

    def finished(self, column: str) -> None:
        """The column has nothing left (done, skipped or broken): its worker is free."""
        with self._lock:
            self._finished.add(column)
            self._since.pop(column, None)

    def remaining_seconds(self, now: float | None = None) -> float | None:
        """The wall time left (greedy schedule on ``jobs`` workers), or None while unknown."""
        with self._lock:
            now = self.now() if now is None else now
            factor, cost = self._fitted()
            if not factor:
                return None
            per_size = _per_size(cost, self.sizes)
            slowest = max(factor.values())
            running, queued, bound = [], [], False
            for column in (c for c in self.columns if c not in self._finished):
                left = {r: _row_cost(r, cost, self.sizes, per_size)
                        for r in self.rows if (column, r) not in self._seconds}
                if None in left.values():
                    return None
                if column not in self._since:
                    queued.append(slowest * sum(left.values()))
                    continue
                seconds, at_least = self._running(column, slowest, now - self._since[column], left, cost)
                running.append(seconds)
                bound = bound or at_least
            finish = greedy_finish(running, queued, self.jobs)
            return AtLeast(finish) if bound else finish

    def _running(self, column: str, slowest: float, elapsed: float, left: dict[str, float],
                 cost: dict[str, float]) -> tuple[float, bool]:
        """A running column's seconds left, and whether that is a lower bound.  The rows after the
        current one take the column's factor on its finished scenario cells (none yet: the
        current scenario cell's, or the slowest).  The current cell, once MIN_PART of it is done,
        is projected from its pace (``_pace``); before that, the factor holds while the cell is
        within it, and once the cell has taken longer, the time taken so far counts as the cell's
        time: a lower bound."""
        if not left:
            return 0.0, False
        row, k = next(iter(left.items()))
        rest = sum(left.values()) - k
        mine = [(t, cost[r]) for (c, r), t in self._seconds.items() if c == column and r in cost and r in self.sizes]
        spent, costs = sum(t for t, _ in mine), sum(q for _, q in mine)
        own = spent / costs if mine else None
        part = self._pace(column, row)
        if part is not None:
            projected = elapsed / part
            return max(0.0, projected - elapsed) + (projected / k if own is None else own) * rest, False
        guess = slowest if own is None else own
        if elapsed <= guess * k:
            return guess * (k + rest) - elapsed, False
        rate = (spent + elapsed) / (costs + k)
        return max(0.0, rate * k - elapsed) + rate * rest, True

    def _pace(self, column: str, row: str) -> float | None:
        """The share of its time the column's current cell has behind it: the share the same
        states took in the other columns that compared all of the row (a crowd's steps are not
        equally long), else the share of its states; None before MIN_PART of either."""
        percent = self._part.get(column, 0)
        seen = [trace[percent] / self._seconds[(c, r)] for (c, r), trace in self._trace.items()
                if r == row and c != column and percent in trace and 100 in trace and (c, r) in self._seconds]
        part = sum(seen) / len(seen) if seen else percent / 100
        return part if min(part, percent / 100) >= MIN_PART else None

    def _fitted(self) -> tuple[dict[str, float], dict[str, float]]:
        if self._fit is None:
            self._fit = fit(self._seconds, set(self.sizes))
        return self._fit


class AtLeast(float):
    """Remaining seconds that are a lower bound (a column slower than anything measured yet);
    the bar shows them as "ETA >m:ss"."""

    at_least = True


def fit(seconds: dict[tuple[str, str], float], scenarios: set[str] = frozenset()
        ) -> tuple[dict[str, float], dict[str, float]]:
    """(factor per column, cost per row) with seconds[(c, r)] ~ factor[c] * cost[r].  Every column
    runs the rows in the same order, so the column with the most finished cells (the anchor, factor
    1) has finished every row another has: a column's factor is its time over the anchor's on the
    same rows, the ``scenarios`` rows once it has finished one (the vectors row is other work: 6x
    slower emulated where a crowd is 25x); a row's cost, its cells' time over their columns'
    factors (sums: the long cells weigh most).  Only the products matter, not the scale."""
    cells: dict[str, dict[str, float]] = {}
    for (c, r), t in seconds.items():
        cells.setdefault(c, {})[r] = t
    if not cells:
        return {}, {}
    base = cells[max(cells, key=lambda c: len(cells[c]))]
    factor = {}
    for c, done in cells.items():
        shared = [r for r in done if r in base]
        if any(r in scenarios for r in shared):
            shared = [r for r in shared if r in scenarios]
        if shared:
            factor[c] = sum(done[r] for r in shared) / sum(base[r] for r in shared)
    total: dict[str, list[float]] = {}
    for (c, r), t in seconds.items():
        if c in factor:
            pair = total.setdefault(r, [0.0, 0.0])
            pair[0] += t
            pair[1] += factor[c]
    return factor, {r: t / f for r, (t, f) in total.items()}


def _per_size(cost: dict[str, float], sizes: dict[str, float]) -> float | None:
    """Seconds per agent-state of the finished scenario rows (None before any)."""
    known = [(cost[r], sizes[r]) for r in cost if sizes.get(r, 0) > 0]
    return sum(c for c, _ in known) / sum(s for _, s in known) if known else None


def _row_cost(row: str, cost: dict[str, float], sizes: dict[str, float], per_size: float | None) -> float | None:
    if row in cost:
        return cost[row]
    if per_size is None or sizes.get(row, 0) <= 0:
        return None
    return max(TINY, per_size * sizes[row])


def greedy_finish(running: list[float], queued: list[float], jobs: int) -> float:
    """When the last column ends: running columns hold their workers, each queued column (in
    order) takes the worker that is free first."""
    workers = sorted(running) + [0.0] * max(0, jobs - len(running))
    for work in queued:
        workers.sort()
        workers[0] += work
    return max(workers, default=0.0)


class ColumnMeter:
    """One column's share of the matrix bar, advanced exactly: each row's ``units`` (its steps
    times ``per_step``, as ``compare_scenario`` calls ``on_step`` once per matching state, capped
    at the share), the rest of a row's share when it ends (a divergence or an error stops early),
    the rest of the column's share at ``finish`` (a skipped or broken column); the clock learns
    every finished cell."""

    def __init__(self, bar, clock: MatrixClock, column: str, shares: dict[str, tuple[int, int]]):
        self.bar, self.clock, self.column = bar, clock, column
        self.shares = shares  # row -> (units, units per on_step)
        self.open = dict.fromkeys(shares)  # rows whose share is not advanced yet

    @contextmanager
    def cell(self, row: str) -> Iterator[Callable[[], None]]:
        """``with meter.cell(row) as on_step``: advances the row's share, times the cell."""
        units, per_step = self.shares[row] if row in self.open else (0, 0)
        self.open.pop(row, None)
        left, percent = [units], [0]
        self.bar.advance(0, label=f"{self.column} {row}")
        started = time.perf_counter()

        def on_step() -> None:
            n = min(per_step, left[0])
            left[0] -= n
            self.bar.advance(n)
            if units and 100 * (units - left[0]) // units != percent[0]:  # every 1 % of the cell
                percent[0] = 100 * (units - left[0]) // units
                self.clock.progress(self.column, row, percent[0])

        try:
            yield on_step
            self.clock.record(self.column, row, time.perf_counter() - started)
        finally:
            self.bar.advance(left[0])

    def finish(self) -> None:
        """Whatever is left of the column's share; its worker is free."""
        rest = sum(self.shares[row][0] for row in self.open)
        self.open.clear()
        self.bar.advance(rest)
        self.clock.finished(self.column)


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
