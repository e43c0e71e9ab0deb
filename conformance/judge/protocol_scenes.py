"""The protocol row's own three scenes, held here and not read from the suite's ``scenarios/``.

Contract: ``row_scene(id)`` returns MAIN_SCENE, BETWEEN_SCENE or EMPTY_SCENE as a ``RowScene``
with the reference's hash of every state (``runners.reference``: the goldens are its
output); it never raises and reads no file, so the row runs the same whatever a suite holds: a
run of ``--scenarios 'orca/head-on*'`` does not depend on three other scenario files, a typo in
one of them does not turn the row red, and a suite without them (a folder of shrunk fuzz
scenes) still has the row.  The texts are copies of the committed scenario files of the same
ids; ``tests/test_protocol_row.py`` holds each copy and its hashes to the committed file and
golden, so the two never drift apart.
"""

from __future__ import annotations

from functools import lru_cache

from ..contract import strict_yaml
from ..contract.scenario import parse_scenario
from ..runners.reference import ReferenceRunner
from .protocol_checks import RowScene

MAIN_SCENE = "orca/overlap-wall"
"""Three agents that start on a wall, with perturbed preferred velocities (they differ at every
step, so a dump of the previous step's shows at once), 300 steps: well under a second on an
emulated column."""
BETWEEN_SCENE = "orca/lone-agent"
"""Another agent count, wall and waypoints (three): what a port keeps from it shows in the next run."""
EMPTY_SCENE = "orca/zero-agents"
"""A scene any port can step, even one whose solver is not written yet."""

TEXTS = {
    "orca/overlap-wall": """\
id: orca/overlap-wall
description: Agents that start overlapping a wall move off it and reach their goals.
clauses: [overlap.capsule, overlap.test, segments.responsibility, fallback.hard-prefix, note.hard-prefix]
dt: 0.1
steps: 300
agent_defaults: {radius: 0.5, max_speed: 1.0, neighbor_distance: 5.0, max_neighbors: 10,
                 time_horizon: 2.0, time_horizon_obst: 2.0, goal_radius: 0.1}
perturbation: {seed: 17, magnitude: 0.0001}
agents:
  - agent: {position: [-4.0, 0.3], waypoints: [[4.0, 2.0]]}
  - agent: {position: [-2.0, -0.45], waypoints: [[2.0, -3.0]]}
  - agent: {position: [3.0, 0.1], waypoints: [[8.0, 0.1]]}
obstacles:
  - segment: [[-6.0, 0.0], [6.0, 0.0]]
expect:
  final_overlap: 0.001
  max_overlap: 0.1
""",
    "orca/lone-agent": """\
id: orca/lone-agent
description: >-
  One agent, no neighbors, walks three waypoints past a wall: the smallest scene a port can
  run, and the one that shows a step which skips the last agent (or its only one).
clauses: [step.phases, driver.waypoints, neighbors.obstacles, segments.responsibility, driver.perturbation]
dt: 0.1
steps: 200
agent_defaults: {radius: 0.5, max_speed: 1.0, neighbor_distance: 5.0, max_neighbors: 10,
                 time_horizon: 2.0, time_horizon_obst: 2.0, goal_radius: 0.1}
perturbation: {seed: 23, magnitude: 0.0001}
agents:
  - agent: {position: [-4.0, -1.0], waypoints: [[0.0, -1.0], [3.0, 2.0], [-2.0, 3.0]]}
obstacles:
  - segment: [[-3.0, 0.0], [2.0, 0.0]]
expect:
  max_overlap: 0.0
""",
    "orca/zero-agents": """\
id: orca/zero-agents
description: A scene with walls and no agents; every step is a no-op.
clauses: [step.zero-agents, hash.empty, hash.states, note.degenerate]
dt: 0.1
steps: 10
agents: []
obstacles:
  - segment: [[0.0, 0.0], [1.0, 0.0]]
expect:
  arrival_within: 0
""",
}
"""The YAML of each scene, as in ``scenarios/<id>.yaml``."""


@lru_cache(maxsize=None)
def row_scene(scene_id: str) -> RowScene:
    """One of the row's scenes, its states hashed by the reference (once per process)."""
    label = f"<the protocol row's {scene_id}>"
    scenario = parse_scenario(strict_yaml.load(TEXTS[scene_id], label), label)
    hashes = tuple(ReferenceRunner().hashes(scenario.scene, scenario.scene.steps))
    return RowScene(scene_id, scenario.scene, hashes)
