"""The matrix's clock: the remaining wall time, from what each column was expected to take
(its ``Prior``: builds and cells) and the rates measured in this run.

Model: a column first compiles its port (its prior's ``build`` seconds, 0 when cached; a build
that has taken longer than that counts as ending now, a lower bound), then runs its cells.  A
cell takes ``factor[column] * cost[row]`` seconds.  A row's cost comes from every finished cell
of it, in any column (``fit``); a row no column has finished yet costs its size (agent-states)
times the seconds per agent-state of the finished scenario rows (the vectors and protocol rows
have no size: each is known once one column finished it).  A column's factor is its own
finished scenario cells' time over those rows' costs (the vectors row is other work, 6x slower
emulated where a crowd is 25x, so it does not set the factor; nor does the protocol row).

A column without a finished scenario cell has no factor of its own: with a prior, it is its
prior's run time scaled as the measured columns' fitted times are to theirs; without one, the
*slowest* factor measured so far (an ETA that shrinks is more honest than one that jumps up at
the end).  The current cell of a running column counts too: once 5 % of its states are compared,
its time is projected from its pace (the share of the time those states took in the columns that
ran the row before), and a first scenario cell's projection sets its column's factor; before
that, a cell that has already taken longer than the factor says counts as finished now, a lower
bound (``AtLeast``: the bar shows "ETA >m:ss").

With priors, the measured estimate of a column's cells is blended with its prior's:
w * measured + (1 - w) * prior, w = e / (e + PRIOR_SECONDS), e the seconds of finished scenario
cells in the whole run; so the ETA starts from the priors (a first run's builds included) and
follows the measurements as they accumulate, without the jump of a first tiny cell.  The
remaining wall time is the greedy schedule that the thread pool follows: running columns keep
their workers, queued columns take the first worker free, in submission order.  Without priors
and until a scenario cell is finished, ``None``: the bar says "estimating".  Not modelled:
columns running side by side slow each other down (cores, the GIL), and a build shared by two
columns is counted once, for the first.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from .matrix_meter import ColumnMeter, shares

TINY = 1e-6  # seconds: a cell is never free (keeps the ratios finite)
MIN_PART = 0.05  # of a cell's states compared before its own pace projects its time
PRIOR_SECONDS = 10.0
"""Seconds of finished scenario cells at which the measured rates and the priors weigh the same."""
BUILD_PRIOR_SECONDS = 30.0
"""Seconds of finished builds at which their measured pace and the expected times weigh the same."""


@dataclass(frozen=True)
class Prior:
    """What a column is expected to take before anything of it is measured: ``build`` seconds
    of compiling before its first cell (0 when its port is cached or it compiles nothing) and
    ``run`` seconds of all its cells."""

    build: float
    run: float


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
    priors: dict[str, Prior] = field(default_factory=dict)
    _taken: dict[str, float] = field(default_factory=dict)  # column holding a worker: since when
    _built: list[tuple[float, float]] = field(default_factory=list)  # finished builds: (seconds, expected)
    _seconds: dict[tuple[str, str], float] = field(default_factory=dict)
    _since: dict[str, float] = field(default_factory=dict)  # running column: when its current cell began
    _part: dict[str, int] = field(default_factory=dict)  # running column: percent of its current cell done
    _trace: dict[tuple[str, str], dict[int, float]] = field(default_factory=dict)  # cell: percent -> seconds
    _finished: set[str] = field(default_factory=set)
    _fit: tuple[dict[str, float], dict[str, float]] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @classmethod
    def for_matrix(cls, columns: list[str], scenarios, lead_rows: str | Sequence[str] | None,
                   jobs: int, priors: dict[str, Prior] | None = None,
                   now: Callable[[], float] | None = None) -> "MatrixClock":
        """The clock of a matrix run: its rows' shares (``shares``; ``lead_rows``, the vectors and
        protocol rows each column runs first, or one name, or None); ``jobs`` is 1 for one column;
        ``priors`` per column (matrix_plan); ``now`` the clock (default time.monotonic)."""
        share = shares(scenarios, lead_rows)
        return cls(list(columns), list(share), {s.id: share[s.id][0] for s in scenarios},
                   jobs=max(1, jobs) if len(columns) > 1 else 1, now=now or time.monotonic, shares=share,
                   priors=dict(priors or {}))

    @property
    def units(self) -> int:
        """One column's units on the bar."""
        return sum(units for units, _ in self.shares.values())

    def meter(self, bar, column: str) -> "ColumnMeter":
        return ColumnMeter(bar, self, column, self.shares)

    def started(self, column: str) -> None:
        """The column holds a worker: it builds its port first when it has a prior (until
        ``built``), else it begins its first cell."""
        with self._lock:
            self._taken[column] = self.now()
            if column not in self.priors:
                self._since[column] = self._taken[column]

    def built(self, column: str) -> None:
        """The column's port is ready (built, or found in the cache): its first cell begins."""
        with self._lock:
            now = self.now()
            prior = self.priors.get(column)
            if prior is not None and prior.build > 0 and column in self._taken:
                self._built.append((now - self._taken[column], prior.build))
            self._since[column] = now

    def builds_done(self) -> int:
        """How many of the columns that build first are past their build (or ended without it)."""
        with self._lock:
            return sum(1 for c, p in self.priors.items() if p.build > 0 and (c in self._since or c in self._finished))

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
            self._taken.pop(column, None)

    def remaining_seconds(self, now: float | None = None) -> float | None:
        """The wall time left (greedy schedule on ``jobs`` workers), or None while unknown."""
        with self._lock:
            now = self.now() if now is None else now
            factor, cost = self._fitted()
            if not factor and any(c not in self.priors for c in self.columns if c not in self._finished):
                return None
            evidence = sum(t for (_, r), t in self._seconds.items() if r in self.sizes)
            weight = evidence / (evidence + PRIOR_SECONDS) if self.priors else 1.0
            guess = self._guesses(factor)
            running, queued, bound = [], [], False
            for column in (c for c in self.columns if c not in self._finished):
                build, late = self._build_left(column, now)
                measured = self._measured_left(column, now, factor, cost, guess) if factor else None
                expected = self._prior_left(column, now)
                if measured is None and expected is None:
                    return None
                if measured is None or expected is None:
                    seconds, at_least = measured or expected
                else:
                    seconds = weight * measured[0] + (1 - weight) * expected[0]
                    at_least = measured[1] or expected[1]
                (running if column in self._taken else queued).append(build + seconds)
                bound = bound or at_least or late
            finish = greedy_finish(running, queued, self.jobs)
            return AtLeast(finish) if bound else finish

    def _measured_left(self, column: str, now: float, factor: dict[str, float], cost: dict[str, float],
                       guess: dict[str, float]) -> tuple[float, bool] | None:
        """A column's cells left from the measured rates (None when a row's cost is unknown):
        a column not yet in its cells takes its ``guess`` factor; a running one, ``_running``."""
        per_size = _per_size(cost, self.sizes)
        left = {r: _row_cost(r, cost, self.sizes, per_size) for r in self.rows if (column, r) not in self._seconds}
        if None in left.values():
            return None
        if column not in self._since:
            return guess[column] * sum(left.values()), False
        return self._running(column, guess[column], now - self._since[column], left, cost)

    def _guesses(self, factor: dict[str, float]) -> dict[str, float]:
        """Each column's factor before it has one of its own: its prior's run time scaled as the
        measured columns' factors are to their priors' run times, else the slowest factor measured."""
        slowest = max(factor.values(), default=0.0)
        known = [c for c in factor if c in self.priors and self.priors[c].run > 0]
        if not known:
            return {c: slowest for c in self.columns}
        scale = sum(factor[c] for c in known) / sum(self.priors[c].run for c in known)
        return {c: self.priors[c].run * scale if c in self.priors else slowest for c in self.columns}

    def _build_left(self, column: str, now: float) -> tuple[float, bool]:
        """The seconds of a column's build still to come (expected seconds times the pace of the
        builds finished so far, shrunk towards 1), and whether it has run past that."""
        prior = self.priors.get(column)
        if prior is None or column in self._since or prior.build <= 0:
            return 0.0, False
        done, expected = sum(t for t, _ in self._built), sum(e for _, e in self._built)
        seconds = prior.build * (done + BUILD_PRIOR_SECONDS) / (expected + BUILD_PRIOR_SECONDS)
        if column not in self._taken:
            return seconds, False
        spent = now - self._taken[column]
        return max(0.0, seconds - spent), spent > seconds

    def _prior_left(self, column: str, now: float) -> tuple[float, bool] | None:
        """A column's cells left by its prior alone (None without one): its run time less the
        share of its units already behind it (finished rows, the current cell's percent)."""
        prior = self.priors.get(column)
        if prior is None:
            return None
        total = sum(units for units, _ in self.shares.values()) or 1
        behind = sum(units for r, (units, _) in self.shares.items() if (column, r) in self._seconds)
        current = next((r for r in self.rows if (column, r) not in self._seconds), None)
        if current is not None and column in self._since:
            behind += self.shares.get(current, (0, 0))[0] * self._part.get(column, 0) / 100
        return prior.run * max(0.0, 1 - behind / total), False

    def _running(self, column: str, guess: float, elapsed: float, left: dict[str, float],
                 cost: dict[str, float]) -> tuple[float, bool]:
        """A running column's seconds left, and whether that is a lower bound.  The rows after the
        current one take the column's factor on its finished scenario cells (none yet: the
        current scenario cell's, or ``guess``).  The current cell, once MIN_PART of it is done,
        is projected from its pace (``_pace``); before that, the factor holds while the cell is
        within it, and once the cell has taken longer, the time taken so far counts as the
        cell's time: a lower bound."""
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
        guess = guess if own is None else own
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
