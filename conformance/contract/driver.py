"""The driver: preferred velocities, the deterministic perturbation and the step loop.

It is part of the port contract, kept apart from the solver so that a driver bug and a solver
bug are told apart (a diverged run whose preferred velocities already differ is a driver bug).
Only + - * / sqrt on binary64 and 64-bit unsigned integer operations are used.

Preferred velocity of agent i at step s (from the state of step s):
  1. k = current waypoint index (starts at 0); g = waypoints[k]; d = g - p; dist2 = d.d.
     While k is not the last index and dist2 <= goal_radius*goal_radius: k = k + 1 and
     recompute g, d, dist2.
  2. dist = sqrt(dist2); if dist <= max_speed * dt: pref = (d.x / dt, d.y / dt)
     (arrive exactly, never overshoot), else pref = ((d.x / dist) * max_speed, (d.y / dist) * max_speed).
  3. With magnitude m > 0: pref.x = pref.x + m * U(n), pref.y = pref.y + m * U(n + 1), where
     n = 2 * (s * agentCount + i) and U(n) is value n of the SplitMix64 stream of the scene's
     seed, mapped to [-1, 1) as ((z >> 11) - 2^52) * 2^-52.
"""

from __future__ import annotations

from math import sqrt
from typing import Callable, Iterator

from .scenario import Scene
from ..solver import Simulator
from .state_hash import canonical_bytes

MASK64 = (1 << 64) - 1
GOLDEN_GAMMA = 0x9E3779B97F4A7C15
TWO_POW_52 = 1 << 52
TWO_POW_MINUS_52 = 2.0 ** -52


def splitmix64(seed: int, n: int) -> int:
    """Output number n (from 0) of SplitMix64 seeded with ``seed``: mix(seed + (n + 1) * gamma)."""
    z = (seed + (n + 1) * GOLDEN_GAMMA) & MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def uniform(seed: int, n: int) -> float:
    """Value n of the stream as an exact double in [-1, 1): ((z >> 11) - 2^52) * 2^-52."""
    return float((splitmix64(seed, n) >> 11) - TWO_POW_52) * TWO_POW_MINUS_52


def build_simulator(scene: Scene, simulator: type[Simulator] = Simulator) -> Simulator:
    """A simulator holding the scene's segments and agents in index order."""
    sim = simulator(scene.segments)
    for agent in scene.agents:
        sim.add_agent(agent.position, agent.params, agent.velocity)
    return sim


class Driver:
    """Waypoint progress of every agent and the preferred-velocity rule above."""

    def __init__(self, scene: Scene):
        self.scene = scene
        self.waypoint = [0] * len(scene.agents)

    def preferred_velocity(self, sim: Simulator, i: int, step: int) -> tuple[float, float]:
        agent = self.scene.agents[i]
        dt = self.scene.dt
        waypoints = agent.waypoints
        last = len(waypoints) - 1
        x = sim.px[i]
        y = sim.py[i]
        reach2 = agent.goal_radius * agent.goal_radius
        k = self.waypoint[i]
        gx, gy = waypoints[k]
        dx = gx - x
        dy = gy - y
        dist2 = dx * dx + dy * dy
        while k < last and dist2 <= reach2:
            k += 1
            gx, gy = waypoints[k]
            dx = gx - x
            dy = gy - y
            dist2 = dx * dx + dy * dy
        self.waypoint[i] = k
        speed = agent.params.max_speed
        dist = sqrt(dist2)
        if dist <= speed * dt:
            px = dx / dt
            py = dy / dt
        else:
            px = dx / dist * speed
            py = dy / dist * speed
        m = self.scene.magnitude
        if m > 0.0:
            n = 2 * (step * len(self.scene.agents) + i)
            px = px + m * uniform(self.scene.seed, n)
            py = py + m * uniform(self.scene.seed, n + 1)
        return px, py

    def set_preferred_velocities(self, sim: Simulator, step: int) -> None:
        for i in range(len(sim)):
            sim.pref_x[i], sim.pref_y[i] = self.preferred_velocity(sim, i, step)


Observer = Callable[[int, Simulator, Driver], None]


def run(scene: Scene, steps: int | None = None, observer: Observer | None = None,
        simulator: type[Simulator] = Simulator) -> Iterator[bytes]:
    """Canonical state bytes of steps 0..steps (default scene.steps), computed lazily.

    Step s -> s+1: preferred velocities from state s, then ``Simulator.step(dt)``.  The
    observer, if any, sees every state after its bytes are taken (before the next step).
    ``simulator`` swaps in a Simulator subclass (the negative controls' careless ports).
    """
    total = scene.steps if steps is None else steps
    sim = build_simulator(scene, simulator)
    driver = Driver(scene)
    for step in range(total + 1):
        data = canonical_bytes(sim.px, sim.py, sim.vx, sim.vy)
        yield data
        if observer is not None:
            observer(step, sim, driver)
        if step == total:
            break
        driver.set_preferred_velocities(sim, step)
        sim.step(scene.dt)
