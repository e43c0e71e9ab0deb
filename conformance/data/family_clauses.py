"""Which clauses each primitive vector family serves.

Contract: ``FAMILY_CLAUSES`` maps every family of vectors.py to the clauses of
``contract/clauses.json`` that its primitive implements, the main one first; a red vectors row
cites the first.  Where one family spans several clauses (agent_constraint: the overlap test,
the cutoff, the legs, the responsibility), the census's site table (selftest/site_clauses.py)
tells which of its cases sit on which clause's boundary.  ``tests/test_clauses.py`` holds this
table to the families and to the map.
"""

from __future__ import annotations

FAMILY_CLAUSES: dict[str, tuple[str, ...]] = {
    "segment_distance_squared": ("overlap.test", "note.segment-distance", "constraint.relative"),
    "support_distance": ("support.distance", "support.candidates", "support.radial-a", "support.radial-b",
                         "support.segment-normals", "support.legs", "support.value", "support.domain-test",
                         "support.fallback-direction", "support.result", "overlap.capsule"),
    "agent_case_form": ("agents.case-form", "agents.w", "agents.cutoff", "agents.leg", "agents.leg-side",
                        "agents.leg-left", "agents.leg-right", "agents.leg-u", "agents.leg-tie"),
    "agent_constraint": ("agents.inputs", "overlap.test", "agents.responsibility", "agents.case-p",
                         "support.u", "agents.form-scope"),
    "segment_constraint": ("segments.inputs", "overlap.test", "segments.responsibility", "support.u",
                           "segments.two-sided"),
    "for_boundary": ("boundary.plane", "boundary.definition", "boundary.degenerate", "boundary.corner",
                     "boundary.far-side"),
    "solve_closest": ("lp.goal", "lp.order", "lp.start", "lp.visit", "lp.interval", "lp.parallel", "lp.bound",
                      "lp.empty", "lp.project", "lp.result", "halfplane.definition"),
    "solve_direction": ("lp.direction", "lp.visit", "lp.interval", "lp.parallel", "lp.bound", "lp.empty",
                        "lp.result"),
    "relax": ("fallback.goal", "fallback.hard-prefix", "fallback.all", "fallback.first", "fallback.skip",
              "fallback.bisector", "fallback.subprogram", "fallback.result"),
    "obstacle_neighbors": ("neighbors.obstacles",),
    "agent_neighbors": ("neighbors.agents", "neighbors.structure"),
    "splitmix64": ("driver.splitmix",),
    "uniform": ("driver.splitmix",),
    "preferred_velocity": ("driver.waypoints", "driver.arrive", "driver.cruise", "driver.perturbation"),
    "agent_step": ("step.start-state", "neighbors.obstacles", "neighbors.agents", "fallback.hard-prefix",
                   "lp.result", "choice.parameters", "arith.vectors"),
}
