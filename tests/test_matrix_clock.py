"""The matrix's clock: an ETA from this run's measured rates (fake clock, no sleeping), and a
bar whose units reach exactly the total on a real run, whatever the cells end as."""

from __future__ import annotations

import io
from itertools import islice

import pytest

from conformance.contract.scenario import load_scenario
from conformance.judge import matrix_plan
from conformance.judge.matrix import ERROR, PASS, SKIPPED, run_matrix
from conformance.judge.matrix_clock import MatrixClock, fit, greedy_finish
from conformance.progress import Progress
from conformance.runners.base import RunnerError, RunnerUnavailable
from conformance.runners.reference import ReferenceRunner
from conftest import ROOT

COSTS = [1.0, 3.0, 2.0, 5.0, 4.0, 1.0, 2.0, 6.0]  # seconds of each scenario on the fast column
# the slow column is ~10x slower (not exactly); a queued one, also emulated, 8x (the clock gives a
# column that has not started the slowest factor measured, see matrix_clock)
ROWS = [f"s{i}" for i in range(len(COSTS))]
NOISE = [1.2, 1.0, 0.8, 1.1, 0.9, 1.3, 0.7, 1.0]


class FakeTime:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def schedule(factors: dict[str, list[float]], jobs: int) -> list[tuple[float, str, str, int]]:
    """The pool's greedy schedule of the columns (cell seconds, in submission order) on ``jobs``
    workers: events (time, kind, column, cell) with kind "start", "cell" or "end"."""
    free = [0.0] * jobs
    events = []
    for column, cells in factors.items():
        free.sort()
        t = free[0]
        events.append((t, "start", column, -1))
        for i, seconds in enumerate(cells):
            t += seconds
            events.append((t, "cell", column, i))
        events.append((t, "end", column, -1))
        free[0] = t
    return sorted(events, key=lambda e: (e[0], ("cell", "end", "start").index(e[1])))


def replay(events, clock: MatrixClock, now: FakeTime, until) -> float:
    """Feed the clock the events up to the first moment ``until(done)`` holds; returns that time."""
    done: dict[str, int] = {}
    last: dict[str, float] = {}  # when each column's current cell began
    for t, kind, column, cell in events:
        now.t = t
        if kind == "start":
            clock.started(column)
        elif kind == "cell":
            clock.record(column, ROWS[cell], t - last[column])
            done[column] = done.get(column, 0) + 1
        else:
            clock.finished(column)
        last[column] = t
        if until(done):
            return t
    raise AssertionError("never reached")


@pytest.mark.parametrize("jobs, order", [(1, ("fast", "slow")), (2, ("fast", "slow")), (2, ("slow", "fast")),
                                         (2, ("fast", "slow", "queued")), (1, ("fast", "slow", "queued"))])
def test_the_eta_follows_a_slow_column_once_it_has_finished_one_cell(jobs: int, order) -> None:
    cells = {"fast": COSTS, "slow": [10 * c * n for c, n in zip(COSTS, NOISE)], "queued": [8 * c for c in COSTS]}
    factors = {name: cells[name] for name in order}
    events = schedule(factors, jobs)
    finish = max(t for t, *_ in events)
    now = FakeTime()
    clock = MatrixClock(list(order), ROWS, {r: 100 * c for r, c in zip(ROWS, COSTS)}, jobs=jobs, now=now)
    t = replay(events, clock, now, lambda done: done.get("fast", 0) == len(ROWS) and done.get("slow", 0) >= 1)
    eta = clock.remaining_seconds()
    assert eta is not None
    true = finish - t
    assert abs(eta - true) <= 0.5 * true, (jobs, order, t, eta, true)
    bar = Progress(100, "matrix", stream=io.StringIO(), eta=clock.remaining_seconds, clock=now)
    bar.done = 50
    assert ", ETA " in bar.line() and "estimating" not in bar.line()


def test_before_any_scenario_cell_the_clock_says_nothing_and_the_bar_says_estimating() -> None:
    now = FakeTime()
    clock = MatrixClock(["c", "arm64"], ["vectors"] + ROWS, dict(zip(ROWS, COSTS)), jobs=2, now=now)
    bar = Progress(1000, "matrix", stream=io.StringIO(), eta=clock.remaining_seconds, clock=now)
    assert clock.remaining_seconds() is None
    clock.started("c")
    clock.started("arm64")
    now.t = 5.0
    bar.advance(10)
    assert clock.remaining_seconds() is None and ", estimating  matrix" in bar.line()
    clock.record("c", "vectors", 1.0)  # the vectors row has no size: scenario costs are still unknown
    assert clock.remaining_seconds() is None
    clock.record("c", "s0", 1.0)
    assert clock.remaining_seconds() is not None and ", ETA " in bar.line()


def test_a_column_without_a_finished_cell_is_as_slow_as_its_current_cell_shows() -> None:
    """Its factor is the slowest measured, and never below what its first cell has taken."""
    now = FakeTime()
    clock = MatrixClock(["fast", "slow"], ROWS, dict(zip(ROWS, COSTS)), jobs=1, now=now)
    clock.started("fast")
    for row, cost in zip(ROWS, COSTS):
        now.t += cost
        clock.record("fast", row, cost)
    clock.finished("fast")
    clock.started("slow")
    assert clock.remaining_seconds() == pytest.approx(sum(COSTS))  # the slowest factor: the fast one's
    assert not getattr(clock.remaining_seconds(), "at_least", False)
    now.t += 60.0  # the first cell (cost 1) has taken 60 s: the column is at least 60x slower
    remaining = clock.remaining_seconds()
    assert remaining == pytest.approx(60 * (sum(COSTS) - COSTS[0])) and remaining.at_least
    bar = Progress(100, "matrix", stream=io.StringIO(), eta=clock.remaining_seconds, clock=now)
    assert ", ETA >23:00  matrix" in bar.line()


def test_a_long_cell_is_projected_from_its_pace_in_the_columns_before() -> None:
    """The fast column took 80 % of its time for the first half of s0's states: the slow column,
    half way through s0 after 40 s, will take 50 s for it, then 50x the rest."""
    now = FakeTime()
    clock = MatrixClock(["fast", "slow"], ROWS, dict(zip(ROWS, COSTS)), jobs=1, now=now)
    clock.started("fast")
    for percent in (10, 50, 100):
        now.t = {10: 0.2, 50: 0.8, 100: 1.0}[percent]
        clock.progress("fast", "s0", percent)
    clock.record("fast", "s0", 1.0)
    for row, cost in zip(ROWS[1:], COSTS[1:]):
        now.t += cost
        clock.record("fast", row, cost)
    clock.finished("fast")
    clock.started("slow")
    now.t += 4.0
    clock.progress("slow", "s0", 10)  # 20 % of the time: a 20 s cell, so far
    assert clock.remaining_seconds() == pytest.approx(20 * sum(COSTS) - 4)
    now.t += 36.0
    clock.progress("slow", "s0", 50)
    remaining = clock.remaining_seconds()
    assert remaining == pytest.approx(10 + 50 * (sum(COSTS) - 1)) and not getattr(remaining, "at_least", False)


def test_the_fit_recovers_factors_and_costs_up_to_scale() -> None:
    seconds = {("a", r): c for r, c in zip(ROWS, COSTS)}
    seconds.update({("b", r): 7 * c for r, c in zip(ROWS[:3], COSTS)})
    factor, cost = fit(seconds)
    assert factor["b"] / factor["a"] == pytest.approx(7)
    assert cost["s3"] / cost["s0"] == pytest.approx(5)


def test_queued_columns_take_the_first_free_worker() -> None:
    assert greedy_finish([5.0], [3.0, 4.0], jobs=2) == 7.0  # 3 on the free worker, 4 after it at 3
    assert greedy_finish([], [3.0, 4.0, 1.0], jobs=1) == 8.0
    assert greedy_finish([2.0, 9.0], [], jobs=2) == 9.0


class Recording(Progress):
    bars: list[Progress] = []

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        Recording.bars.append(self)


class Missing(ReferenceRunner):
    def info(self):
        raise RunnerUnavailable("not installed here")


class DiesMidRun(ReferenceRunner):
    def hashes(self, scene, steps=None):
        yield from islice(super().hashes(scene, steps), 3)
        raise RunnerError("no reply to step 3")


class TooMany(ReferenceRunner):
    def hashes(self, scene, steps=None):
        yield from super().hashes(scene, steps)
        yield "0" * 64


def test_the_matrix_units_reach_exactly_the_total(monkeypatch) -> None:
    """A scene of no agent, a small one; a column that passes, one that runs past the end, one
    that dies mid-run, one that is skipped: the bar counts cells and ends exactly at its total."""
    monkeypatch.setattr(matrix_plan, "Progress", Recording)
    Recording.bars.clear()
    scenarios = [load_scenario(ROOT / "scenarios" / "orca" / f"{name}.yaml") for name in ("zero-agents", "lone-agent")]
    runners = [ReferenceRunner(), TooMany("too-many"), DiesMidRun("dies"), Missing("missing")]
    for jobs in (1, 2):
        result = run_matrix(scenarios, runners, ROOT / "goldens", jobs=jobs)
        bar = Recording.bars[-1]
        assert bar.done == bar.total == 4 * 4  # vectors, protocol, the two scenes
        assert bar.unit == "cells" and bar.extra is None  # nothing to build
        statuses = {r: result.cells[("orca/lone-agent", r)].status for r in result.runners}
        assert statuses == {"reference": PASS, "too-many": ERROR, "dies": ERROR, "missing": SKIPPED}
