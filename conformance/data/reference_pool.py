"""The reference's goldens of many scenarios, on every core, handed back in the order asked.

Contract: ``reference_goldens(scenarios, root, jobs)`` yields ``(scenario, golden, seconds)``
for each scenario in the order given, each golden exactly what ``compute(scenario, root)``
returns (the reference is deterministic and shares nothing between scenarios), under one
progress bar over all their states.  With ``jobs`` > 1 (None: ``os.cpu_count()``) and more than
one scenario, the goldens are computed in that many worker processes, the dearest scenario
first (``cost``: agents times states, so the 300-agent circle, most of a check's time, starts
at once instead of behind the ones sorted before it), and each is yielded as soon as it and
every one before it are done.  Workers only compute: whatever the caller writes (``goldens
regen``) it writes in its own process, through the atomic writes of jsonfile.py.  An exception
in a worker is raised here, at the scenario it belongs to, as the serial run would raise it.
Workers ignore Ctrl-C; when the caller stops early (an exception, Ctrl-C, closing the iterator)
the workers are ended at once instead of finishing goldens nobody will read.
"""

from __future__ import annotations

import multiprocessing
import os
import queue as queues
import signal
import sys
import time
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import Callable, Iterator

from ..contract.scenario import Scenario
from ..progress import Progress

REPORT_SECONDS = 0.2
"""A worker reports its steps to the progress bar at most this often."""

_progress: "multiprocessing.Queue | None" = None
"""In a worker: where its steps go, as (scenario index, steps since the last report)."""


def cost(scenario: Scenario) -> int:
    """What the reference's run of a scenario costs, in agent-states (its time is about linear
    in them over the suite's scenes; an empty scene still costs its states)."""
    return max(1, len(scenario.scene.agents)) * (scenario.scene.steps + 1)


def dearest_first(scenarios: list[Scenario]) -> list[int]:
    """Indices of ``scenarios``, dearest first (ties in the order given)."""
    return sorted(range(len(scenarios)), key=lambda i: -cost(scenarios[i]))


def reference_goldens(scenarios: list[Scenario], root: Path, compute: Callable,
                      jobs: int | None = None) -> Iterator[tuple[Scenario, object, float]]:
    """``(scenario, compute(scenario, root, on_step=...), seconds)`` in the order given (above)."""
    if jobs is None:
        jobs = os.cpu_count() or 1
    with Progress(sum(s.scene.steps + 1 for s in scenarios), "reference") as bar:
        if jobs <= 1 or len(scenarios) <= 1:
            for s in scenarios:
                started = time.perf_counter()
                golden = compute(s, root, on_step=lambda _k, s=s: bar.advance(label=s.id))
                yield s, golden, time.perf_counter() - started
            return
        yield from _in_workers(scenarios, root, compute, min(jobs, len(scenarios)), bar)


def _context():
    """fork where Linux has it (the workers start at once, with the modules loaded), else the default."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if sys.platform.startswith("linux") and "fork" in methods else None)


def _in_workers(scenarios: list[Scenario], root: Path, compute: Callable, jobs: int,
                bar: Progress) -> Iterator[tuple[Scenario, object, float]]:
    context = _context()
    progress = context.Queue()
    pool = ProcessPoolExecutor(jobs, mp_context=context, initializer=_start_worker, initargs=(progress,))
    reported = [0] * len(scenarios)
    try:
        futures: dict[int, Future] = {i: pool.submit(_golden, scenarios[i], root, compute, i)
                                      for i in dearest_first(scenarios)}
        for i, s in enumerate(scenarios):
            while not futures[i].done():
                _show(progress, scenarios, reported, bar)
            golden, seconds = futures[i].result()
            bar.advance(s.scene.steps + 1 - reported[i], label=s.id)  # the steps not reported yet
            reported[i] = s.scene.steps + 1  # late reports of a scenario handed back are dropped
            yield s, golden, seconds
    except BaseException:
        _end_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        progress.close()


def _end_workers(pool: ProcessPoolExecutor) -> None:
    """Ends the workers now: a scenario being computed is not waited for (Python before 3.14 has
    no public call for it, hence the executor's own table of its processes)."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()


def _show(progress, scenarios: list[Scenario], reported: list[int], bar: Progress) -> None:
    """Waits up to 0.1 s for a worker's report and moves the bar by it."""
    try:
        index, steps = progress.get(timeout=0.1)
    except queues.Empty:
        return
    steps = min(steps, scenarios[index].scene.steps + 1 - reported[index])
    if steps > 0:
        reported[index] += steps
        bar.advance(steps, label=scenarios[index].id)


def _start_worker(progress) -> None:
    """In a new worker: Ctrl-C is the main process's to handle; steps go to ``progress``."""
    global _progress
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _progress = progress


def _golden(scenario: Scenario, root: Path, compute: Callable, index: int) -> tuple[object, float]:
    """In a worker: the golden and its seconds; steps reported every REPORT_SECONDS."""
    started = last = time.perf_counter()
    pending = 0

    def on_step(_k: int) -> None:
        nonlocal last, pending
        pending += 1
        now = time.perf_counter()
        if now - last >= REPORT_SECONDS and _progress is not None:
            _progress.put((index, pending))
            last, pending = now, 0

    golden = compute(scenario, root, on_step=on_step)
    return golden, time.perf_counter() - started
