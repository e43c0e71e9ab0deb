"""Speed of the wasm32 module (wasmtime and V8) next to the native C runner, in agent-steps/s.

    python tools/bench_wasm.py [--agents 1000] [--steps 200] [--repeat 7]

The scene is the 1000-agent antipodal circle of tools/bench_c.py (radius 0.5, speed 1, arc
spacing 1.5 m per agent), first 200 steps.  Timed: the module's ``orca_run_advance`` over the
steps with no state output, the same call bench_c.py times natively (``oc_Run_Advance``), each
run on a fresh scene, after one warm-up run; --repeat runs per variant taken round robin (so
that a change of load on the machine hits every variant alike); the figures are the best and
the median run.  Time is the process's CPU time (user + system), which other processes on a
shared machine disturb less than the wall clock:

- ``c``: runners/c built by the host compiler at -O2, called through cffi;
- ``wasm``: the module under wasmtime with the suite's configuration (fuel metering on, NaN
  canonicalisation off), then without fuel, and with NaN canonicalisation (the setting before
  2026-12), to show what each costs;
- ``wasm-v8``: the module under Node.js, timed by the port itself (ORCA_PORT_TIMING=1 makes
  port.mjs log the CPU time of its orca_run_advance calls to stderr); the first run of the
  process is shown apart (V8 tiers the code up from Liftoff to TurboFan while it runs).

Last, the whole ``run`` request as the matrix sees it, state hashes included (wall clock): the
``wasm`` runner's hashes() and the Node port timed by the harness from the step-0 line to
``done``.  Figures, not a test: compare them within one run.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from bench_c import SUITE, circle_scene
from conformance.runners.base import RunnerUnavailable
from conformance.runners.cffi_runner import CffiRunner, c_variants
from conformance.runners.wasm_runner import WasmRunner, wasmtime_version
from conformance.runners.wasm_v8 import WasmV8Runner, node_version
from conformance.contract.scenario import Scene

TIMING = re.compile(r"timing: (\d+) steps of (\d+) agents: orca_run_advance ([0-9.]+) ms \(CPU ([0-9.]+) ms\)")
NATIVE = "c (gcc -O2, cffi)"


def native_rate(runner: CffiRunner, scene: Scene, steps: int) -> float:
    ffi, lib, handle, run = runner._start(scene)
    started = time.process_time()
    bad = lib.oc_Run_Advance(run, steps, ffi.NULL)
    seconds = time.process_time() - started
    del handle
    assert bad == 0
    return len(scene.agents) * steps / seconds


def wasmtime_rate(runner: WasmRunner, scene: Scene, steps: int) -> float:
    inst, run = runner._start(scene)
    started = time.process_time()
    bad = runner._advance(inst, scene, run, 0, steps, 0)
    seconds = time.process_time() - started
    assert bad == 0
    return len(scene.agents) * steps / seconds


def hashes_rate(runner, scene: Scene) -> float:
    started = time.perf_counter()
    count = sum(1 for _ in runner.hashes(scene))
    seconds = time.perf_counter() - started
    assert count == scene.steps + 1
    return len(scene.agents) * scene.steps / seconds


def node_rates(scene: Scene, runs: int) -> tuple[list[float], list[float]]:
    """Port-side CPU-time rates of orca_run_advance and harness-side (wall clock) rates of the
    whole run request, run by run, all in one Node process."""
    runner = WasmV8Runner()
    runner.env = {**os.environ, "ORCA_PORT_TIMING": "1"}
    advance: list[float] = []
    whole: list[float] = []
    try:
        for _ in range(runs):
            stream = runner.hashes(scene)
            next(stream)  # the step-0 line is out: the run has started
            started = time.perf_counter()
            count = 1 + sum(1 for _ in stream)
            seconds = time.perf_counter() - started
            assert count == scene.steps + 1
            whole.append(len(scene.agents) * scene.steps / seconds)
            deadline = time.monotonic() + 5
            found = []
            while time.monotonic() < deadline:
                found = TIMING.findall(runner._port.stderr())
                if len(found) > len(advance):
                    break
                time.sleep(0.01)
            steps, agents, _, cpu_ms = found[len(advance)]
            advance.append(int(steps) * int(agents) / (float(cpu_ms) / 1000.0))
    finally:
        runner.close()
    return advance, whole


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--agents", type=int, default=1000)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    n, steps = args.agents, args.steps
    long_scene = circle_scene(n, SUITE, n * 1.5 / (2 * 3.141592653589793), 0.1, 200_000, 0.0001)
    scene = Scene(long_scene.dt, steps, long_scene.seed, long_scene.magnitude, long_scene.agents, ())

    native = CffiRunner(c_variants()["c"])
    native_info = native.info()
    wasm = WasmRunner()
    wasm_info = wasm.info()
    print(f"c:       {native_info.compiler}, {native_info.flags}")
    print(f"wasm:    {wasm_info.versions['toolchain']}, {wasm_info.flags}")
    print(f"         module {wasm_info.versions['module_size']} bytes, sha256 {wasm_info.versions['module_sha256']}")
    print(f"         wasmtime {wasmtime_version()}: {wasm_info.versions['engine_config']}")
    try:
        node, v8 = node_version()
        print(f"wasm-v8: Node.js {node}, V8 {v8}")
    except RunnerUnavailable as err:
        node = None
        print(f"wasm-v8: skipped ({err})")
    print(f"{os.cpu_count()} cores; circle of {n} agents, first {steps} steps; {args.repeat} runs per variant\n")

    variants = {
        "wasm (wasmtime: fuel, no NaN canonicalisation)": wasm,
        "  wasmtime without fuel": WasmRunner(engine_config={"consume_fuel": False}),
        "  wasmtime with NaN canonicalisation": WasmRunner(engine_config={"cranelift_nan_canonicalization": True}),
    }
    native_rate(native, long_scene, steps)  # warm-up
    for runner in variants.values():
        wasmtime_rate(runner, scene, steps)
    samples: dict[str, list[float]] = {NATIVE: []}
    samples.update({label: [] for label in variants})
    for _ in range(args.repeat):
        samples[NATIVE].append(native_rate(native, long_scene, steps))
        for label, runner in variants.items():
            samples[label].append(wasmtime_rate(runner, scene, steps))
    whole = {"wasm: hashes() (in-process, SHA-256 in Python)": [hashes_rate(wasm, scene) for _ in range(3)]}
    if node:
        advance, harness = node_rates(scene, args.repeat + 1)
        samples["wasm-v8 (Node.js, port-side CPU time)"] = advance[1:]
        samples["  wasm-v8 first run of the process (tier-up)"] = advance[:1]
        whole["wasm-v8: run request (harness, wall clock)"] = harness[1:]

    base_best = max(samples[NATIVE])
    base_median = statistics.median(samples[NATIVE])
    header = f"{'agent-steps/s':>14} {'vs c':>5} {'median':>12} {'vs c':>5}"
    print(f"{'orca_run_advance, CPU time':<48} {header}")
    for label, values in samples.items():
        best, median = max(values), statistics.median(values)
        print(f"{label:<48} {best:14,.0f} {best / base_best:5.2f} {median:12,.0f} {median / base_median:5.2f}")
    print(f"\n{'whole run request, state hashes included':<48} {header}")
    for label, values in whole.items():
        best, median = max(values), statistics.median(values)
        print(f"{label:<48} {best:14,.0f} {best / base_best:5.2f} {median:12,.0f} {median / base_median:5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
