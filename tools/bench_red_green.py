"""How much dearer a red port's column is than a green one's: python tools/bench_red_green.py [GREEN RED ...].

Runs the matrix (the non-slow scenarios, vectors and protocol rows, one column at a time) on a
passing column (default ``c``) and on each red one (default: ``control:u-as-c-minus-x``, a wrong
constraint primitive, and ``control:horizon-swap``), and prints each column's seconds, its red
cells and its ratio to the green column; the judge's aim is a ratio of at most 2.  The ids of
``EXEC_PORTS`` (``cli:horizon-swap``, ``cli:u-as-c-minus-x``, ``cli:reciprocal-math``) are red exec
ports, to be set against the green ``c:cli``.  A benchmark, not a test: the seconds depend on the
machine and its load.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from conformance.data.suite import Suite
from conformance.judge.matrix import run_matrix
from conformance.runners.base import Runner
from conformance.runners.build.layer import DETERMINISM_FLAGS, system_cc
from conformance.runners.cli_port import CliRunner, cli_spec
from conformance.selftest.controls.catalogue import CONTROL_PATCHES, MISREADINGS, register_columns
from conformance.selftest.controls.patches import load_patch, patched_tree

ROOT = Path(__file__).resolve().parent.parent


EXEC_PORTS = {
    "cli:horizon-swap": (DETERMINISM_FLAGS + ("-O2",), MISREADINGS / "horizon-swap.json"),
    "cli:u-as-c-minus-x": (DETERMINISM_FLAGS + ("-O2",), MISREADINGS / "u-as-c-minus-x.json"),
    "cli:reciprocal-math": (("-std=c99", "-O2", "-freciprocal-math"), CONTROL_PATCHES / "no-fast-math-guard.json"),
}
"""Red ports that speak the protocol as a port author's own executable does (the C port's CLI,
one misreading's patch or one toolchain choice in it), against the green ``c:cli``: their cells
are diagnosed through the protocol (dumps and agent_step over a pipe), not through cffi."""


def column(runner_id: str) -> str | Runner:
    """A column id, or an EXEC_PORTS port built as an exec CLI."""
    if runner_id not in EXEC_PORTS:
        return runner_id
    flags, patch = EXEC_PORTS[runner_id]
    tree = patched_tree((load_patch(patch),))
    return CliRunner(runner_id, cli_spec(f"bench-{runner_id.replace(':', '-')}", system_cc(), flags, source_dir=tree))


def column_seconds(runner_id: str, suite: Suite, share: bool = True) -> tuple[float, int]:
    """(seconds, red cells) of one column alone, its build excluded (built before the clock starts)."""
    scenarios = suite.select(None, False)
    runner = column(runner_id)
    run_matrix(scenarios[:1], [runner], suite.goldens_dir, with_vectors=False, with_protocol=False)  # the build
    started = time.perf_counter()
    result = run_matrix(scenarios, [runner], suite.goldens_dir, share=share)
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
