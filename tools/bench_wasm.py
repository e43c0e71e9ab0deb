"""Speed of the wasm32 module (wasmtime and V8) next to the native C runner, in agent-steps/s.

    python tools/bench_wasm.py [--agents 1000] [--steps 200] [--repeat 7]

The scene is the 1000-agent antipodal circle of tools/bench_c.py (radius 0.5, speed 1, arc
spacing 1.5 m per agent), first 200 steps.  Timed: the module's ``orca_run_advance`` over the
steps with no state output, the same call bench_c.py times natively (``oc_Run_Advance``), each
run on a fresh scene, after one warm-up run; --repeat runs per variant taken round robin (so
that a change of load on the machine hits every variant alike); the figures are the best and
the median run, and the share of the machine's CPU time stolen by the hypervisor (/proc/stat)
while each variant ran.  Time is the process's CPU time (user + system), which other processes
on a shared machine disturb less than the wall clock:

- ``c``: runners/c built by the host compiler at -O2, called through cffi;
- ``wasm``: the module under wasmtime with the suite's configuration (fuel metering on, NaN
  canonicalisation off), then the same module under epoch interruption (the other way to bound
  a call: a wall-clock deadline, ``Metering.EPOCH``) and with no metering at all (what either
  costs), the build before
  2026-12-02 (-O2 per file: no link-time optimisation, no SIMD) with and without fuel (what
  the build flags bring), and with NaN canonicalisation (the setting before 2026-12);
- ``wasm-v8``: the module under Node.js, timed by the port itself (ORCA_PORT_TIMING=1 makes
  port.mjs log the CPU time of its orca_run_advance calls to stderr); the first run of the
  process is shown apart (V8 tiers the code up from Liftoff to TurboFan while it runs).

Then the whole ``run`` request as the matrix sees it, state hashes included (wall clock): the
``wasm`` runner's hashes() and the Node port timed by the harness from the step-0 line to
``done``.  Last, what one call into the module costs under each metering (the trivial
``orca_abi_version`` through the runner's call path, wall clock, best of the rounds): the
vector families make thousands of such calls, the timed scene one.  Figures, not a test:
compare them within one run.
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

from bench_c import SUITE, circle_scene, cpu_ticks
from conformance.runners.base import RunnerUnavailable
from conformance.runners.cffi_runner import CffiRunner, c_variants
from conformance.runners.export_layer import FUEL_CALL
from conformance.runners.wasm_runner import (WASM_FLAGS, WASM_SPEED_FLAGS, Metering, WasmRunner, wasm_spec,
                                             wasmtime_version)
from conformance.runners.wasm_v8 import WasmV8Runner, node_version
from conformance.contract.scenario import Scene

TIMING = re.compile(r"timing: (\d+) steps of (\d+) agents: orca_run_advance ([0-9.]+) ms \(CPU ([0-9.]+) ms\)")
NATIVE = "c (gcc -O2, cffi)"
WASM = "wasm (wasmtime: fuel on, the column)"
EPOCH = "  the same module, epoch interruption"
NO_FUEL = "  the same module, no metering"
PREVIOUS_FLAGS = tuple(f for f in WASM_FLAGS if f not in WASM_SPEED_FLAGS + ("-msimd128",))
"""The module's flags before 2026-12-02: -O2 file by file, no link-time optimisation, no SIMD."""


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


CALLS = 5_000
"""Calls per round of the per-call figure."""


def call_costs(rounds: int) -> dict[str, float]:
    """Microseconds of one trivial call into a fresh instance, per metering, rounds interleaved."""
    instances = {}
    for metering in Metering:
        runner = WasmRunner(metering=metering)
        runner._load()
        instances[metering.value] = runner._instance()
    best = {label: float("inf") for label in instances}
    for _ in range(rounds):
        for label, inst in instances.items():
            started = time.perf_counter()
            for _ in range(CALLS):
                inst.call("orca_abi_version", FUEL_CALL)
            best[label] = min(best[label], (time.perf_counter() - started) / CALLS * 1e6)
    return best


def wasm_variants() -> dict[str, WasmRunner]:
    previous = wasm_spec(name="wasm-previous", flags=PREVIOUS_FLAGS)
    return {
        WASM: WasmRunner(),
        EPOCH: WasmRunner(metering=Metering.EPOCH),
        NO_FUEL: WasmRunner(metering=Metering.NONE),
        "  previous build (no LTO, no SIMD), fuel on": WasmRunner(spec=previous),
        "  previous build, no metering": WasmRunner(spec=previous, metering=Metering.NONE),
        "  with NaN canonicalisation, fuel on": WasmRunner(engine_config={"cranelift_nan_canonicalization": True}),
    }


def timed_rounds(measures: dict, repeat: int) -> tuple[dict[str, list[float]], dict[str, list[int]]]:
    """Rates of each measure, ``repeat`` rounds round robin, and the (steal, total) CPU ticks of
    the whole machine while each ran."""
    for measure in measures.values():
        measure()  # warm-up
    samples: dict[str, list[float]] = {label: [] for label in measures}
    ticks: dict[str, list[int]] = {label: [0, 0] for label in measures}
    for _ in range(repeat):
        for label, measure in measures.items():
            before = cpu_ticks()
            samples[label].append(measure())
            after = cpu_ticks()
            if before is not None and after is not None:
                ticks[label][0] += after[0] - before[0]
                ticks[label][1] += after[1] - before[1]
    return samples, ticks


def print_table(title: str, samples: dict[str, list[float]], base: list[float], ticks: dict | None = None) -> None:
    base_best, base_median = max(base), statistics.median(base)
    print(f"{title:<48} {'agent-steps/s':>14} {'vs c':>5} {'median':>12} {'vs c':>5} {'steal':>6}")
    for label, values in samples.items():
        best, median = max(values), statistics.median(values)
        steal, total = (ticks or {}).get(label, (0, 0))
        share = f"{100 * steal / total:5.1f}%" if total else f"{'-':>6}"
        print(f"{label:<48} {best:14,.0f} {best / base_best:5.2f} {median:12,.0f} {median / base_median:5.2f} {share}")


def print_header(native: CffiRunner, wasm: WasmRunner, n: int, steps: int, repeat: int) -> str | None:
    native_info, wasm_info = native.info(), wasm.info()
    print(f"c:       {native_info.compiler}, {native_info.flags}")
    print(f"wasm:    {wasm_info.versions['toolchain']}, {wasm_info.flags}")
    print(f"         module {wasm_info.versions['module_size']} bytes, sha256 {wasm_info.versions['module_sha256']}")
    print(f"         wasmtime {wasmtime_version()}: {wasm_info.versions['engine_config']}")
    print(f"         previous build: {' '.join(PREVIOUS_FLAGS)}")
    try:
        node, v8 = node_version()
        print(f"wasm-v8: Node.js {node}, V8 {v8}")
    except RunnerUnavailable as err:
        node = None
        print(f"wasm-v8: skipped ({err})")
    print(f"{os.cpu_count()} cores; circle of {n} agents, first {steps} steps; {repeat} runs per variant\n")
    return node


def print_summary(samples: dict[str, list[float]], ticks: dict[str, list[int]]) -> None:
    def ratio(a: str, b: str) -> str:
        return (f"{max(samples[a]) / max(samples[b]):.3f} (best), "
                f"{statistics.median(samples[a]) / statistics.median(samples[b]):.3f} (median)")
    steal = sum(t[0] for t in ticks.values())
    total = sum(t[1] for t in ticks.values())
    print(f"\nwasm with fuel : native c       {ratio(WASM, NATIVE)}")
    print(f"wasm with epochs : native c     {ratio(EPOCH, NATIVE)}")
    print(f"wasm, no metering : native c    {ratio(NO_FUEL, NATIVE)}")
    print(f"fuel : no metering (same)       {ratio(WASM, NO_FUEL)}")
    print(f"epochs : no metering (same)     {ratio(EPOCH, NO_FUEL)}")
    print(f"epochs : fuel (same)            {ratio(EPOCH, WASM)}")
    print(f"steal during the timed runs     {100 * steal / total:.1f}% of the machine's CPU time" if total
          else "steal: /proc/stat not readable")


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
    variants = wasm_variants()
    node = print_header(native, variants[WASM], n, steps, args.repeat)
    measures = {NATIVE: lambda: native_rate(native, long_scene, steps)}
    measures.update({label: (lambda r=runner: wasmtime_rate(r, scene, steps)) for label, runner in variants.items()})
    samples, ticks = timed_rounds(measures, args.repeat)
    whole = {"wasm: hashes() (in-process, SHA-256 in Python)": [hashes_rate(variants[WASM], scene) for _ in range(3)]}
    if node:
        advance, harness = node_rates(scene, args.repeat + 1)
        samples["wasm-v8 (Node.js, port-side CPU time)"] = advance[1:]
        samples["  wasm-v8 first run of the process (tier-up)"] = advance[:1]
        whole["wasm-v8: run request (harness, wall clock)"] = harness[1:]

    print_table("orca_run_advance, CPU time", samples, samples[NATIVE], ticks)
    print()
    print_table("whole run request, state hashes included", whole, samples[NATIVE])
    print_summary(samples, ticks)
    costs = call_costs(args.repeat)
    print("\none call into the module (orca_abi_version), best of the rounds: "
          + ", ".join(f"{label} {micro:.1f} us" for label, micro in costs.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
