"""Vector cases that tell a rewrite operator's variant from the text, found by its evidence run.

Contract: ``CASES`` holds primitive inputs on which a variant of the rewrite operators
(runners/c/operators/, docs/boundaries.md) gives other bits than the reference although every
other stored case and scene passed it: the fresh random inputs of ``orca-conformance operators
--evidence`` found them.  Each names its family, the variant, the decision and the clause it
serves; ``cases(family)`` returns their arguments, appended after every other case of the family
(vectors.py), so the stored cases before them never move.  Data only.
"""

from __future__ import annotations

CASES: list[dict] = [
    {"family": "solve_closest", "variant": "arithmetic:linear_program.c:27:cc5d7ca14d",
     "where": "solver.linear_program.line_interval: -pd - s", "clause": "lp.interval",
     "why": "-(pd + s) is -0 where -pd - s is +0: a normal with a -0.0 component makes pd = -s, and the zero's "
            "sign reaches the velocity through the clamp to lower",
     "args": [[(1.0, -0.0, 0.0, 1.0), (-0.75, -3.5, 1.0, -0.0)], 1.0, 2.5, -0.75]},
    {"family": "relax", "variant": "float32:linear_program.c:167:a1a0d790de",
     "where": "solver.linear_program.solve_direction: t < lower", "clause": "lp.direction",
     "why": "the direction program's projection t within binary32 rounding of lower, where a binary32 comparison "
            "keeps t instead of clamping it",
     "args": [[(1.0, 0.5, 0.6, 0.8), (2.5, 0.75, 0.8, -0.6), (3.5, 0.5, 0.0, -1.0), (-2.0, 0.0, -0.8, 0.6),
               (0.0, -0.5, -0.8, 0.6), (3.0, 1.25, 0.0, 1.0)], 1, 3.0, 3]},
    # found by the band search (operators --search), which now stands behind every equivalence claim
    {"family": "for_boundary", "variant": "arithmetic:constraint.c:37:6f8553834a",
     "where": "solver.constraint.for_boundary: s <= m or s >= 1.0 - m", "clause": "boundary.corner",
     "why": "s = -(a . e) / (e . e) within an ulp of 1 - m off the axes, where -(a . e) * (1 / (e . e)) rounds to "
            "the other side of the corner test",
     "args": [-2.565062643435693, 0.5571791769724489, 0.03301356791762311, -0.9428208230275511, 0.5, 2.0]},
    {"family": "for_boundary", "variant": "arithmetic:constraint.c:43:a265b9054b",
     "where": "solver.constraint.for_boundary: s <= m or s >= 1.0 - m", "clause": "boundary.corner",
     "why": "s on the corner margin m off the axes, where c / |e| + 1e-6 / |e| rounds otherwise than (c + 1e-6) / |e|",
     "args": [-0.1557939442431041, -0.9304457248750067, 2.6158446532907558, 0.21760457222026264, 0.5, 2.0]},
    {"family": "support_distance", "variant": "arithmetic:obstacle.c:185:7722e66922",
     "where": "solver.obstacle.support_distance: fallback direction -(a + b)/|a + b|", "clause": "support.fallback-direction",
     "why": "both ends inside the radius with the overlap flag clear: no candidate survives and the fallback "
            "direction's -s.x / |s| differs from -s.x * (1 / |s|) in the last bit",
     "args": [0.5999999999999999, 0.7999999999999999, -0.39999999999999997, 0.29999999999999993, 1.0, 2.0, 0.1, -0.2, 0]},
    {"family": "support_distance", "variant": "arithmetic:obstacle.c:185:8653af414c",
     "where": "solver.obstacle.support_distance: fallback direction -(a + b)/|a + b|", "clause": "support.fallback-direction",
     "why": "a point obstacle an ulp inside the radius, overlap flag clear: the fallback direction's -s.y / |s| "
            "differs from -s.y * (1 / |s|)",
     "args": [0.5999999999999998, 0.7999999999999998, 0.5999999999999998, 0.7999999999999998, 1.0, 2.0, 0.1, -0.2, 0]},
    {"family": "segment_distance_squared", "variant": "float32:obstacle.c:21:fef4c2a9ee",
     "where": "solver.obstacle.segment_distance_squared: t < 0.0", "clause": "note.segment-distance",
     "why": "a segment a hundred thousand trillion times longer than |a| pointing away: t = -1e-50, below "
            "binary32's range, rounds to -0 there and escapes the clamp, dropping a's component along e",
     "args": [1e-100, 1e-100, 1.0000000000000001e-50, 1e-100]},
    {"family": "solve_closest", "variant": "library-minmax:linear_program.c:114:076dc625ff",
     "where": "solver.linear_program.solve_closest: t < lower", "clause": "lp.project",
     "why": "a line tangent to the disc (lower = upper = a zero) with a -0.0 point and normal component: t and "
            "lower are zeros of opposite signs, fmax picks the other, and the zero's sign reaches v.x",
     "args": [[(-0.0, 1.0, -0.0, 1.0)], 1.0, 0.0, 0.0]},
    {"family": "for_boundary", "variant": "tolerance:constraint.c:32:2c1e1e3c43",
     "where": "solver.constraint.for_boundary: ee == 0.0", "clause": "boundary.degenerate",
     "why": "a stretch 1e-7 long (e . e = 1e-14) with clearance -1e-6, so the corner margin m is 0: the text makes "
            "a plane, a tolerance on e . e == 0 refuses the stretch",
     "args": [-3e-08, -4e-08, 3e-08, 4e-08, -1e-06, 1.0]},
]


def cases(family: str) -> list[list]:
    """The arguments of the operator cases of one family, in order (a copy)."""
    return [[list(a) if isinstance(a, list) else a for a in c["args"]] for c in CASES if c["family"] == family]
