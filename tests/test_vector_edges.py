"""The edge generators reach the boundaries they are there for (conformance/data/vector_edges.py).

Each test recomputes, with the reference's own operations, the quantity a decision compares
and counts the stored cases that sit exactly on the boundary: if a generator drifts away from
its boundary, the mutants it kills come back (docs/mutation/report.md).
"""

from __future__ import annotations

import random
from math import sqrt

from conformance.data import vector_edges, vectors


def _edges(name: str) -> list[list]:
    """The family's edge cases (its record's ``edges`` maker), from a seed of the test's own."""
    return vectors.FAMILY_BY_NAME[name].makers["edges"](name, random.Random(f"test/{name}"))


def test_for_boundary_edges_put_the_foot_on_the_cut_off() -> None:
    on_cut = on_eps = 0
    for ax, ay, bx, by, clearance, _tau in _edges("for_boundary"):
        ex, ey = bx - ax, by - ay
        ee = ex * ex + ey * ey
        s = -(ax * ex + ay * ey) / ee
        le = sqrt(ee)
        m = (clearance + vector_edges.BOUNDARY_EPSILON) / le
        d = -(ax * (-ey / le) + ay * (ex / le))
        on_cut += s == m or s == 1.0 - m
        on_eps += d == -vector_edges.BOUNDARY_EPSILON
    assert on_cut >= 20 and on_eps >= 20, (on_cut, on_eps)


def test_case_form_edges_tie_the_cut_off_test() -> None:
    ties = 0
    for ax, ay, r, tau, xx, xy in _edges("agent_case_form"):
        wx, wy = xx - ax / tau, xy - ay / tau
        dot1 = wx * ax + wy * ay
        ties += dot1 < 0.0 and dot1 * dot1 == r * r * (wx * wx + wy * wy)
    assert ties >= 5, ties


def test_support_edges_touch_within_rounding() -> None:
    inside_by_rounding = 0
    for ax, ay, bx, by, r, _tau, _xx, _xy, overlap in _edges("support_distance"):
        if not overlap:
            inside_by_rounding += ax * ax + ay * ay - r * r <= 0.0 or bx * bx + by * by - r * r <= 0.0
    assert inside_by_rounding >= 3, inside_by_rounding


def test_segment_distance_edges_clamp_at_exactly_one() -> None:
    at_end = 0
    for ax, ay, bx, by in _edges("segment_distance_squared"):
        ex, ey = bx - ax, by - ay
        ee = ex * ex + ey * ey
        at_end += ee != 0.0 and -(ax * ex + ay * ey) / ee in (0.0, 1.0)
    assert at_end >= 50, at_end


def test_relax_edges_hit_the_parallel_normals_threshold() -> None:
    exact = 0
    for lines, _hard, _radius, _failed in vectors.raw_cases("relax"):
        normals = [(nx, ny) for _, _, nx, ny in lines]
        for i, (ax, ay) in enumerate(normals):
            for bx, by in normals[i + 1:]:
                mx, my = ax - bx, ay - by
                exact += mx * mx + my * my == 1e-24
    assert exact >= 2, exact


def test_neighbor_edges_cover_crowds_and_out_of_range_cells() -> None:
    cases = _edges("agent_neighbors")
    assert max(len(xs) for _, xs, _, _, _ in cases) >= 100
    assert any(max(abs(x) for x in xs) / nd > 2.0 ** 62 for _, xs, _, nd, _ in cases if nd > 0)
    assert any(mn < len(xs) - 1 for _, xs, _, _, mn in cases)


def test_edge_cases_are_part_of_the_stored_families() -> None:
    support = vectors.raw_cases("support_distance")
    assert [1e-160, 0.0, 1e-160 + 1e-170, 0.0, 2e-160, 0.1, 1e-159, 0.0, 1] in support
    relax = vectors.raw_cases("relax")
    assert [[(0.0, -1.5, 0.0, -1.0), (1.0, 0.0, 0.0, 1.0), (1.0, 0.0, 3e-12, 1.0)], 0, 2.0, 1] in relax
    # the reference evaluates them (no exception on subnormal or huge inputs)
    for case in support[-16:]:
        vectors.evaluate_reference(vectors.FAMILY_BY_NAME["support_distance"],
                                   [vectors.encode_value(c, v) for c, v in zip(vectors.FAMILY_BY_NAME["support_distance"].args, case)])
