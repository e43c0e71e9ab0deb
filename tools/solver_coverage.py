"""Branch coverage of the reference solver by the scenario set (and the primitive vectors).

    python tools/solver_coverage.py [--all] [--steps N]

Runs every scenario (non-slow by default; --all adds the slow ones; --steps caps each run)
through the reference under coverage.py in branch mode, measuring only conformance/solver,
then prints the report with the missing branches. docs/coverage.md explains each branch the
scenarios leave uncovered. Needs the test extra (coverage).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import coverage

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--all", action="store_true", help="include the slow scenarios")
    parser.add_argument("--steps", type=int, default=None, help="cap on steps per scenario")
    parser.add_argument("--vectors-only", action="store_true", help="replay the vectors, no scenario")
    args = parser.parse_args(argv)
    cov = coverage.Coverage(branch=True, source=[str(ROOT / "conformance" / "solver")],
                            data_file=None)
    cov.start()
    from conformance.contract.driver import run
    from conformance.data.suite import Suite
    suite = Suite(ROOT)
    scenarios = [] if args.vectors_only else suite.select(None, args.all)
    for scenario in scenarios:
        for _ in run(scenario.scene, steps=None if args.steps is None else min(args.steps, scenario.scene.steps)):
            pass
    from conformance.data import vectors
    cases, mismatches = vectors.replay_reference(suite.goldens_dir / "vectors")
    cov.stop()
    print(f"{len(scenarios)} scenarios and {cases} primitive vectors ({mismatches} mismatches) "
          "replayed on the reference")
    cov.report(show_missing=True, skip_covered=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
