"""The matrix's plan, made before anything runs: what each column builds first, how long each is
expected to take, and the order in which the columns start.

Contract: ``plan_columns(columns, runners, units, jobs)`` gives every column a ``ColumnPlan``:
the builds its first use compiles that are not cached (``runners.build_estimate``: last time's
seconds here, else the typical seconds of the kind; a build two columns share, the wasm module,
belongs to the first that starts), and the expected seconds of its cells, COLUMN_SECONDS plus
its ``Runner.cost`` times SECONDS_PER_UNIT per unit of the bar.  With more than one job the
columns start longest first, builds included (a stable sort: equal ones keep the order given),
so that the slowest builds and the emulated columns do not end the run alone; with one job, in
the order given.  ``first_run_lines`` is what a run with builds to make prints before it starts.
Nothing here runs a column; the clock (``MatrixClock``) takes the plans as its priors.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..progress import Progress
from ..runners.build.layer import cache_root
from ..runners.build_estimate import PlannedBuild, pending_builds
from .matrix_clock import MatrixClock, Prior
from .matrix_meter import shares

SECONDS_PER_UNIT = 5e-7
"""Seconds per agent-state of a column of cost 1: 50 scenarios under Unicorn (cost 26 to 47)
took 24 to 44 s for 1.75 million agent-states (docs/unicorn.md, 2026-12-02, 2 cores)."""
COLUMN_SECONDS = 1.0
"""Seconds of every column besides its agent-states: loading or starting the port, the
vectors and protocol rows."""

Builds = Callable[[str, object], Sequence[PlannedBuild]]


@dataclass(frozen=True)
class ColumnPlan:
    """One column before it runs: the builds it makes first and its cells' expected seconds."""

    column: str
    builds: tuple[PlannedBuild, ...]
    run_seconds: float
    runner: object = field(default=None, compare=False, repr=False)
    """The column's runner (a column given twice has two)."""

    @property
    def build_seconds(self) -> float:
        return sum(b.seconds for b in self.builds)

    @property
    def seconds(self) -> float:
        return self.build_seconds + self.run_seconds

    @property
    def prior(self) -> Prior:
        return Prior(self.build_seconds, self.run_seconds)


def plan_columns(columns: Sequence[str], runners: Sequence[object], units: int, jobs: int,
                 builds: Builds = pending_builds) -> list[ColumnPlan]:
    """Every column's plan, in the order the columns start (``runners[i]`` is ``columns[i]``'s;
    ``units`` one column's units on the bar; ``builds(column, runner)`` its pending builds)."""
    plans = [ColumnPlan(column, tuple(builds(column, runner)),
                        COLUMN_SECONDS + float(getattr(runner, "cost", 1.0)) * units * SECONDS_PER_UNIT, runner)
             for column, runner in zip(columns, runners)]
    if jobs > 1:
        plans.sort(key=lambda p: -p.seconds)
    seen: set[str] = set()
    ordered = []
    for plan in plans:
        own = tuple(b for b in plan.builds if b.key not in seen)
        seen.update(b.key for b in own)
        ordered.append(ColumnPlan(plan.column, own, plan.run_seconds, plan.runner))
    return ordered


def first_run_lines(plans: Sequence[ColumnPlan], jobs: int) -> list[str]:
    """What the run builds before its columns, with the expected seconds of each (none: no
    line); e.g. ``3 builds to make first (not in the build cache ...), about 2:55 of compiling``."""
    builds = [(plan.column, b) for plan in plans for b in plan.builds]
    if not builds:
        return []
    seconds = int(sum(b.seconds for _, b in builds))
    beside = f", {jobs} columns at a time" if jobs > 1 and len(plans) > 1 else ""
    lines = [f"{len(builds)} build{'s' * (len(builds) > 1)} to make first (not in the build cache, {cache_root()}), "
             f"about {seconds // 60}:{seconds % 60:02d} of compiling{beside}:"]
    width = max(len(column) for column, _ in builds)
    for column, build in builds:
        lines.append(f"  {column:<{width}}  {build.name} ({build.what}): {build.describe()}")
    return lines


def matrix_bar(columns: Sequence[str], runners: Sequence[object], scenarios, lead_rows: Sequence[str], jobs: int,
               builds: Builds = pending_builds, now: Callable[[], float] | None = None
               ) -> tuple[Progress, MatrixClock, list[ColumnPlan]]:
    """A matrix run's bar, clock and plans: the bar counts cells (the summary's unit) and the
    builds to make, and its percentage and ETA are the clock's, whose priors are the plans."""
    share = shares(scenarios, lead_rows)
    plans = plan_columns(columns, runners, sum(units for units, _ in share.values()), jobs, builds)
    clock = MatrixClock.for_matrix([p.column for p in plans], scenarios, lead_rows, jobs,
                                   {p.column: p.prior for p in plans}, now)
    to_build = sum(1 for p in plans if p.builds)
    extra = (lambda: f"{clock.builds_done()}/{to_build} builds") if to_build else None
    bar = Progress(len(share) * len(plans), "matrix", unit="cells", eta=clock.remaining_seconds, clock=now,
                   by_time=True, extra=extra)
    return bar, clock, plans
