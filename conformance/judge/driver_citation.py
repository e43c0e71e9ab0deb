"""The clause a driver bug breaks: which rule of the driver gives the port's preferred velocity.

Contract: ``cite_driver`` tries the driver's alternative rules (the other branch of the arrive
test, the neighbouring waypoint, the perturbation applied at magnitude 0) on the reference's
state; one that reproduces the port's preferred velocity bit for bit names its clause, else the
branch the reference took is cited.
"""

from __future__ import annotations

from ..contract.clauses import Citation
from ..contract.float_bits import bits
from ..contract.scenario import Scene
from ..runners.base import StateDump


def cite_driver(scene: Scene, state: StateDump, agent: int, step: int, got: tuple[float, float],
                waypoint: int) -> Citation:
    """The port's preferred velocity of ``agent`` from the reference's state of ``step``
    (``waypoint`` the reference's index before the step): the driver rule whose alternative
    reproduces it, else the branch the reference took."""
    from ..contract.driver import uniform
    from math import sqrt
    spec = scene.agents[agent]
    x, y = state.agents[agent][0], state.agents[agent][1]
    speed, dt, m = spec.params.max_speed, scene.dt, scene.magnitude
    last = len(spec.waypoints) - 1
    reach2 = spec.goal_radius * spec.goal_radius

    def offset(k: int) -> tuple[float, float, float]:
        gx, gy = spec.waypoints[k]
        dx, dy = gx - x, gy - y
        return dx, dy, dx * dx + dy * dy

    k = waypoint
    dx, dy, dist2 = offset(k)
    while k < last and dist2 <= reach2:
        k += 1
        dx, dy, dist2 = offset(k)
    dist = sqrt(dist2)
    n = 2 * (step * len(scene.agents) + agent)

    def finish(px: float, py: float, always: bool = False) -> tuple[float, float]:
        if m > 0.0 or always:
            return px + m * uniform(scene.seed, n), py + m * uniform(scene.seed, n + 1)
        return px, py

    arrive = (dx / dt, dy / dt)
    cruise = (dx / dist * speed, dy / dist * speed) if dist > 0.0 else arrive
    took_arrive = dist <= speed * dt
    want = [bits(v) for v in got]
    alternatives = [("driver.arrive", finish(*(cruise if took_arrive else arrive)))]
    for other in {max(waypoint, k - 1), min(last, k + 1)} - {k}:
        ox, oy, o2 = offset(other)
        od = sqrt(o2)
        alternatives.append(("driver.waypoints", finish(*((ox / dt, oy / dt) if od <= speed * dt
                                                             else (ox / od * speed, oy / od * speed)))))
    alternatives.append(("driver.perturbation", finish(*(arrive if took_arrive else cruise), always=True)))
    for clause, value in alternatives:
        if [bits(v) for v in value] == want:
            return Citation(clause)
    return Citation("driver.arrive" if took_arrive else "driver.cruise", ["driver.perturbation"])
