"""Which clause of the text each decision site of the reference serves.

Contract: ``SITE_CLAUSES`` maps every census site id (census.py finds the sites in the
reference's source) to the clauses of ``contract/clauses.json`` whose rule that decision
evaluates, the most specific first.  ``tests/test_clauses.py`` fails when a site of the sources
is missing here, when an entry names a site that no longer exists, or when an id is unknown.
The census counts data on each site's boundary, so through this table every clause learns which
vector cases and which scenes sit exactly on its boundaries (``orca-conformance clauses``).
"""

from __future__ import annotations

SITE_CLAUSES: dict[str, tuple[str, ...]] = {
    "solver.obstacle.segment_distance_squared: ee == 0.0": ("overlap.test", "note.segment-distance"),
    "solver.obstacle.segment_distance_squared: t < 0.0": ("overlap.test", "note.segment-distance"),
    "solver.obstacle.segment_distance_squared: t > 1.0": ("overlap.test", "note.segment-distance"),
    "solver.obstacle.support_distance: ax != bx": ("support.radial-b", "obstacle.shape"),
    "solver.obstacle.support_distance: ay != by": ("support.radial-b", "obstacle.shape"),
    "solver.obstacle.support_distance: la != 0.0": ("support.radial-a", "note.radial-skip"),
    "solver.obstacle.support_distance: lb != 0.0": ("support.radial-b", "note.radial-skip"),
    "solver.obstacle.support_distance: le > 0.0": ("support.segment-normals", "note.radial-skip"),
    "solver.obstacle.support_distance: nx * ax + ny * ay + r <= tol_a": ("support.domain-test", "note.domain-test"),
    "solver.obstacle.support_distance: nx * bx + ny * by + r <= tol_b": ("support.domain-test", "note.domain-test"),
    "solver.obstacle.support_distance: vb < va": ("support.value", "note.candidate-ties"),
    "solver.obstacle.support_distance: value > best": ("support.candidates", "note.candidate-ties"),
    "solver.obstacle.support_distance: ls == 0.0": ("support.fallback-direction", "note.fallback-direction"),
    "solver.obstacle.support_distance: vb < va #2": ("support.fallback-direction", "support.value"),
    "solver.obstacle._append_legs: ll < 0.0": ("support.legs", "note.legs"),
    "solver.obstacle.agent_case_form: dot1 < 0.0": ("agents.cutoff", "note.case-form"),
    "solver.obstacle.agent_case_form: dot1 * dot1 > r * r * ww": ("agents.cutoff", "note.case-form"),
    "solver.obstacle.agent_case_form: ax * wy - ay * wx > 0.0": ("agents.leg-side", "agents.leg-tie"),
    "solver.constraint.agent_constraint: ax * ax + ay * ay <= r * r": ("overlap.test", "note.agent-form"),
    "solver.constraint.segment_constraint: segment_distance_squared(ax, ay, bx, by) <= r * r": (
        "overlap.test", "note.segment-distance"),
    "solver.constraint.for_boundary: ee == 0.0": ("boundary.degenerate", "note.for-boundary"),
    "solver.constraint.for_boundary: s <= m": ("boundary.corner", "note.for-boundary"),
    "solver.constraint.for_boundary: s >= 1.0 - m": ("boundary.corner", "note.for-boundary"),
    "solver.constraint.for_boundary: d < -BOUNDARY_EPSILON": ("boundary.far-side", "note.for-boundary"),
    "solver.linear_program.line_interval: disc < 0.0": ("lp.interval", "note.line-interval"),
    "solver.linear_program.line_interval: -PARALLEL_EPSILON <= denom": ("lp.parallel", "note.line-interval"),
    "solver.linear_program.line_interval: denom <= PARALLEL_EPSILON": ("lp.parallel", "note.line-interval"),
    "solver.linear_program.line_interval: num < 0.0": ("lp.parallel", "note.line-interval"),
    "solver.linear_program.line_interval: denom > 0.0": ("lp.bound", "note.line-interval"),
    "solver.linear_program.line_interval: t > lower": ("lp.bound", "note.line-interval"),
    "solver.linear_program.line_interval: t < upper": ("lp.bound", "note.line-interval"),
    "solver.linear_program.line_interval: lower > upper": ("lp.empty", "note.line-interval"),
    "solver.linear_program.solve_closest: plen <= radius": ("lp.start", "note.lp-start"),
    "solver.linear_program.solve_closest: (vx - px) * nx + (vy - py) * ny >= 0.0": (
        "lp.visit", "note.closest-program"),
    "solver.linear_program.solve_closest: t < lower": ("lp.project", "note.closest-program"),
    "solver.linear_program.solve_closest: t > upper": ("lp.project", "note.closest-program"),
    "solver.linear_program.solve_direction: (vx - px) * nx + (vy - py) * ny >= 0.0": (
        "lp.direction", "lp.visit", "note.direction-program"),
    "solver.linear_program.solve_direction: dn > 0.0": ("lp.direction", "note.direction-program"),
    "solver.linear_program.solve_direction: dn < 0.0": ("lp.direction", "note.direction-program"),
    "solver.linear_program.solve_direction: t < lower": ("lp.direction", "note.direction-program"),
    "solver.linear_program.solve_direction: t > upper": ("lp.direction", "note.direction-program"),
    "solver.fallback.relax: failed < hard_count": ("fallback.hard-prefix", "fallback.all", "note.relax-branch"),
    "solver.fallback.maximize_smallest_distance: hard_count >= count": ("fallback.first", "note.max-min"),
    "solver.fallback.maximize_smallest_distance: (vx - pjx) * njx + (vy - pjy) * njy >= level": (
        "fallback.skip", "note.max-min"),
    "solver.fallback.maximize_smallest_distance: mm <= PARALLEL_NORMALS": ("fallback.bisector", "note.max-min"),
    "solver.fallback.maximize_smallest_distance: failed < 0": ("fallback.subprogram", "note.max-min"),
    "solver.neighbors.obstacle_neighbors: d2 <= reach2": ("neighbors.obstacles", "note.horizons"),
    "solver.neighbors.obstacle_neighbors: found.sort() ties": ("neighbors.obstacles", "note.neighbors"),
    "solver.neighbors.agent_neighbors_brute_force: j == i": ("neighbors.agents", "note.neighbors"),
    "solver.neighbors.agent_neighbors_brute_force: d2 < limit": ("neighbors.agents", "note.neighbors"),
    "solver.neighbors._smallest: count <= 0": ("neighbors.agents", "note.neighbors"),
    "solver.neighbors._smallest: len(found) > 4 * count": ("neighbors.agents", "neighbors.structure"),
    "solver.neighbors._smallest: nsmallest(found) ties": ("neighbors.agents", "note.neighbors"),
    "solver.neighbors._smallest: found.sort() ties": ("neighbors.agents", "note.neighbors"),
    "solver.neighbors.AgentGrid.__init__: self.cell > 0.0": ("neighbors.structure", "note.neighbors"),
    "solver.neighbors.AgentGrid.__init__: widest / self.cell < EXACT_CELL_LIMIT": (
        "neighbors.structure", "note.neighbors"),
    "solver.neighbors.AgentGrid.__init__: self.cell > 0.0 #2": ("neighbors.structure", "note.neighbors"),
    "solver.neighbors.AgentGrid.neighbors: max_neighbors <= 0": ("neighbors.agents", "note.neighbors"),
    "solver.neighbors.AgentGrid.neighbors: neighbor_distance <= 0.0": ("neighbors.agents", "note.neighbors"),
    "solver.neighbors.AgentGrid.neighbors: self.cell <= 0.0": ("neighbors.structure", "note.neighbors"),
    "solver.neighbors.AgentGrid.neighbors: (d2 := ((x - xi) * (x - xi) + (y - yi) * (y - yi))) < limit": (
        "neighbors.agents", "neighbors.structure"),
    "solver.neighbors.AgentGrid.neighbors: j != i": ("neighbors.agents", "note.neighbors"),
    "solver.simulator.Simulator.new_velocity: failed >= 0": ("lp.result", "note.infeasible-result"),
    "solver.simulator.Simulator.new_velocity: failed < hard_count": ("fallback.hard-prefix", "note.relax-branch"),
    "contract.driver.Driver.preferred_velocity: k < last": ("driver.waypoints",),
    "contract.driver.Driver.preferred_velocity: dist2 <= reach2": ("driver.waypoints",),
    "contract.driver.Driver.preferred_velocity: dist <= speed * dt": ("driver.arrive",),
    "contract.driver.Driver.preferred_velocity: m > 0.0": ("driver.perturbation",),
    "contract.driver.run: step == total": ("hash.states",),
}
