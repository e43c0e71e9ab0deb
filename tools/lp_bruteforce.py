#!/usr/bin/env python3
"""The linear programs against vertex-enumeration brute force on many random sets.

    python tools/lp_bruteforce.py [--sets 100000] [--seed N]

The normative text claims agreement on over 10^5 random constraint sets (the optimum when the
program is feasible, the minimum largest penetration when it is not).  This script runs that
comparison (conformance/selftest/lp/comparison.py: the oracle of lp_oracle.py on the random sets of
lp_random_sets.py; the test suite runs a smaller fixed-seed sample of the same thing) and prints
the number of sets (feasible / infeasible / skipped near the feasibility boundary), the worst
error of each kind and every disagreement; the exit status is 1 on a disagreement, 0 otherwise.
"""

from __future__ import annotations

import argparse
import sys
import time

from conformance.selftest.lp import comparison
from conformance.selftest.lp import oracle
from conformance.selftest.lp.random_sets import format_case


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sets", type=int, default=100_000, help="random sets (default 10^5)")
    parser.add_argument("--seed", type=int, default=20261130, help="random.Random seed")
    parser.add_argument("--prefix-tries", type=int, default=None,
                        help="draws for the failing-hard-prefix branch of the fallback "
                             "(default sets/10)")
    args = parser.parse_args(argv)

    t0 = time.perf_counter()

    def progress(done: int, stats: comparison.Stats) -> None:
        print(f"{done:>9} sets  feasible {stats.feasible}  infeasible {stats.infeasible}  "
              f"boundary {stats.boundary}  fallback {stats.fallback}  "
              f"disagreements {len(stats.failures)}  {time.perf_counter() - t0:.1f} s",
              flush=True)

    stats = comparison.run(args.sets, args.seed, progress=progress, every=10_000)

    import random
    tries = args.prefix_tries if args.prefix_tries is not None else max(1, args.sets // 10)
    rng = random.Random(args.seed + 1)
    prefix = comparison.Stats()
    prefix_compared = sum(comparison.check_hard_prefix_branch(rng, prefix) for _ in range(tries))
    elapsed = time.perf_counter() - t0

    print()
    print(f"seed {args.seed}")
    print(stats.summary())
    for key, (err, case) in sorted(stats.worst_cases.items()):
        print(f"  {key} = {err:.3e}")
        print(f"      {format_case(case)}")
    print(f"fallback with a failing hard prefix: {prefix_compared} sets compared, worst level "
          f"error {prefix.worst_level:.3e}, worst disc violation "
          f"{prefix.worst_fallback_hard:.3e}, disagreements {len(prefix.failures)}")
    print(f"tolerances: constraint {comparison.TOL_CONSTRAINT:g}, distance {comparison.TOL_DISTANCE:g}, "
          f"level {comparison.TOL_LEVEL:g}, boundary band {oracle.MARGIN:g}")
    print(f"{elapsed:.1f} s")

    failures = stats.failures + prefix.failures
    for message, case in failures[:50]:
        print("DISAGREEMENT:", message)
        print("   ", format_case(case))
    if len(failures) > 50:
        print(f"... and {len(failures) - 50} more")
    decisive = stats.feasible + stats.infeasible
    if stats.sets and decisive < 0.9 * stats.sets:
        print(f"too few decisive sets: {decisive} of {stats.sets}")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
