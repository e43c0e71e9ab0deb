"""The clause a driver bug breaks: which rule of the driver gives the port's preferred velocity.

Contract: ``cite_driver`` evaluates the reference's driver rule for one agent on the traced
shadow (judge/citation.py): a decision of it (the waypoint advance, the arrive test, the
perturbation's magnitude test) that, answered the other way, reproduces the port's preferred
velocity bit for bit names its clause; else the branch the reference took (arrive or cruise)
is cited.  ``steering`` says the decisive fact for a headline: the waypoint the reference steers
to, its branch, and the waypoint the port's velocity points at or its other speed.
"""

from __future__ import annotations

import math

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
    family = traced()[0].FAMILY_BY_NAME["preferred_velocity"]
    args = _args(scene, state, agent, step, waypoint)
    _, outcome = near_sites(lambda: family.reference(*args))
    flipped = from_flip(flip_reproduces(lambda: family.reference(*args), lambda r: same_bits(r[:2], got)))
    if flipped is not None:
        return flipped
    return Citation("driver.arrive" if outcome.get(ARRIVE) else "driver.cruise", ["driver.perturbation"])


def _args(scene: Scene, state: StateDump, agent: int, step: int, waypoint: int) -> tuple:
    """The preferred_velocity family's arguments for ``agent`` in ``state``."""
    spec = scene.agents[agent]
    return (state.agents[agent][0], state.agents[agent][1], list(spec.waypoints), waypoint, spec.goal_radius,
            spec.params.max_speed, scene.dt, scene.seed, scene.magnitude, step, agent, len(scene.agents))


ALONG = 1e-9
"""How far (relative) the port's preferred velocity may be from pointing at a waypoint and still
point at it: rounding, not another direction."""


def steering(scene: Scene, state: StateDump, agent: int, step: int, got: tuple[float, float], waypoint: int) -> str:
    """The decisive fact of a preferred velocity that differs, for a headline: the waypoint the
    reference steers to and its branch (arrive: the whole distance in one step; cruise: at full
    speed), then, when the port's velocity points at another waypoint or has another speed, that:
    "the reference steers to waypoint 1 at full speed; the port's points at waypoint 0"."""
    family = traced()[0].FAMILY_BY_NAME["preferred_velocity"]
    args = _args(scene, state, agent, step, waypoint)
    px, py, k = family.reference(*args)
    _, outcome = near_sites(lambda: family.reference(*args))  # the branch the reference took
    x, y = args[0], args[1]
    spec = scene.agents[agent]
    arrive = bool(outcome.get(ARRIVE))
    branch = ", arriving in one step" if arrive else " at full speed"
    perturbed = ", perturbed" if scene.magnitude > 0.0 else ""
    said = [f"the reference steers to waypoint {k}{branch}{perturbed}"]
    at = [j for j, (wx, wy) in enumerate(spec.waypoints) if _points_at(got, wx - x, wy - y)]
    if at and k not in at:
        said.append(f"the port's points at waypoint {at[0]}")
    speed, want = math.hypot(*got), math.hypot(px, py)
    if abs(speed - want) > ALONG * max(1.0, want):
        said.append(f"the port's speed is {speed:.6g}, the reference's {want:.6g}")
    return "; ".join(said)


def _points_at(v: tuple[float, float], dx: float, dy: float) -> bool:
    """Whether ``v`` points along (dx, dy) up to rounding (a zero velocity points nowhere)."""
    size = math.hypot(*v) * math.hypot(dx, dy)
    return size > 0.0 and abs(v[0] * dy - v[1] * dx) <= ALONG * size and v[0] * dx + v[1] * dy > 0.0
