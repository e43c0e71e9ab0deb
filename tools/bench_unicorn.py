"""Where an emulated (Unicorn) column's time goes, next to the native ``c`` column.

    python tools/bench_unicorn.py [--arches arm64,s390x,i386,riscv64] [--count-steps 10]

For each architecture, in one process, after a warm-up (the build loaded, the code translated):

- the cost of one call into the emulator and back (``orca_abi_version``, 2,000 calls);
- each non-slow scenario's whole run (``hashes``, as the matrix does), wall clock, against the
  ``c`` column's, and the column's total;
- the same runs with Unicorn's own TLB (``fill_tlb=False``: every guest store on QEMU's slow
  path, the runner before issue 44), scenario by scenario in turn with the runner's, and the
  ratio of the totals (``--no-baseline`` skips them);
- guest instructions per agent-step (every instruction counted by a code hook over the first
  ``--count-steps`` steps of the 100-agent circle, less a run of 0 steps) and the host time
  per guest instruction that gives.

The columns run one after another; the share of the CPU time the hypervisor took away (steal)
during each is printed with it.  A measurement, not a test: compare within one run.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from bench_c import cpu_ticks
from conformance.data.suite import Suite
from conformance.runners import resolve
from conformance.runners.export_layer import FUEL_CALL
from conformance.runners.unicorn_runner import ARCHES, UnicornRunner

COUNTED = "orca/antipodal-circle-100"


def run_seconds(runner, scene, steps: int | None = None) -> float:
    started = time.perf_counter()
    for _ in runner.hashes(scene, steps):
        pass
    return time.perf_counter() - started


def call_microseconds(runner: UnicornRunner, calls: int = 2000) -> float:
    machine = runner._load()
    started = time.perf_counter()
    for _ in range(calls):
        machine.call("orca_abi_version", FUEL_CALL)
    return (time.perf_counter() - started) / calls * 1e6


def guest_instructions(runner: UnicornRunner, scene, steps: int) -> int:
    """Instructions executed by a run of ``steps`` steps, less a run of none (set-up, reads)."""
    import unicorn
    machine = runner._load()
    counted = [0]

    def on_code(uc, address, size, data) -> None:
        counted[0] += 1

    hook = machine.uc.hook_add(unicorn.UC_HOOK_CODE, on_code)
    machine.uc.ctl_flush_tb()  # code translated before the hook would not call it
    try:
        run_seconds(runner, scene, 0)
        setup = counted[0]
        counted[0] = 0
        run_seconds(runner, scene, steps)
        return counted[0] - setup
    finally:
        machine.uc.hook_del(hook)
        machine.uc.ctl_flush_tb()


def steal_share(before, after) -> str:
    if before is None or after is None or after[1] == before[1]:
        return "n/a"
    return f"{100 * (after[0] - before[0]) / (after[1] - before[1]):.0f} %"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--arches", default=",".join(ARCHES))
    parser.add_argument("--count-steps", type=int, default=10)
    parser.add_argument("--no-baseline", action="store_true", help="skip the runs with Unicorn's own TLB")
    args = parser.parse_args(argv)
    scenarios = [s for s in Suite(ROOT).select(None, False)]
    native = resolve("c")
    counted = next(s for s in scenarios if s.id == COUNTED)
    run_seconds(native, counted.scene, 5)  # build and load
    native_times = {s.id: run_seconds(native, s.scene) for s in scenarios}
    per_step = len(counted.scene.agents) * args.count_steps
    print(f"c column: {sum(native_times.values()):.2f} s for {len(scenarios)} scenarios")
    for name in args.arches.split(","):
        runner = UnicornRunner(ARCHES[name])
        baseline = None if args.no_baseline else UnicornRunner(ARCHES[name], fill_tlb=False)
        for each in (runner, baseline) if baseline else (runner,):
            run_seconds(each, counted.scene, 5)  # build, load, translate
        before = cpu_ticks()
        call = call_microseconds(runner)
        times, baseline_times = {}, {}
        for s in scenarios:
            if baseline:
                baseline_times[s.id] = run_seconds(baseline, s.scene)
            times[s.id] = run_seconds(runner, s.scene)
        steal = steal_share(before, cpu_ticks())
        instructions = guest_instructions(runner, counted.scene, args.count_steps) / per_step
        seconds = run_seconds(runner, counted.scene, args.count_steps) - run_seconds(runner, counted.scene, 0)
        total = sum(times.values())
        print(f"\n{name}: {total:.1f} s for {len(scenarios)} scenarios ({total / sum(native_times.values()):.0f}x c), "
              f"steal {steal}; a call in and out {call:.1f} us; {instructions:,.0f} guest instructions per "
              f"agent-step ({COUNTED}, first {args.count_steps} steps), {seconds / per_step / instructions * 1e9:.1f} "
              "ns of host time each")
        if baseline:
            slow = sum(baseline_times.values())
            print(f"  with Unicorn's own TLB (every store on the slow path): {slow:.1f} s, {slow / total:.2f} times "
                  "as long")
            baseline.close()
        print(f"  {'scenario':34} {'seconds':>8} {'share':>6} {'x c':>6}")
        for scenario_id, spent in sorted(times.items(), key=lambda item: -item[1])[:6]:
            print(f"  {scenario_id:34} {spent:8.2f} {spent / total:6.0%} {spent / native_times[scenario_id]:6.0f}")
        runner.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
