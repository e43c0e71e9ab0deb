"""The clause a driver bug breaks: which rule of the driver gives the port's preferred velocity.

Contract: ``cite_driver`` evaluates the reference's driver rule for one agent on the traced
shadow (judge/citation.py): a decision of it (the waypoint advance, the arrive test, the
perturbation's magnitude test) that, answered the other way, reproduces the port's preferred
velocity bit for bit names its clause; else the branch the reference took (arrive or cruise)
is cited.
"""

from __future__ import annotations

from ..contract.clauses import Citation
from ..contract.scenario import Scene
from ..data.shadow import traced
from ..runners.base import StateDump
from .citation import from_flip, same_bits, flip_reproduces, near_sites

ARRIVE = "contract.driver.Driver.preferred_velocity: dist <= speed * dt"


def cite_driver(scene: Scene, state: StateDump, agent: int, step: int, got: tuple[float, float],
                waypoint: int) -> Citation:
    """The port's preferred velocity ``got`` of ``agent`` from the reference's state of ``step``,
    whose waypoint index before that step was ``waypoint`` in the reference."""
    spec = scene.agents[agent]
    family = traced()[0].FAMILY_BY_NAME["preferred_velocity"]
    args = (state.agents[agent][0], state.agents[agent][1], list(spec.waypoints), waypoint, spec.goal_radius,
            spec.params.max_speed, scene.dt, scene.seed, scene.magnitude, step, agent, len(scene.agents))
    _, outcome = near_sites(lambda: family.reference(*args))
    flipped = from_flip(flip_reproduces(lambda: family.reference(*args), lambda r: same_bits(r[:2], got)))
    if flipped is not None:
        return flipped
    return Citation("driver.arrive" if outcome.get(ARRIVE) else "driver.cruise", ["driver.perturbation"])
