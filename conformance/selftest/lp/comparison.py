"""The solver's linear programs held against the brute-force oracle on random sets.

Contract: ``run(sets, seed)`` draws ``sets`` sets (``random_sets.random_case``) from
random.Random(seed) and compares each with ``oracle``: ``solve_closest`` on every decisively
feasible set (its v inside the constraints within TOL_CONSTRAINT, |v - p| within TOL_DISTANCE of
the optimum), its verdict on every decisively infeasible one, and ``relax`` on every set the
solver rejects (the smallest soft distance within TOL_LEVEL of the max-min).
``check_hard_prefix_branch`` compares the fallback for a failing hard prefix.  ``Stats`` holds
the counts, the worst errors with their sets and every disagreement.  Shared by
``tests/test_linear_program.py`` (about 10^4 sets) and ``tools/lp_bruteforce.py`` (10^5 sets by
default, the number the normative text quotes).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from math import sqrt
from typing import Callable, Optional, Sequence

from ...solver.fallback import relax
from ...solver.linear_program import solve_closest
from .oracle import Line, classify, closest_point, max_min, smallest_soft_distance, to_nline, violation
from .random_sets import Case, random_case, random_line

TOL_CONSTRAINT = 1e-9
"""The solver's v may violate a half-plane or the disc by at most this."""

TOL_DISTANCE = 1e-9
"""|v - p| of the solver may differ from the brute-force optimum by at most this."""

TOL_LEVEL = 1e-9
"""min soft g of the fallback may differ from the brute-force max-min by at most this."""


@dataclass
class Stats:
    sets: int = 0
    feasible: int = 0            # decisively feasible, compared
    infeasible: int = 0          # decisively infeasible, infeasibility confirmed
    boundary: int = 0            # within MARGIN of the feasibility boundary, skipped
    fallback: int = 0            # fallback results compared (every set the solver rejected)
    fallback_hard: int = 0       # ... of which with a hard prefix
    worst_constraint: float = 0.0   # feasible: largest violation of a half-plane or the disc
    worst_distance: float = 0.0     # feasible: largest | |v - p| - optimum |
    worst_fallback_hard: float = 0.0  # fallback: largest violation of disc + hard prefix
    worst_level: float = 0.0        # fallback: largest | min soft g - max-min |
    worst_cases: dict = field(default_factory=dict)
    failures: list = field(default_factory=list)

    def note(self, key: str, err: float, case: Case) -> None:
        if err > getattr(self, key):
            setattr(self, key, err)
            self.worst_cases[key] = (err, case)

    def fail(self, message: str, case: Case) -> None:
        self.failures.append((message, case))

    def summary(self) -> str:
        return (f"sets {self.sets}: feasible {self.feasible}, infeasible {self.infeasible}, "
                f"near the boundary (skipped) {self.boundary}; fallback compared "
                f"{self.fallback} ({self.fallback_hard} with a hard prefix)\n"
                f"worst feasible: constraint violation {self.worst_constraint:.3e}, "
                f"distance error {self.worst_distance:.3e}\n"
                f"worst fallback: hard/disc violation {self.worst_fallback_hard:.3e}, "
                f"max-min level error {self.worst_level:.3e}\n"
                f"disagreements: {len(self.failures)}")


def check_fallback(lines: Sequence[Line], hard_count: int, radius: float, failed: int,
                   case: Case, stats: Stats) -> None:
    """relax() against the max-min oracle for the program that failed at ``failed``."""
    vx, vy = relax(lines, hard_count, radius, failed)
    if failed < hard_count:
        lines = list(lines[:hard_count])
        hard_count = 0
    fstar, _, _ = max_min(lines, hard_count, radius)
    hard_viol = max(0.0, violation(lines[:hard_count], radius, vx, vy))
    level = smallest_soft_distance(lines, hard_count, vx, vy)
    err = abs(level - fstar)
    stats.fallback += 1
    if hard_count:
        stats.fallback_hard += 1
    stats.note("worst_fallback_hard", hard_viol, case)
    stats.note("worst_level", err, case)
    if hard_viol > TOL_CONSTRAINT:
        stats.fail(f"fallback v=({vx!r}, {vy!r}) violates disc/hard by {hard_viol:.3e}", case)
    if err > TOL_LEVEL:
        stats.fail(f"fallback v=({vx!r}, {vy!r}) min soft g {level!r}, brute force {fstar!r}",
                   case)


def check_case(case: Case, stats: Stats) -> None:
    """Compare solve_closest (and relax when it fails) with the oracle on one set."""
    stats.sets += 1
    lines = case.lines
    radius = case.radius
    vx, vy, failed = solve_closest(lines, radius, case.px, case.py)
    verdict = classify(lines, radius)
    if verdict == "feasible":
        stats.feasible += 1
        if failed >= 0:
            stats.fail(f"solver reports infeasible at {failed}, brute force feasible", case)
            return
        nl = [to_nline(l) for l in lines]
        opt = closest_point(nl, radius, case.px, case.py)
        assert opt is not None  # classify found an interior point
        viol = max(0.0, violation(lines, radius, vx, vy))
        dist = sqrt((vx - case.px) ** 2 + (vy - case.py) ** 2)
        derr = abs(dist - opt[2])
        stats.note("worst_constraint", viol, case)
        stats.note("worst_distance", derr, case)
        if viol > TOL_CONSTRAINT:
            stats.fail(f"solver v=({vx!r}, {vy!r}) violates a constraint by {viol:.3e}", case)
        if derr > TOL_DISTANCE:
            stats.fail(f"solver |v - p| = {dist!r}, brute force {opt[2]!r} at {opt[:2]}", case)
    elif verdict == "infeasible":
        stats.infeasible += 1
        if failed < 0:
            stats.fail("solver reports feasible, brute force clearly empty", case)
            return
    else:
        stats.boundary += 1
    if failed >= 0:
        if failed < case.hard_count:
            # the hard prefix contains the origin by construction: it cannot fail
            stats.fail(f"solver failed at {failed} inside a feasible hard prefix", case)
            return
        check_fallback(lines, case.hard_count, radius, failed, case, stats)


def check_hard_prefix_branch(rng: random.Random, stats: Stats) -> bool:
    """relax() with failed < hard_count: an infeasible soft-only set used as the hard prefix,
    followed by extra constraints that must be ignored.  Returns False when the drawn set was
    not usable (feasible), True when compared."""
    case = random_case(rng)
    if case.hard_count:
        return False
    vx, vy, failed = solve_closest(case.lines, case.radius, case.px, case.py)
    if failed < 0:
        return False
    normals: list[tuple[float, float]] = []
    extra = [random_line(rng, case.radius, -1.2, 0.9, normals) for _ in range(rng.randint(1, 3))]
    lines = case.lines + extra
    hard_count = len(case.lines)
    full = Case(lines, hard_count, case.radius, case.px, case.py, "prefix-failed")
    stats.sets += 1
    check_fallback(lines, hard_count, case.radius, failed, full, stats)
    return True


def run(sets: int, seed: int, progress: Optional[Callable[[int, Stats], None]] = None,
        every: int = 10_000) -> Stats:
    """Compare ``sets`` random sets drawn from random.Random(seed)."""
    rng = random.Random(seed)
    stats = Stats()
    for i in range(1, sets + 1):
        check_case(random_case(rng), stats)
        if progress is not None and i % every == 0:
            progress(i, stats)
    return stats


if __name__ == "__main__":  # quick look
    t0 = time.perf_counter()
    st = run(2000, 1)
    print(st.summary(), f"{time.perf_counter() - t0:.1f}s")
