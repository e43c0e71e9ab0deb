"""Benchmark of the C port, interleaved rounds: the figures issue 17 asks for, in one run.

    python tools/bench_c.py [--rounds 5] [--whole] [--no-counters]

Every round runs each measurement once, in the same order, so that a slow moment of a shared
machine hits every figure alike; the table gives the min and the median over the rounds (of
the time, shown as agent-steps per second). Measurements:

- the RVO2 anchor scene (1,000 agents on a circle of radius 800, neighborDistance 15,
  maxNeighbors 10, horizons 10, radius 1.5, max speed 2, dt 0.25), first 200 steps, one
  thread; with --whole also the whole run (until every agent is within 0.1 of its goal). As
  RVO2's Circle example runs it: the preferred velocities are not perturbed (the suite's
  circles add a seeded 1e-4, which RVO2's driver does not; it changes the path through the
  crowd and with it the work);
- the suite's 10,000-agent circle, first 100 steps, on 1 and 2 threads (the bits are equal for
  any thread count: tests/test_matrix.py), and their ratio; on 2 threads while another
  process keeps one core busy (a loaded machine: the pool's workers claim chunks as they come,
  so the busy core's worker takes fewer); and two one-thread copies in two processes at the
  same moment, the slower copy's time: twice the one-thread rate over it is what the two cores
  give work that shares nothing, the ceiling of the thread ratio on this machine;
- the reference (pure Python) on the anchor scene, 10 steps, and the C port's ratio to it;
- the wasm column (wasmtime, fuel on) on the anchor scene, 200 steps, as a share of native;
- the instructions and mispredicted branches per agent-step of the C port on the anchor scene:
  perf stat's user-mode counts where the machine exposes hardware counters, else valgrind's
  callgrind with its branch simulation (a run of k steps minus a run of 0; about a minute
  under valgrind). Mispredictions are what bound the neighbour query (docs/results.md).

On Linux each row also shows the share of the machine's CPU time that the hypervisor took
away (steal, from /proc/stat) while that measurement ran, summed over the rounds: on a virtual
machine this is what spreads the rounds, and it hits two threads harder than one.

RVO2 cannot be fetched by the project; docs/results.md quotes its figures with their date and
build. Where a build of it is at hand, ``--rvo2 CMD`` puts it in the same rounds: CMD is a
program that runs the anchor scene through RVO2 (with the suite's preferred-velocity rule: full
speed toward the goal, d / dt within a step of it) for the number of steps given as its last
argument (0: the whole run, until every agent is within 0.1 of its goal, checked every 100
steps) and prints ``steps=N seconds=S`` (S: the stepping alone). The table then shows the C
port's ratio to it, first 200 steps and whole run, min and median. Figures, not a test.

Each ratio line also says whether it reaches the targets of issue 33 (2 threads : 1 thread at
least 0.95 of the two-copies ceiling; C : RVO2 at least 2.0 over the whole run and 1.5 over the
first 200 steps), by the best and by the median, with the steal during the rows it divides.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from typing import Callable

from conformance.contract import generators
from conformance.contract.driver import run
from conformance.contract.scenario import AgentSpec, Scene
from conformance.runners.cffi_runner import CffiRunner, c_variants
from conformance.solver import AgentParams

SUITE = AgentParams(0.5, 1.0, 5.0, 10, 2.0, 2.0)
ANCHOR = AgentParams(1.5, 2.0, 15.0, 10, 10.0, 10.0)


def circle_scene(n: int, params: AgentParams, radius: float, dt: float, steps: int, magnitude: float) -> Scene:
    agents = tuple(AgentSpec(p, (0.0, 0.0), params, 0.1, (g,))
                   for p, g in generators.circle(n, radius, (0.0, 0.0), 0))
    return Scene(dt, steps, 1, magnitude, agents, ())


def anchor_scene(steps: int = 100_000) -> Scene:
    """RVO2's Circle example: no perturbation, as its driver runs it."""
    return circle_scene(1000, ANCHOR, 800.0, 0.25, steps, 0.0)


def crowd_scene() -> Scene:
    """The suite's kind of circle (perturbation 1e-4), 10,000 agents 1.5 apart."""
    return circle_scene(10_000, SUITE, 10_000 * 1.5 / (2 * 3.141592653589793), 0.1, 100_000, 0.0001)


def c_seconds(runner: CffiRunner, scene: Scene, steps: int, threads: int = 1) -> float:
    """Wall time of ``steps`` steps (no hashing: the state stays in C)."""
    ffi, lib, handle, run_ = runner._start(scene, threads)
    started = time.perf_counter()
    bad = lib.oc_Run_Advance(run_, steps, ffi.NULL)
    seconds = time.perf_counter() - started
    del handle
    assert bad == 0
    return seconds


def loaded_seconds(runner: CffiRunner, scene: Scene, steps: int, threads: int) -> float:
    """c_seconds while another process spins on a core."""
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        time.sleep(0.3)
        return c_seconds(runner, scene, steps, threads)
    finally:
        spinner.kill()
        spinner.wait()


def whole_run(runner: CffiRunner, scene: Scene) -> tuple[int, float]:
    """Steps until every agent is within 0.1 of its goal, and the wall time they took."""
    ffi, lib, handle, run_ = runner._start(scene)
    n = len(scene.agents)
    out = ffi.new("double[]", 6 * n)
    goals = [a.waypoints[-1] for a in scene.agents]
    steps, seconds = 0, 0.0
    while steps < scene.steps:
        started = time.perf_counter()
        lib.oc_Run_Advance(run_, 100, ffi.NULL)
        seconds += time.perf_counter() - started
        steps += 100
        lib.oc_Run_Dump(run_, out)
        if all((out[6 * i] - gx) ** 2 + (out[6 * i + 1] - gy) ** 2 <= 0.01 for i, (gx, gy) in enumerate(goals)):
            break
    del handle
    return steps, seconds


def external_run(command: list[str], steps: int) -> tuple[int, float]:
    """(steps, seconds) that an external anchor-scene program printed for ``steps`` (0: whole run)."""
    done = subprocess.run(command + [str(steps)], capture_output=True, text=True, check=True)
    fields = dict(part.split("=", 1) for part in done.stdout.split() if "=" in part)
    return int(fields["steps"]), float(fields["seconds"])


def cpu_ticks() -> tuple[int, int] | None:
    """(steal, total) ticks of all CPUs so far, from /proc/stat; None where it is not there."""
    try:
        with open("/proc/stat", encoding="ascii") as stat:
            fields = stat.readline().split()
    except OSError:
        return None
    if len(fields) < 9 or fields[0] != "cpu":
        return None
    # user nice system idle iowait irq softirq steal
    ticks = [int(x) for x in fields[1:9]]
    return ticks[7], sum(ticks)


def reference_seconds(scene: Scene, steps: int) -> float:
    short = Scene(scene.dt, steps, scene.seed, scene.magnitude, scene.agents, scene.segments)
    started = time.perf_counter()
    for _ in run(short):
        pass
    return time.perf_counter() - started


def wasm_seconds(scene: Scene, steps: int) -> float | None:
    from conformance.runners.base import RunnerError, RunnerUnavailable
    from conformance.runners.wasm_runner import WasmRunner
    try:
        runner = WasmRunner()
        inst, run_ = runner._start(scene)
    except (RunnerUnavailable, RunnerError):
        return None
    started = time.perf_counter()
    bad = runner._advance(inst, scene, run_, 0, steps, 0)
    seconds = time.perf_counter() - started
    assert bad == 0
    return seconds


_PAIRED = ("import sys, time, bench_c as B; from conformance.runners.cffi_runner import CffiRunner, c_variants; "
           "ffi, lib, handle, run_ = CffiRunner(c_variants()['c'])._start(B.crowd_scene()); "
           "print('ready', flush=True); sys.stdin.readline(); started = time.perf_counter(); "
           "assert lib.oc_Run_Advance(run_, {steps}, ffi.NULL) == 0; print(time.perf_counter() - started)")


def paired_seconds(steps: int) -> float:
    """The slower of two copies of the 10,000-agent run on one thread each, in two processes
    that step at the same moment (each has built its scene and waits for a go first): the time
    two cores take for work that shares nothing, which bounds what two threads can gain."""
    here = os.path.dirname(os.path.abspath(__file__))
    copies = [subprocess.Popen([sys.executable, "-c", _PAIRED.format(steps=steps)], cwd=here, text=True,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE) for _ in range(2)]
    for copy in copies:
        assert copy.stdout.readline().strip() == "ready"
    for copy in copies:
        copy.stdin.write("go\n")
        copy.stdin.flush()
    seconds = [float(copy.communicate()[0]) for copy in copies]
    assert all(copy.returncode == 0 for copy in copies)
    return max(seconds)


def _child(steps: int) -> list[str]:
    code = ("import bench_c as B; from conformance.runners.cffi_runner import CffiRunner, c_variants; "
            f"B.c_seconds(CffiRunner(c_variants()['c']), B.anchor_scene(), {steps})")
    return [sys.executable, "-c", code]


def _counters(tool: str, steps: int) -> tuple[int, int | None] | None:
    """(instructions, mispredicted branches or None) of a child that runs the anchor scene for
    ``steps`` steps: perf stat's user-mode counts, or callgrind's with its branch simulation."""
    if tool == "perf":
        command = ["perf", "stat", "-x,", "-e", "instructions:u,branch-misses:u"]
    else:
        command = ["valgrind", "--tool=callgrind", "--branch-sim=yes", "--callgrind-out-file=/dev/null"]
    done = subprocess.run(command + _child(steps), capture_output=True, text=True,
                          cwd=os.path.dirname(os.path.abspath(__file__)))
    if done.returncode != 0:
        return None
    if tool == "perf":
        values = {}
        for line in done.stderr.splitlines():
            fields = line.split(",")
            if len(fields) > 2 and fields[0].isdigit():
                values[fields[2].split(":")[0]] = int(fields[0])
        return (values["instructions"], values.get("branch-misses")) if "instructions" in values else None
    for line in done.stderr.splitlines():
        if "Collected :" in line:
            # events Ir Bc Bcm Bi Bim: instructions, then conditional and indirect mispredictions
            ir, _, bcm, _, bim = (int(x) for x in line.split("Collected :")[-1].split())
            return ir, bcm + bim
    return None


def counters_per_agent_step() -> str:
    """Instructions and mispredicted branches per agent-step: a child that runs the anchor scene
    k steps minus one that runs 0, under perf stat (hardware counters), else callgrind (100
    steps, its branch predictor a model of a generic one)."""
    tools = []
    if shutil.which("perf"):
        tools.append(("perf stat", "perf", 400))
    if shutil.which("valgrind"):
        tools.append(("callgrind", "valgrind", 100))
    for name, tool, steps in tools:
        zero, some = _counters(tool, 0), _counters(tool, steps)
        if zero is not None and some is not None:
            text = f"{(some[0] - zero[0]) / (1000 * steps):,.0f} instructions"
            if some[1] is not None and zero[1] is not None:
                text += f", {(some[1] - zero[1]) / (1000 * steps):,.1f} mispredicted branches"
            return f"{text} ({name})"
    return "not measured: neither perf (with hardware counters) nor valgrind works here"


def _target(best: float, median: float, goal: float) -> str:
    """Whether a ratio reaches its goal, by each statistic."""
    def verdict(x: float) -> str:
        return "met" if x >= goal else "not met"
    return f"target >= {goal:.2f}: {verdict(best)} (best), {verdict(median)} (median)"


def _steal(ticks: dict[str, list[int]], name: str) -> str:
    """The share of CPU time the hypervisor took during the named measurement's rounds."""
    steal, total = ticks.get(name, [0, 0])
    return f"{100 * steal / total:.1f} %" if total else "-"


def _ticked(measure: Callable[[], tuple[int, float]], ticks: list[int]) -> tuple[int, float]:
    """measure(), its steal and total ticks added to ticks."""
    before = cpu_ticks()
    result = measure()
    after = cpu_ticks()
    if before is not None and after is not None:
        ticks[0] += after[0] - before[0]
        ticks[1] += after[1] - before[1]
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--whole", action="store_true", help="also the anchor scene's whole run")
    parser.add_argument("--no-counters", action="store_true",
                        help="skip the instruction and misprediction counts (perf or callgrind)")
    parser.add_argument("--rvo2", metavar="CMD", help="an RVO2 anchor-scene program to run in the same rounds")
    args = parser.parse_args(argv)
    runner = CffiRunner(c_variants()["c"])
    info = runner.info()
    anchor, crowd = anchor_scene(), crowd_scene()
    measures: dict[str, tuple[int, Callable[[], float | None]]] = {
        "anchor 1000, first 200 steps, C": (200_000, lambda: c_seconds(runner, anchor, 200)),
        "circle 10000, 100 steps, C 1 thread": (1_000_000, lambda: c_seconds(runner, crowd, 100, 1)),
        "circle 10000, 100 steps, C 2 threads": (1_000_000, lambda: c_seconds(runner, crowd, 100, 2)),
        "the same, 2 threads, one core busy": (1_000_000, lambda: loaded_seconds(runner, crowd, 100, 2)),
        "the same, 1 thread, two copies at once": (1_000_000, lambda: paired_seconds(100)),
        "anchor 1000, 200 steps, wasm": (200_000, lambda: wasm_seconds(anchor, 200)),
        "anchor 1000, 10 steps, reference": (10_000, lambda: reference_seconds(anchor, 10)),
    }
    rvo2 = shlex.split(args.rvo2) if args.rvo2 else None
    if rvo2:
        measures["anchor 1000, first 200 steps, RVO2"] = (200_000, lambda: external_run(rvo2, 200)[1])
    times: dict[str, list[float]] = {name: [] for name in measures}
    ticks: dict[str, list[int]] = {name: [0, 0] for name in measures}
    whole: list[tuple[int, float]] = []
    whole_rvo2: list[tuple[int, float]] = []
    whole_ticks: dict[str, list[int]] = {"C": [0, 0], "RVO2": [0, 0]}
    for r in range(args.rounds):
        for name, (_, measure) in measures.items():
            before = cpu_ticks()
            seconds = measure()
            after = cpu_ticks()
            if seconds is not None:
                times[name].append(seconds)
            if before is not None and after is not None:
                ticks[name][0] += after[0] - before[0]
                ticks[name][1] += after[1] - before[1]
        if args.whole:
            whole.append(_ticked(lambda: whole_run(runner, anchor), whole_ticks["C"]))
            if rvo2:
                whole_rvo2.append(_ticked(lambda: external_run(rvo2, 0), whole_ticks["RVO2"]))
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    print(f"C runner: {info.compiler}, {info.flags}; {os.cpu_count()} cores; {args.rounds} interleaved rounds")
    print(f"{'measure':<40} {'best agent-steps/s':>19} {'median':>12} {'steal':>6}")
    rate = {}
    for name, (work, _) in measures.items():
        if not times[name]:
            print(f"{name:<40} {'not run':>19}")
            continue
        best, median = work / min(times[name]), work / statistics.median(times[name])
        rate[name] = (best, median)
        steal, total = ticks[name]
        share = f"{100 * steal / total:5.1f}%" if total else f"{'-':>6}"
        print(f"{name:<40} {best:19,.0f} {median:12,.0f} {share}")
    whole_rates = {}
    for who, runs in (("C", whole), ("RVO2", whole_rvo2)):
        if runs:
            rates = [1000 * s / t for s, t in runs]
            whole_rates[who] = (max(rates), statistics.median(rates))
            label = f"anchor 1000, whole run ({runs[0][0]} steps), {who}"
            print(f"{label:<40} {max(rates):19,.0f} {statistics.median(rates):12,.0f} "
                  f"{_steal(whole_ticks, who):>6}")
    one, two = times["circle 10000, 100 steps, C 1 thread"], times["circle 10000, 100 steps, C 2 threads"]
    busy = times["the same, 2 threads, one core busy"]
    pair = times["the same, 1 thread, two copies at once"]
    threads = (min(one) / min(two), statistics.median(one) / statistics.median(two))
    ceiling = (2 * min(one) / min(pair), 2 * statistics.median(one) / statistics.median(pair))
    print(f"2 threads / 1 thread at 10,000 agents: {threads[0]:.2f} (min), {threads[1]:.2f} (median); "
          f"with one core busy {min(one) / min(busy):.2f} (min), "
          f"{statistics.median(one) / statistics.median(busy):.2f} (median)")
    print(f"two cores on work that shares nothing (2 x 1 thread / the slower of two copies at once): "
          f"{ceiling[0]:.2f} (min), {ceiling[1]:.2f} (median)")
    print(f"2 threads : 1 thread over that ceiling: {threads[0] / ceiling[0]:.3f} (min), "
          f"{threads[1] / ceiling[1]:.3f} (median); {_target(threads[0] / ceiling[0], threads[1] / ceiling[1], 0.95)}; "
          f"steal {_steal(ticks, 'circle 10000, 100 steps, C 1 thread')} (1 thread), "
          f"{_steal(ticks, 'circle 10000, 100 steps, C 2 threads')} (2 threads), "
          f"{_steal(ticks, 'the same, 1 thread, two copies at once')} (two copies)")
    c_rate = rate["anchor 1000, first 200 steps, C"]
    if "anchor 1000, first 200 steps, RVO2" in rate:
        r = rate["anchor 1000, first 200 steps, RVO2"]
        print(f"C / RVO2, anchor first 200 steps: {c_rate[0] / r[0]:.3f} (best), {c_rate[1] / r[1]:.3f} (median); "
              f"{_target(c_rate[0] / r[0], c_rate[1] / r[1], 1.5)}; "
              f"steal {_steal(ticks, 'anchor 1000, first 200 steps, C')} (C), "
              f"{_steal(ticks, 'anchor 1000, first 200 steps, RVO2')} (RVO2)")
    if len(whole_rates) == 2:
        c, r = whole_rates["C"], whole_rates["RVO2"]
        print(f"C / RVO2, anchor whole run (agent-steps/s): {c[0] / r[0]:.3f} (best), {c[1] / r[1]:.3f} (median); "
              f"{_target(c[0] / r[0], c[1] / r[1], 2.0)}; steal {_steal(whole_ticks, 'C')} (C), "
              f"{_steal(whole_ticks, 'RVO2')} (RVO2)")
    print(f"C / reference on the anchor scene: {c_rate[0] / rate['anchor 1000, 10 steps, reference'][0]:.0f}x (best)")
    if "anchor 1000, 200 steps, wasm" in rate:
        print(f"wasm / C on the anchor scene: {rate['anchor 1000, 200 steps, wasm'][0] / c_rate[0]:.2f} (best), "
              f"{rate['anchor 1000, 200 steps, wasm'][1] / c_rate[1]:.2f} (median)")
    if not args.no_counters:
        print(f"per agent-step (C, anchor scene): {counters_per_agent_step()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
