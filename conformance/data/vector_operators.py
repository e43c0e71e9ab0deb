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
]


def cases(family: str) -> list[list]:
    """The arguments of the operator cases of one family, in order (a copy)."""
    return [[list(a) if isinstance(a, list) else a for a in c["args"]] for c in CASES if c["family"] == family]
