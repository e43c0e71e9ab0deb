"""Primitive cases exactly on the decision boundaries of the misreading catalogue.

Contract: ``cases(family)`` returns literal inputs (exact doubles, written as Python reprs)
appended after a family's random and edge cases, so the stored cases before them never move.
Each group names the catalogue entries (runners/c/misreadings/) whose alternative reading it
tells apart from the reference's, and how the inputs were found or constructed.  The same
boundaries are reached in a scenario too (scenarios/orca/boundary-*.yaml): the vectors say
which primitive is wrong, the scenes judge a port that implements only ``run``.
"""

from __future__ import annotations

CASES: dict[str, list[list]] = {
    # --- driver: preferred_velocity -------------------------------------------------------
    "preferred_velocity": [
    ],
    # --- distances and neighbours ---------------------------------------------------------
    "segment_distance_squared": [
    ],
    "obstacle_neighbors": [
    ],
    "agent_neighbors": [
    ],
    "segment_constraint": [
    ],
    "agent_constraint": [
    ],
    # --- support form and case form -------------------------------------------------------
    "support_distance": [
    ],
    "agent_case_form": [
    ],
    # --- programs, fallback, ForBoundary ----------------------------------------------------
    "solve_closest": [
    ],
    "solve_direction": [
    ],
    "relax": [
    ],
    "for_boundary": [
    ],
}


def cases(family: str) -> list[list]:
    """The boundary cases of one family (a copy; empty for a family without any)."""
    return [list(c) for c in CASES.get(family, [])]
