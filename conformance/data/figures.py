"""Behaviour figures measured while the reference generates a golden.

Contract: ``FigureRecorder`` is a driver observer; after the run ``figures()`` returns the
numbers that the goldens store and the behaviour tests bound with each scenario's ``expect``:
deepest agent-agent overlap max (ri + rj - |pi - pj|) / ((ri + rj) / 2) over every state and
pair, the same at the last state, deepest agent-segment overlap (r - distance) / r, the step
at which every agent was last seen arriving (within goal_radius of its final waypoint), how
often the fallback (and its hard-prefix branch) ran, and for two-agent scenes whether the
agents ever passed each other along their initial axis.  These use libm freely: they are
harness figures, not port contract.
"""

from __future__ import annotations

from math import sqrt

from ..contract.driver import Driver
from ..contract.scenario import Scene
from ..solver import Simulator
from ..solver.neighbors import AgentGrid
from ..solver.obstacle import segment_distance_squared


class FigureRecorder:
    """Accumulates figures over the states of one run."""

    def __init__(self, scene: Scene):
        self.scene = scene
        n = len(scene.agents)
        self.max_overlap = 0.0
        self.max_overlap_step = 0
        self.final_overlap = 0.0
        self.max_wall_overlap = 0.0
        self.arrival_step: list[int | None] = [None] * n
        self.passed_each_other = False
        self.final_max_speed = 0.0
        self.final_gap: float | None = None
        self.fallbacks = 0
        self.hard_fallbacks = 0
        self.states = 0
        self._axis = None
        if n == 2:
            a, b = scene.agents
            self._axis = (b.position[0] - a.position[0], b.position[1] - a.position[1])

    def __call__(self, step: int, sim: Simulator, driver: Driver) -> None:
        self.states += 1
        overlap = self._agent_overlap(sim)
        if overlap > self.max_overlap:
            self.max_overlap = overlap
            self.max_overlap_step = step
        self.final_overlap = overlap
        self.max_wall_overlap = max(self.max_wall_overlap, self._wall_overlap(sim))
        for i, agent in enumerate(self.scene.agents):
            gx, gy = agent.waypoints[-1]
            dx = gx - sim.px[i]
            dy = gy - sim.py[i]
            inside = dx * dx + dy * dy <= agent.goal_radius * agent.goal_radius
            if inside and self.arrival_step[i] is None:
                self.arrival_step[i] = step
            elif not inside:
                self.arrival_step[i] = None
        if self._axis is not None:
            dx = sim.px[1] - sim.px[0]
            dy = sim.py[1] - sim.py[0]
            if dx * self._axis[0] + dy * self._axis[1] <= 0.0:
                self.passed_each_other = True
            self.final_gap = sqrt(dx * dx + dy * dy)
        self.final_max_speed = max((sqrt(sim.vx[i] ** 2 + sim.vy[i] ** 2) for i in range(len(sim))),
                                   default=0.0)
        self.fallbacks = sim.fallback_count
        self.hard_fallbacks = sim.hard_fallback_count

    def _agent_overlap(self, sim: Simulator) -> float:
        if len(sim) < 2:
            return 0.0
        radii = [p.radius for p in sim.params]
        widest = 2.0 * max(radii)
        grid = AgentGrid(sim.px, sim.py, widest)
        worst = 0.0
        for i in range(len(sim)):
            for d2, j in grid.neighbors(i, widest, len(sim)):
                if j <= i:
                    continue
                reach = radii[i] + radii[j]
                if d2 < reach * reach:
                    worst = max(worst, (reach - sqrt(d2)) / (reach / 2.0))
        return worst

    def _wall_overlap(self, sim: Simulator) -> float:
        worst = 0.0
        for i in range(len(sim)):
            r = sim.params[i].radius
            x = sim.px[i]
            y = sim.py[i]
            for ax, ay, bx, by in sim.segments:
                d2 = segment_distance_squared(ax - x, ay - y, bx - x, by - y)
                if d2 < r * r:
                    worst = max(worst, (r - sqrt(d2)) / r)
        return worst

    def figures(self) -> dict:
        """JSON-ready figures of the whole run."""
        arrivals = self.arrival_step
        everyone = all(a is not None for a in arrivals)  # vacuously true with no agents
        return {
            "states": self.states,
            "max_overlap": self.max_overlap,
            "max_overlap_step": self.max_overlap_step,
            "final_overlap": self.final_overlap,
            "max_wall_overlap": self.max_wall_overlap,
            "arrived": sum(a is not None for a in arrivals),
            "arrival_step": max(arrivals, default=0) if everyone else None,  # type: ignore[type-var]
            "final_max_speed": self.final_max_speed,
            "passed_each_other": self.passed_each_other if self._axis is not None else None,
            "final_gap": self.final_gap,
            "fallbacks": self.fallbacks,
            "hard_fallbacks": self.hard_fallbacks,
        }
