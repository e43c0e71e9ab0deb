"""The neighborhood of a divergent agent: the picture a diverged cell carries to the HTML report.

Contract: ``neighborhood(scene, agent, expected, got)`` returns a JSON-ready dict (step,
agent, center, indices, radii, the reference's and the runner's position and velocity of each
chosen agent, the segments near the centre) for the at most ``PICTURE_AGENTS`` agents nearest
to ``agent`` in the reference's dump that lie within ``PICTURE_RADIUS`` metres of it.  Both
dumps must be finite (the dict goes to JSON); reports/drawing.py ``neighborhood_svg`` draws it.
"""

from __future__ import annotations

from ..contract.scenario import Scene
from ..runners.base import StateDump


PICTURE_RADIUS = 8.0
PICTURE_AGENTS = 60


def neighborhood(scene: Scene, agent: int, expected: StateDump, got: StateDump) -> dict:
    """Positions and velocities (reference and runner) of the agents near ``agent``."""
    cx, cy = expected.agents[agent][0], expected.agents[agent][1]
    near = sorted(range(len(expected.agents)),
                  key=lambda i: (expected.agents[i][0] - cx) ** 2 + (expected.agents[i][1] - cy) ** 2)
    chosen = [i for i in near[:PICTURE_AGENTS]
              if (expected.agents[i][0] - cx) ** 2 + (expected.agents[i][1] - cy) ** 2 <= PICTURE_RADIUS ** 2]
    segments = [list(s) for s in scene.segments
                if min(abs(s[0] - cx), abs(s[2] - cx)) <= 4 * PICTURE_RADIUS
                and min(abs(s[1] - cy), abs(s[3] - cy)) <= 4 * PICTURE_RADIUS]
    return {
        "step": expected.step, "agent": agent, "center": [cx, cy], "indices": chosen,
        "radii": [scene.agents[i].params.radius for i in chosen],
        "reference": [list(expected.agents[i][:4]) for i in chosen],
        "runner": [list(got.agents[i][:4]) for i in chosen],
        "segments": segments,
    }
