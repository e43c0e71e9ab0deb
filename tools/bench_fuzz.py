"""Scenes per minute of fuzzing: the reference alone, the C column alone, and a whole fuzz run.

    python tools/bench_fuzz.py [--count 300] [--seed 0]

The same scenes (``fuzz_scenes.make_scene(seed, 0..count-1)``) are timed on the reference
(``run`` + ``state_hash``), on the ``c`` column (``hashes``), and through ``fuzz.run_fuzz`` with
the C column (the reference's hashes plus the column's, compared).  A measurement, not a test.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from conformance.selftest import fuzz
from conformance.selftest.fuzz_scenes import KINDS, make_scene
from conformance.runners import resolve

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    scenes = [make_scene(args.seed, i).scene for i in range(args.count)]
    states = sum(s.steps + 1 for s in scenes)
    agent_steps = sum(len(s.agents) * s.steps for s in scenes)
    print(f"{len(scenes)} scenes, {states} states, {agent_steps} agent-steps "
          f"(mean {agent_steps / len(scenes):.0f} agent-steps a scene)")

    started = time.perf_counter()
    for scene in scenes:
        fuzz.reference_hashes(scene)
    reference = time.perf_counter() - started
    print(f"reference: {reference:.2f} s, {60 * len(scenes) / reference:.0f} scenes/min")

    runner = resolve("c")
    runner.info()  # build (or load from the cache) before timing
    started = time.perf_counter()
    for scene in scenes:
        list(runner.hashes(scene))
    c_time = time.perf_counter() - started
    runner.close()
    print(f"c column: {c_time:.2f} s, {60 * len(scenes) / c_time:.0f} scenes/min")

    result = fuzz.run_fuzz(["c"], args.seed, args.count, None, KINDS, fuzz.Expected(), ROOT / "goldens" / "vectors")
    print(f"fuzz --runners c (reference + c, compared): {result.seconds:.2f} s, "
          f"{60 * result.scenes / result.seconds:.0f} scenes/min, {len(result.findings)} findings")


if __name__ == "__main__":
    main()
