"""``goldens check`` and ``goldens regen`` on every core (conformance/data/reference_pool.py): the
same lines in the same order as one process, a tampered golden still caught, the dearest
scenario started first, a worker's exception raised at its scenario, the bar's total met."""

from __future__ import annotations

import json
import multiprocessing
import re
import signal
import time
from pathlib import Path

import pytest

from conformance import cli
from conformance.data import goldens, reference_pool
from conformance.data.suite import Suite
from conftest import ROOT

SMALL = ["orca/degenerate", "orca/lone-agent", "orca/touching", "orca/zero-agents"]
"""Four of the suite's cheapest scenarios, in id order; the dearest of them is not the first."""

SCENE = """\
id: t/{name}
description: Two agents pass each other.
dt: 0.1
steps: {steps}
perturbation: {{seed: {seed}, magnitude: 0.0001}}
agents:
  - agent: {{position: [-2.0, 0.0], waypoints: [[2.0, 0.0]]}}
  - agent: {{position: [2.0, 0.0], waypoints: [[-2.0, 0.0]]}}
expect:
  max_overlap: 0.1
"""


def without_seconds(lines: list[str]) -> list[str]:
    """The lines with their timings taken out (the only thing two runs may differ in)."""
    return [re.sub(r"\d+\.\d s", "_ s", line) for line in lines]


def check(suite: Suite, ids: list[str], jobs: int) -> tuple[goldens.Checked, list[str]]:
    lines: list[str] = []
    checked = goldens.check_goldens(suite, suite.select(ids, False), False, lines.append, jobs=jobs)
    return checked, lines


def test_parallel_check_says_what_the_serial_one_says_in_the_same_order() -> None:
    suite = Suite(ROOT)
    scenarios = suite.select(SMALL, False)
    assert [s.id for s in scenarios] == SMALL
    assert reference_pool.dearest_first(scenarios)[0] != 0  # so the order handed back is not the order run
    serial, serial_lines = check(suite, SMALL, jobs=1)
    parallel, parallel_lines = check(suite, SMALL, jobs=2)
    print("\n".join(parallel_lines))
    assert without_seconds(parallel_lines) == without_seconds(serial_lines)
    assert [line.split()[1] for line in parallel_lines[:4]] == SMALL
    assert (parallel.scenarios, parallel.compared, parallel.problems) == (serial.scenarios, serial.compared, 0)
    assert not parallel.failed and parallel.compared == sum(s.scene.steps + 1 for s in scenarios)


@pytest.fixture()
def two_scenes(tmp_path: Path) -> Suite:
    folder = tmp_path / "scenarios" / "t"
    folder.mkdir(parents=True)
    for name, steps, seed in (("a", 40, 3), ("b", 25, 4), ("c", 60, 5)):
        (folder / f"{name}.yaml").write_text(SCENE.format(name=name, steps=steps, seed=seed))
    (tmp_path / "goldens").mkdir()
    return Suite(tmp_path)


def test_parallel_regen_writes_what_serial_regen_writes_and_a_tampered_golden_is_caught(two_scenes: Suite,
                                                                                        capsys) -> None:
    lines: list[str] = []
    done = goldens.regenerate(two_scenes, two_scenes.select(None, False), [], lines.append, jobs=2)
    assert done.written == 3 and [line.split()[:2] for line in lines[:3]] == [["new", f"t/{n}"] for n in "abc"]
    written = {p.name: p.read_bytes() for p in (two_scenes.goldens_dir / "t").iterdir()}
    assert sorted(written) == ["a.json", "b.json", "c.json"]  # no temporary file left beside them
    again: list[str] = []
    goldens.regenerate(two_scenes, two_scenes.select(None, False), [], again.append, jobs=1)
    assert [line.split()[0] for line in again[:3]] == ["unchanged"] * 3
    assert {p.name: p.read_bytes() for p in (two_scenes.goldens_dir / "t").iterdir()} == written

    path = two_scenes.goldens_dir / "t" / "b.json"
    data = json.loads(path.read_text())
    data["hashes"][7] = "0" * 64
    path.write_text(json.dumps(data))
    checked, said = check(two_scenes, ["t/*"], jobs=2)
    assert checked.failed and checked.problems == 1
    assert [line.split()[0] for line in said[:3]] == ["ok", "MISMATCH", "ok"]
    assert said[1].startswith("MISMATCH  t/b: first differing step 7")
    assert cli.main(["--suite", str(two_scenes.root), "goldens", "check", "t/*"]) == 1  # on every core
    assert "MISMATCH  t/b: first differing step 7" in capsys.readouterr().out


class Broken(Exception):
    pass


def compute_or_fail(scenario, root, on_step=None):
    """A stand-in for compute_golden: t/b's run fails, the others return their step count."""
    for k in range(scenario.scene.steps + 1):
        on_step(k)
    if scenario.id == "t/b":
        raise Broken(scenario.id)
    return scenario.scene.steps


class CountingBar:
    """Progress's interface, counting what is advanced."""

    made: list["CountingBar"] = []

    def __init__(self, total: int, label: str):
        self.total, self.done = total, 0
        CountingBar.made.append(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def advance(self, n: int = 1, label: str = "") -> None:
        assert n >= 0
        self.done += n


def test_a_worker_exception_is_raised_at_its_scenario_after_the_ones_before_it(two_scenes: Suite,
                                                                                  monkeypatch) -> None:
    monkeypatch.setattr(reference_pool, "Progress", CountingBar)
    scenarios = two_scenes.select(None, False)
    got = []
    with pytest.raises(Broken, match="t/b"):
        for s, steps, _seconds in reference_pool.reference_goldens(scenarios, two_scenes.root, compute_or_fail, 2):
            got.append((s.id, steps))
    assert got == [("t/a", 40)]
    CountingBar.made.clear()
    ok = [s for s in scenarios if s.id != "t/b"]
    assert [steps for _s, steps, _t in reference_pool.reference_goldens(ok, two_scenes.root, compute_or_fail, 2)] \
        == [40, 60]
    bar = CountingBar.made[-1]
    assert bar.total == 41 + 61 and bar.done == bar.total  # the whole bar, never past it


def compute_or_hang(scenario, root, on_step=None):
    """A stand-in for compute_golden whose t/c takes a minute."""
    if scenario.id == "t/c":
        time.sleep(60)
    return scenario.scene.steps


def test_a_caller_that_stops_early_ends_the_workers_instead_of_waiting_for_them(two_scenes: Suite) -> None:
    before = set(multiprocessing.active_children())
    goldens_of = reference_pool.reference_goldens(two_scenes.select(None, False), two_scenes.root,
                                                  compute_or_hang, 2)
    assert next(goldens_of)[0].id == "t/a"
    workers = set(multiprocessing.active_children()) - before
    assert workers
    goldens_of.close()  # t/c is still being computed
    for worker in workers:
        worker.join(10)
        assert worker.exitcode == -signal.SIGTERM  # ended, not left to finish and exit
