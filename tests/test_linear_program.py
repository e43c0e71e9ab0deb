"""The linear program and its fallback against vertex-enumeration brute force (conformance/selftest/lp/comparison.py).

The normative text claims agreement on over 10^5 random sets; bench/lp_bruteforce.py runs those.
Here a fixed-seed run of RANDOM_SETS sets (plus the relax branch for a failing hard prefix)
keeps the suite fast, and hand-made cases pin the special branches.
"""

from __future__ import annotations

import random
import time
from math import sqrt


from conformance.selftest.lp import comparison
from conformance.selftest.lp import oracle
from conformance.selftest.lp.random_sets import format_case
from conformance.solver.fallback import relax  # noqa: E402
from conformance.solver.linear_program import solve_closest  # noqa: E402

RANDOM_SETS = 20_000
PREFIX_TRIES = 2_000
SEED = 20261130


def _report(stats: comparison.Stats) -> None:
    print()
    print(stats.summary())
    for key, (err, case) in sorted(stats.worst_cases.items()):
        print(f"  {key} = {err:.3e} at {format_case(case)}")
    for message, case in stats.failures[:10]:
        print("DISAGREEMENT:", message)
        print("   ", format_case(case))


def test_random_sets_against_brute_force() -> None:
    t0 = time.perf_counter()
    stats = comparison.run(RANDOM_SETS, SEED)
    elapsed = time.perf_counter() - t0
    _report(stats)
    print(f"  {elapsed:.1f} s")
    assert stats.sets == RANDOM_SETS
    decisive = stats.feasible + stats.infeasible
    assert decisive + stats.boundary == stats.sets
    assert decisive >= 0.9 * stats.sets
    # both kinds of sets, and the fallback with and without hard prefix, are well represented
    assert stats.feasible >= 0.3 * stats.sets
    assert stats.infeasible >= 0.25 * stats.sets
    assert stats.fallback >= stats.infeasible
    assert stats.fallback_hard >= 0.08 * stats.sets
    assert not stats.failures, stats.failures[0][0]
    assert stats.worst_constraint <= comparison.TOL_CONSTRAINT
    assert stats.worst_distance <= comparison.TOL_DISTANCE
    assert stats.worst_fallback_hard <= comparison.TOL_CONSTRAINT
    assert stats.worst_level <= comparison.TOL_LEVEL


def test_relax_when_the_hard_prefix_itself_fails() -> None:
    """failed < hard_count: only the prefix is relaxed, with no hard constraints, the rest
    ignored (an infeasible soft-only set is used as the prefix, extra lines appended)."""
    rng = random.Random(SEED + 1)
    stats = comparison.Stats()
    compared = sum(comparison.check_hard_prefix_branch(rng, stats) for _ in range(PREFIX_TRIES))
    _report(stats)
    assert compared == stats.fallback == stats.sets
    assert compared >= 300
    assert not stats.failures, stats.failures[0][0]
    assert stats.worst_level <= comparison.TOL_LEVEL


# ----------------------------------------------------------------------------------------------
# hand-made cases


def test_no_constraint_p_inside_and_outside() -> None:
    assert solve_closest([], 2.0, 0.3, -1.2) == (0.3, -1.2, -1)
    vx, vy, failed = solve_closest([], 2.0, 3.0, 4.0)
    assert failed == -1
    assert abs(vx - 1.2) < 1e-15 and abs(vy - 1.6) < 1e-15


def test_single_line_through_the_disc() -> None:
    line = (0.0, 0.2, 0.0, 1.0)  # y >= 0.2
    # p inside the disc, below the line: projected onto it
    vx, vy, failed = solve_closest([line], 1.0, 0.5, -0.5)
    assert failed == -1
    assert abs(vx - 0.5) < 1e-15 and abs(vy - 0.2) < 1e-15
    # p outside the disc: the projection is clamped to the chord end
    vx, vy, failed = solve_closest([line], 1.0, 3.0, -1.0)
    assert failed == -1
    assert abs(vx - sqrt(0.96)) < 1e-15 and abs(vy - 0.2) < 1e-15
    # p already permitted: unchanged
    assert solve_closest([line], 1.0, 0.1, 0.7) == (0.1, 0.7, -1)


def test_line_missing_the_disc() -> None:
    # permitted side away from the disc: infeasible at index 0
    line = (2.0, 0.0, 1.0, 0.0)  # x >= 2, R = 1
    vx, vy, failed = solve_closest([line], 1.0, 0.0, 0.5)
    assert failed == 0
    # the fallback maximizes g = x - 2 over the disc: v = (1, 0), g = -1
    rx, ry = relax([line], 0, 1.0, failed)
    assert abs(rx - 1.0) < 1e-15 and abs(ry) < 1e-15
    # the disc entirely on the permitted side: the line changes nothing
    assert solve_closest([(-2.0, 0.0, 1.0, 0.0)], 1.0, 0.0, 0.5) == (0.0, 0.5, -1)


def test_parallel_lines_facing_each_other_are_infeasible() -> None:
    lines = [(0.5, 0.0, 1.0, 0.0),     # x >= 0.5
             (-0.5, 0.0, -1.0, 0.0)]   # x <= -0.5
    vx, vy, failed = solve_closest(lines, 2.0, 1.0, 1.0)
    assert failed == 1  # exactly parallel (denom == 0) with num < 0
    rx, ry = relax(lines, 0, 2.0, failed)
    # max of min(x - 0.5, -0.5 - x) is -0.5 at x = 0 (any y: the fallback picks one)
    level = min(rx - 0.5, -0.5 - rx)
    assert abs(level - -0.5) < 1e-12
    assert rx * rx + ry * ry <= 4.0 + 1e-12
    assert abs(level - oracle.max_min(lines, 0, 2.0)[0]) < 1e-12


def test_parallel_lines_same_direction() -> None:
    lines = [(0.5, 0.0, 1.0, 0.0),     # x >= 0.5
             (-0.5, 0.0, 1.0, 0.0),    # x >= -0.5 (parallel, redundant)
             (1.0, 3.0, 1.0, 0.0)]     # x >= 1 (parallel, tighter)
    vx, vy, failed = solve_closest(lines, 2.0, 0.0, 0.3)
    assert failed == -1
    assert abs(vx - 1.0) < 1e-15 and abs(vy - 0.3) < 1e-15


def test_wedge_vertex_and_circle_vertex() -> None:
    # x >= 0.5 and y >= 0.5, p at the origin: the optimum is the wedge vertex (0.5, 0.5)
    lines = [(0.5, 0.0, 1.0, 0.0), (0.0, 0.5, 0.0, 1.0)]
    vx, vy, failed = solve_closest(lines, 2.0, 0.0, 0.0)
    assert failed == -1 and abs(vx - 0.5) < 1e-15 and abs(vy - 0.5) < 1e-15
    # x >= 0.6 with p far up: the line-circle vertex (0.6, 0.8)
    vx, vy, failed = solve_closest([(0.6, 0.0, 1.0, 0.0)], 1.0, 0.0, 5.0)
    assert failed == -1 and abs(vx - 0.6) < 1e-15 and abs(vy - 0.8) < 1e-15


def test_fallback_keeps_the_hard_prefix() -> None:
    lines = [(0.0, 0.0, 0.0, -1.0),    # hard: y <= 0
             (0.0, 0.5, 0.0, 1.0),     # soft: y >= 0.5
             (0.5, 0.0, 1.0, 0.0),     # soft: x >= 0.5
             (-0.5, 0.0, -1.0, 0.0)]   # soft: x <= -0.5
    vx, vy, failed = solve_closest(lines, 1.0, 0.2, 0.9)
    assert failed >= 1
    rx, ry = relax(lines, 1, 1.0, failed)
    # min(y - 0.5, x - 0.5, -0.5 - x) with y <= 0: at most -0.5, reached at (0, 0)
    assert ry <= 1e-15 and rx * rx + ry * ry <= 1.0 + 1e-15
    level = oracle.smallest_soft_distance(lines, 1, rx, ry)
    assert abs(level - -0.5) < 1e-12
    assert abs(oracle.max_min(lines, 1, 1.0)[0] - -0.5) < 1e-12


def test_oracle_itself_on_known_values() -> None:
    """The oracle must not be vacuous: known optimum and emptiness."""
    nl = [oracle.to_nline((0.5, 0.0, 1.0, 0.0)), oracle.to_nline((0.0, 0.5, 0.0, 1.0))]
    vx, vy, d = oracle.closest_point(nl, 2.0, 0.0, 0.0)
    assert abs(vx - 0.5) < 1e-15 and abs(vy - 0.5) < 1e-15 and abs(d - sqrt(0.5)) < 1e-15
    assert oracle.classify([(0.5, 0.0, 1.0, 0.0), (-0.5, 0.0, -1.0, 0.0)], 2.0) == "infeasible"
    assert oracle.classify([(0.5, 0.0, 1.0, 0.0)], 2.0) == "feasible"
    assert oracle.classify([(1.0, 0.0, 1.0, 0.0)], 1.0) == "boundary"  # tangent: one point
    # three lines x >= 1, y >= 1, x + y <= 0 (normals 120-ish degrees apart): max-min by hand
    s = sqrt(0.5)
    lines = [(1.0, 0.0, 1.0, 0.0), (0.0, 1.0, 0.0, 1.0), (0.0, 0.0, -s, -s)]
    f, _, _ = oracle.max_min(lines, 0, 10.0)
    # symmetric optimum on x = y = t: min(t - 1, -sqrt(2) t) is largest at t = 1/(1 + sqrt 2)
    t = 1.0 / (1.0 + sqrt(2.0))
    assert abs(f - (t - 1.0)) < 1e-12
