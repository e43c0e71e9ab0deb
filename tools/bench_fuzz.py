"""Scenes per minute of fuzzing: the reference alone, the column alone, and whole fuzz runs, serial
and parallel, in one run (so that the ratio is read on the same machine load).

    python tools/bench_fuzz.py [--count 1000] [--seed 0] [--runner c] [--jobs N] [--rounds 2]

The same scenes (``fuzz_scenes.make_scene(seed, 0..count-1)``) are timed on the reference
(``run`` + ``state_hash``), on the column (``hashes``), and through ``fuzz.run_fuzz`` with the
column (the reference's hashes plus the column's, compared), once with ``jobs=1`` (the serial
path) and once with ``jobs=N`` (the reference in N worker processes, ``fuzz_expected``); the two
runs are checked to be the same run.  With ``--rounds R`` the serial and parallel runs alternate
R times and the best of each is kept (other jobs on the machine only ever slow a run down).
A measurement, not a test.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from conformance.selftest.fuzz import campaign as fuzz
from conformance.selftest.fuzz.scenes import KINDS, make_scene
from conformance.runners import resolve

ROOT = Path(__file__).resolve().parent.parent


def per_minute(scenes: int, seconds: float) -> float:
    return 60.0 * scenes / seconds if seconds else 0.0


def time_alone(scenes, runner_id: str) -> None:
    started = time.perf_counter()
    for scene in scenes:
        fuzz.reference_hashes(scene)
    reference = time.perf_counter() - started
    print(f"reference alone: {reference:.2f} s, {per_minute(len(scenes), reference):.0f} scenes/min")
    runner = resolve(runner_id)
    runner.info()  # build (or load from the cache) before timing
    started = time.perf_counter()
    for scene in scenes:
        list(runner.hashes(scene))
    column = time.perf_counter() - started
    runner.close()
    print(f"{runner_id} alone: {column:.2f} s, {per_minute(len(scenes), column):.0f} scenes/min")


def fuzz_run(runner_id: str, seed: int, count: int, jobs: int) -> fuzz.FuzzResult:
    return fuzz.run_fuzz([runner_id], seed, count, None, KINDS, fuzz.Expected(), ROOT / "goldens" / "vectors",
                         jobs=jobs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--runner", default="c", help="the column fuzzed against the reference (default c)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="workers of the parallel path")
    parser.add_argument("--rounds", type=int, default=2, help="serial and parallel runs, alternated")
    args = parser.parse_args()
    scenes = [make_scene(args.seed, i).scene for i in range(args.count)]
    states = sum(s.steps + 1 for s in scenes)
    agent_steps = sum(len(s.agents) * s.steps for s in scenes)
    print(f"{len(scenes)} scenes, {states} states, {agent_steps} agent-steps "
          f"(mean {agent_steps / len(scenes):.0f} agent-steps a scene); {os.cpu_count()} CPUs, "
          f"load average {os.getloadavg()[0]:.2f}")
    time_alone(scenes, args.runner)
    best: dict[int, float] = {}
    outcome: dict[int, tuple] = {}
    for _ in range(args.rounds):
        for jobs in (1, args.jobs):
            result = fuzz_run(args.runner, args.seed, args.count, jobs)
            best[jobs] = min(best.get(jobs, result.seconds), result.seconds)
            outcome[jobs] = (result.scenes, result.passed, result.compared, [f.scene.id for f in result.findings])
    same = "the same run" if outcome[1] == outcome[args.jobs] else "NOT THE SAME RUN"
    serial, parallel = (per_minute(args.count, best[j]) for j in (1, args.jobs))
    print(f"fuzz --runners {args.runner} --jobs 1 (serial): {best[1]:.2f} s, {serial:.0f} scenes/min, "
          f"{len(outcome[1][3])} findings")
    print(f"fuzz --runners {args.runner} --jobs {args.jobs} (parallel): {best[args.jobs]:.2f} s, {parallel:.0f} "
          f"scenes/min, {len(outcome[args.jobs][3])} findings; {parallel / serial:.2f}x the serial path, {same}")


if __name__ == "__main__":
    main()
