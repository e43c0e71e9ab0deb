"""Benchmark of the C port (cffi, gcc -O2) against the reference, in agent-steps per second.

    python tools/bench_c.py [--sizes 1000,10000] [--whole] [--threads 1,2]

For antipodal circles (radius 0.5, speed 1, the suite's parameters, arc spacing 1.5 m per
agent) it prints the C runner's agent-steps per second over the first 200 steps and, with
--whole, over the whole run (until every agent arrived), the reference's over the first 200
steps of the 1000-agent circle, and their ratio; then the RVO2 anchor scene (neighborDistance
15, maxNeighbors 10, horizons 10, radius 1.5, max speed 2, dt 0.25, circle radius 0.8 N),
where RVO2's best build runs at about 2-3.5 million agent-steps per second over the first 200
steps at 1,000 agents and 0.6-0.85 million over a whole run on this kind of machine; and the
speed-up of the multi-threaded step. Figures, not a test: compare them within one run.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from conformance.contract import generators
from conformance.contract.driver import run
from conformance.runners.cffi_runner import CffiRunner, c_variants
from conformance.contract.scenario import AgentSpec, Scene
from conformance.solver import AgentParams

SUITE = AgentParams(0.5, 1.0, 5.0, 10, 2.0, 2.0)
ANCHOR = AgentParams(1.5, 2.0, 15.0, 10, 10.0, 10.0)


def circle_scene(n: int, params: AgentParams, radius: float, dt: float, steps: int) -> Scene:
    agents = tuple(AgentSpec(p, (0.0, 0.0), params, 0.1, (g,))
                   for p, g in generators.circle(n, radius, (0.0, 0.0), 0))
    return Scene(dt, steps, 1, 0.0001, agents, ())


def time_c(runner: CffiRunner, scene: Scene, steps: int, threads: int = 1) -> float:
    ffi, lib, handle, run_ = runner._start(scene, threads)
    started = time.perf_counter()
    lib.oc_Run_Advance(run_, steps, ffi.NULL)
    seconds = time.perf_counter() - started
    del handle
    return len(scene.agents) * steps / seconds


def whole_run_c(runner: CffiRunner, scene: Scene, threads: int = 1) -> tuple[int, float]:
    """Steps until every agent is within its goal radius, and agent-steps per second."""
    ffi, lib, handle, run_ = runner._start(scene, threads)
    n = len(scene.agents)
    out = ffi.new("double[]", 6 * n)
    steps = 0
    seconds = 0.0
    goals = [a.waypoints[-1] for a in scene.agents]
    while steps < scene.steps:
        started = time.perf_counter()
        lib.oc_Run_Advance(run_, 100, ffi.NULL)
        seconds += time.perf_counter() - started
        steps += 100
        lib.oc_Run_Dump(run_, out)
        if all((out[6 * i] - gx) ** 2 + (out[6 * i + 1] - gy) ** 2 <= 0.01 for i, (gx, gy) in enumerate(goals)):
            break
    del handle
    return steps, n * steps / seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--whole", action="store_true", help="also time whole runs")
    parser.add_argument("--threads", default="1,2")
    args = parser.parse_args(argv)
    runner = CffiRunner(c_variants()["c"])
    info = runner.info()
    print(f"C runner: {info.compiler}, {info.flags}; {os.cpu_count()} cores")
    print(f"{'scene':<34} {'C agent-steps/s':>16} {'reference':>12} {'ratio':>8}")
    ref_rate = None
    for n in (int(s) for s in args.sizes.split(",")):
        scene = circle_scene(n, SUITE, n * 1.5 / (2 * 3.141592653589793), 0.1, 200_000)
        rate = time_c(runner, scene, 200)
        ref = ""
        ratio = ""
        if n == 1000:
            short = Scene(scene.dt, 200, scene.seed, scene.magnitude, scene.agents, ())
            started = time.perf_counter()
            for _ in run(short):
                pass
            ref_rate = n * 200 / (time.perf_counter() - started)
            ref, ratio = f"{ref_rate:12.0f}", f"{rate / ref_rate:7.0f}x"
        print(f"{f'circle {n}, first 200 steps':<34} {rate:16.0f} {ref:>12} {ratio:>8}")
        if args.whole:
            steps, whole = whole_run_c(runner, scene)
            print(f"{f'circle {n}, whole run ({steps} steps)':<34} {whole:16.0f}")
    anchor = circle_scene(1000, ANCHOR, 0.8 * 1000, 0.25, 100_000)
    print(f"{'RVO2 anchor 1000, first 200 steps':<34} {time_c(runner, anchor, 200):16.0f}"
          f"   (RVO2 best build: 2-3.5 million)")
    if args.whole:
        steps, whole = whole_run_c(runner, anchor)
        print(f"{f'RVO2 anchor 1000, whole ({steps} steps)':<34} {whole:16.0f}   (RVO2: 0.6-0.85 million)")
    threads = [int(t) for t in args.threads.split(",")]
    base = None
    for t in threads:
        scene = circle_scene(10000, SUITE, 10000 * 1.5 / (2 * 3.141592653589793), 0.1, 100_000)
        rate = time_c(runner, scene, 100, threads=t)
        base = base or rate
        print(f"{f'circle 10000, {t} thread(s)':<34} {rate:16.0f}   speed-up {rate / base:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
