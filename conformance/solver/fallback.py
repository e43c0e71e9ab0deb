"""The fallback of the text (paper section 5.3) for an infeasible program.

Contract: ``relax(lines, hard_count, radius, failed)`` returns the velocity that maximizes the
smallest signed distance over the soft constraints while keeping the hard prefix, computed
incrementally in list order exactly as the text writes it.  When the program failed inside
the hard prefix (deep overlap with walls does reach this, note 10), only the hard prefix is
relaxed, with no hard constraints, and the agent constraints are ignored.
"""

from __future__ import annotations

from math import sqrt
from typing import Sequence

from .halfplane import HalfPlane
from .linear_program import solve_direction

PARALLEL_NORMALS = 1e-24
"""m.m at or below this means two soft constraints have the same normal: no half-plane."""


def relax(lines: Sequence[HalfPlane], hard_count: int, radius: float,
          failed: int) -> tuple[float, float]:
    """Fallback velocity after the closest-point program failed at index ``failed``."""
    if failed < hard_count:
        return maximize_smallest_distance(lines[:hard_count], 0, radius)
    return maximize_smallest_distance(lines, hard_count, radius)


def maximize_smallest_distance(lines: Sequence[HalfPlane], hard_count: int,
                               radius: float) -> tuple[float, float]:
    """Incremental max-min of g_k(v) = (v - P_k).N_k over the soft constraints k >= hard_count.

    First soft constraint s: v = solve_direction(hard prefix, objective N_s) (its velocity is
    taken even if that program fails, note 11), level = g_s(v).  Each later soft j with
    g_j(v) < level: for k = s .. j-1, m = N_k - N_j (skipped when m.m <= 1e-24),
    len = sqrt(m.m), mh = m / len, rhs = P_k.N_k - P_j.N_j, half-plane (mh * (rhs / len), mh);
    maximize along N_j over hard + those; when feasible v = result and level = g_j(v).
    """
    hard = list(lines[:hard_count])
    count = len(lines)
    if hard_count >= count:
        return 0.0, 0.0  # note 11: no soft constraint; unreachable from the step
    px, py, nx, ny = lines[hard_count]
    vx, vy, _ = solve_direction(hard, radius, nx, ny)
    level = (vx - px) * nx + (vy - py) * ny
    for j in range(hard_count + 1, count):
        pjx, pjy, njx, njy = lines[j]
        if (vx - pjx) * njx + (vy - pjy) * njy >= level:
            continue
        pj_nj = pjx * njx + pjy * njy
        program = list(hard)
        for k in range(hard_count, j):
            pkx, pky, nkx, nky = lines[k]
            mx = nkx - njx
            my = nky - njy
            mm = mx * mx + my * my
            if mm <= PARALLEL_NORMALS:
                continue
            ml = sqrt(mm)
            mhx = mx / ml
            mhy = my / ml
            rhs = (pkx * nkx + pky * nky) - pj_nj
            q = rhs / ml
            program.append((mhx * q, mhy * q, mhx, mhy))
        rx, ry, failed = solve_direction(program, radius, njx, njy)
        if failed < 0:
            vx = rx
            vy = ry
            level = (vx - pjx) * njx + (vy - pjy) * njy
    return vx, vy
