"""The matrix's ETA on a first run (cold build cache), with a fake clock and fake slow builds: no
sleeping, every figure deterministic.  The bar's promise: from the first 20 % of the run on, the
run's length it implies (elapsed + ETA) is within 25 % of the true one."""

from __future__ import annotations

import pytest

from conformance.contract.scenario import Scene
from conformance.data.goldens import golden_status
from conformance.judge.matrix import PASS, run_matrix
from conformance.judge.matrix_clock import MatrixClock, Prior
from conformance.judge.matrix_meter import shares
from conformance.judge.matrix_plan import COLUMN_SECONDS, SECONDS_PER_UNIT, first_run_lines, plan_columns
from conformance.progress import Progress
from conformance.runners.base import Runner, RunnerInfo
from conformance.runners.build_estimate import Basis, PlannedBuild
from conftest import ROOT

TOLERANCE = 0.25
FROM = 0.20


class FakeTime:
    """The run's clock; ``spend`` moves it on and, at every whole second passed, asks ``probe``."""

    def __init__(self) -> None:
        self.t = 0.0
        self.probe = None

    def __call__(self) -> float:
        return self.t

    def spend(self, seconds: float) -> None:
        end = self.t + seconds
        while self.probe is not None and int(self.t) + 1 <= end:
            self.t = float(int(self.t) + 1)
            self.probe(self.t)
        self.t = end


def planned(name: str, seconds: float, key: str | None = None) -> PlannedBuild:
    return PlannedBuild(name, key or name, "zig, a target, executable", seconds, Basis.TYPICAL)


class SlowPort(Runner):
    """A port that passes every cell: its build takes ``build`` fake seconds on first use, and
    each state ``per_unit`` fake seconds per agent, times the row's ``noise``."""

    def __init__(self, runner_id: str, now: FakeTime, goldens: dict[int, tuple[str, ...]], build: float,
                 per_unit: float, cost: float, builds: tuple[PlannedBuild, ...], noise: dict[int, float]):
        self.id, self.now, self.goldens, self.build, self.per_unit = runner_id, now, goldens, build, per_unit
        self.cost, self.builds, self.noise = cost, builds, noise

    def info(self) -> RunnerInfo:
        self.now.spend(self.build)
        self.build = 0.0
        return RunnerInfo(self.id, "slow fake")

    def hashes(self, scene: Scene, steps: int | None = None):
        for digest in self.goldens[id(scene)][:(scene.steps if steps is None else steps) + 1]:
            self.now.spend(self.per_unit * max(1, len(scene.agents)) * self.noise[id(scene)])
            yield digest

    def dump(self, scene, step):
        raise AssertionError("never asked: every cell passes")

    def vectors(self, family, args):
        raise AssertionError("the vectors row is left out")


# (column, true build seconds, expected build seconds, expected run seconds, true / expected run)
FIRST_RUN = [("s390x:qemu", 98.0, 75.0, 40.0, 1.25), ("c:windows", 90.0, 90.0, 10.0, 1.4),
             ("i386", 11.0, 10.0, 45.0, 0.8), ("arm64", 8.0, 10.0, 25.0, 1.1), ("c", 2.3, 3.0, 2.0, 1.5),
             ("wasm", 12.0, 12.0, 3.0, 0.9), ("wasm-v8", 0.0, 12.0, 4.0, 1.2), ("c:O0", 1.5, 3.0, 2.0, 0.7)]
"""A first run's columns like a user's: two slow cross builds (one slower than its kind's typical
time), emulated columns faster or slower than their cost says, the wasm module shared by two."""


def within(samples: list[tuple[float, float | None]], finish: float) -> list[tuple[float, float | None]]:
    """The samples from FROM of the run on whose implied length is off by more than TOLERANCE."""
    return [(t, eta) for t, eta in samples
            if t >= FROM * finish and (eta is None or abs(t + eta - finish) > TOLERANCE * finish)]


def test_a_first_run_with_slow_builds_has_an_eta_within_a_quarter_from_a_fifth_on(repo_suite) -> None:
    """One job: the columns one after another, through ``run_matrix`` itself, builds included."""
    scenarios = repo_suite.select(None, False)
    goldens = {id(s.scene): golden_status(ROOT / "goldens", s).golden.hashes for s in scenarios}
    units = sum(u for u, _ in shares(scenarios, []).values())
    now, samples = FakeTime(), []
    noise = {id(s.scene): 0.7 + 0.6 * (i * 7 % 11) / 10 for i, s in enumerate(scenarios)}  # 0.7 to 1.3 a row
    ports = []
    for column, build, expected_build, expected_run, slower in FIRST_RUN:
        cost = (expected_run - COLUMN_SECONDS) / (units * SECONDS_PER_UNIT)
        key = "wasm" if column.startswith("wasm") else column
        ports.append(SlowPort(column, now, goldens, build, cost * SECONDS_PER_UNIT * slower, cost,
                              (planned(key, expected_build, key),), noise))
    now.probe = lambda t: samples.append((t, Progress.active.eta()))
    result = run_matrix(scenarios, ports, ROOT / "goldens", with_vectors=False, with_protocol=False, jobs=1,
                        builds=lambda column, runner: runner.builds, now=now)
    assert {c.status for c in result.cells.values()} == {PASS}
    finish = now.t
    assert finish > 300 and len(samples) >= finish - 1
    assert samples[0][1] is not None  # an ETA from the first second: the plan's
    assert within(samples, finish) == [], finish


def simulate(plans, truth: dict[str, tuple[float, list[float]]], rows: list[str], clock: MatrixClock,
             now: FakeTime, jobs: int) -> list[tuple[float, float | None]]:
    """The thread pool's schedule, event by event: each column, in plan order, takes the first free
    worker, builds for its true seconds, then runs its rows (their true seconds, telling the clock
    every 10 % of a row); the clock is asked at every whole second."""
    events = []  # (time, order, kind, column, row index, seconds)
    free = [0.0] * jobs
    for plan in plans:
        build, cells = truth[plan.column]
        free.sort()
        t = free[0]
        events.append((t, 0, "started", plan.column, -1, 0.0))
        t += build
        events.append((t, 1, "built", plan.column, -1, 0.0))
        for i, seconds in enumerate(cells):
            for part in range(10, 100, 10):
                events.append((t + seconds * part / 100, 2, "progress", plan.column, i, part))
            t += seconds
            events.append((t, 3, "record", plan.column, i, seconds))
        events.append((t, 4, "finished", plan.column, -1, 0.0))
        free[0] = t
    samples = []
    for t, _, kind, column, i, value in sorted(events, key=lambda e: (e[0], e[1])):
        while int(now.t) + 1 <= t:
            now.t = float(int(now.t) + 1)
            samples.append((now.t, clock.remaining_seconds()))
        now.t = t
        if kind == "progress":
            clock.progress(column, rows[i], int(value))
        elif kind == "record":
            clock.record(column, rows[i], value)
        else:
            getattr(clock, kind)(column)
    return samples


SEVENTEEN = [  # (column, cost, true build, expected build, true / expected run)
    ("c", 1, 2.3, 3, 1.8), ("c:O0", 1.5, 1.8, 3, 1.6), ("c:O3-native", 1, 2.0, 3, 1.7), ("c:zig", 1, 13.8, 15, 1.5),
    ("c:cli", 2, 2.2, 3, 1.3), ("wasm", 2, 11.9, 12, 1.2), ("wasm-v8", 2, 0.0, 12, 1.4), ("arm64", 26, 7.8, 10, 0.9),
    ("s390x", 40, 11.0, 10, 0.9), ("i386", 47, 9.0, 10, 0.95), ("riscv64", 29, 8.5, 10, 0.85),
    ("arm64:qemu", 5, 60.0, 75, 1.3), ("s390x:qemu", 19, 98.0, 75, 1.2), ("i386:qemu", 7, 45.0, 75, 1.1),
    ("riscv64:qemu", 6, 52.0, 75, 1.2), ("ppc64le:qemu", 16, 70.0, 75, 1.1), ("c:windows", 4, 90.0, 90, 1.5)]
"""The 17 default columns of a machine with QEMU and Wine, on a first run: the typical build
times as expected, the true ones as a user measured (40 to 98 s for the cross builds); true run
times up to 1.8 times the expected ones."""


@pytest.mark.parametrize("jobs", [1, 2])
def test_seventeen_columns_on_a_cold_cache_keep_the_eta_within_a_quarter(repo_suite, jobs: int) -> None:
    """The clock alone, fed the pool's schedule: the plan's order (longest first with two jobs),
    the builds before their columns, rows whose cost is their size times a row noise."""
    scenarios = repo_suite.select(None, False)
    share = shares(scenarios, ["vectors", "protocol"])
    units = sum(u for u, _ in share.values())
    rows = list(share)
    runners = [type("Port", (), {"cost": cost})() for _, cost, *_ in SEVENTEEN]
    expected_builds = {c: (planned("wasm" if c.startswith("wasm") else c, e),) for c, _, _, e, _ in SEVENTEEN}
    plans = plan_columns([c for c, *_ in SEVENTEEN], runners, units, jobs, builds=lambda c, r: expected_builds[c])
    truth = {}
    for (column, cost, build, _, slower), plan in zip(SEVENTEEN, sorted(plans, key=lambda p: p.column)):
        per_unit = cost * SECONDS_PER_UNIT * slower
        truth[column] = (build, [(0.5 * cost * slower if r in ("vectors", "protocol") else
                                  per_unit * u * (0.7 + 0.6 * (i * 7 % 11) / 10))
                                 for i, (r, (u, _)) in enumerate(share.items())])
    now = FakeTime()
    clock = MatrixClock.for_matrix([p.column for p in plans], scenarios, ["vectors", "protocol"], jobs,
                                   {p.column: p.prior for p in plans}, now)
    samples = simulate(plans, truth, rows, clock, now, jobs)
    finish = now.t
    assert finish > 250 and all(eta is not None for _, eta in samples)
    assert within(samples, finish) == [], finish


def test_the_slowest_builds_and_columns_start_first_and_a_shared_build_is_made_once() -> None:
    runners = [type("Port", (), {"cost": cost})() for cost in (1, 1, 40, 5, 1)]
    builds = {"c": (planned("c", 3),), "wasm": (planned("wasm", 12),), "s390x": (planned("unicorn-s390x", 10),),
              "s390x:qemu": (planned("cross-s390x-qemu", 98),), "wasm-v8": (planned("wasm", 12),)}
    columns = ["c", "wasm", "s390x", "s390x:qemu", "wasm-v8"]
    units = 1_750_000
    plans = plan_columns(columns, runners, units, 2, builds=lambda c, r: builds[c])
    assert [p.column for p in plans] == ["s390x:qemu", "s390x", "wasm", "wasm-v8", "c"]
    assert [len(p.builds) for p in plans] == [1, 1, 1, 0, 1]  # the module is built by the first of its two
    assert plans[0].prior == Prior(98, COLUMN_SECONDS + 5 * units * SECONDS_PER_UNIT)
    assert [p.column for p in plan_columns(columns, runners, units, 1, builds=lambda c, r: builds[c])] == columns
    lines = first_run_lines(plans, 2)
    assert lines[0].startswith("4 builds to make first (not in the build cache, ")
    assert "about 2:03 of compiling, 2 columns at a time:" in lines[0]
    assert lines[1] == "  s390x:qemu  cross-s390x-qemu (zig, a target, executable): about 98 s (typical)"
    assert first_run_lines(plan_columns(columns, runners, units, 2, builds=lambda c, r: ()), 2) == []
