"""Benchmark of the pure-Python reference: agent-steps per second on antipodal circles.

    python tools/bench_reference.py [--steps 600] [--ids orca/antipodal-circle-100,...]

Prints, per scenario, the agent-steps per second over the first --steps steps (the sparse
approach and the crowded centre) with the driver and the state hash included, as the goldens
regeneration runs them. Figures are for comparing runs on one machine, not a test.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

from conformance.contract.driver import run
from conformance.contract.scenario import load_scenario


def measure(scenario_id: str, steps: int) -> tuple[int, float]:
    scenario = load_scenario(ROOT / "scenarios" / (scenario_id + ".yaml"))
    steps = min(steps, scenario.scene.steps)
    started = time.perf_counter()
    for _ in run(scenario.scene, steps=steps):
        pass
    seconds = time.perf_counter() - started
    return len(scenario.scene.agents) * steps, seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--ids", default="orca/antipodal-circle-100,orca/antipodal-circle-300")
    args = parser.parse_args(argv)
    print(f"reference solver, Python {platform.python_version()} on {platform.machine()}, "
          f"first {args.steps} steps")
    print(f"{'scenario':<32} {'agent-steps':>12} {'seconds':>9} {'agent-steps/s':>14}")
    for scenario_id in args.ids.split(","):
        work, seconds = measure(scenario_id, args.steps)
        print(f"{scenario_id:<32} {work:>12} {seconds:>9.2f} {work / seconds:>14.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
