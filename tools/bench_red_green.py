"""How much dearer a red port's column is than a green one's: python tools/bench_red_green.py [GREEN RED ...].

Runs the matrix (the non-slow scenarios, vectors and protocol rows, one column at a time) on a
passing column (default ``c``) and on each red one (default: ``control:u-as-c-minus-x``, a wrong
constraint primitive, and ``control:horizon-swap``), and prints each column's seconds, its red
cells and its ratio to the green column; the judge's aim is a ratio of at most 2.  A benchmark,
not a test: the seconds depend on the machine and its load.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from conformance.data.suite import Suite
from conformance.judge.matrix import run_matrix
from conformance.selftest.controls.catalogue import register_columns

ROOT = Path(__file__).resolve().parent.parent


def column_seconds(runner_id: str, suite: Suite, share: bool = True) -> tuple[float, int]:
    """(seconds, red cells) of one column alone, its build excluded (built before the clock starts)."""
    scenarios = suite.select(None, False)
    run_matrix(scenarios[:1], [runner_id], suite.goldens_dir, with_vectors=False, with_protocol=False)  # the build
    started = time.perf_counter()
    result = run_matrix(scenarios, [runner_id], suite.goldens_dir, share=share)
    return time.perf_counter() - started, len(result.failed())


def main(argv: list[str]) -> int:
    register_columns()
    green, *reds = argv or ["c", "control:u-as-c-minus-x", "control:horizon-swap"]
    suite = Suite.locate(str(ROOT))
    base, _ = column_seconds(green, suite)
    print(f"{green:<32} {base:6.1f} s   green")
    for red in reds:
        seconds, failed = column_seconds(red, suite)
        print(f"{red:<32} {seconds:6.1f} s   {failed} red cells   red:green {seconds / base:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
