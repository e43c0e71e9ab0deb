"""The simulator: per-agent state, constraint assembly and the synchronous step.

Contract of ``Simulator.step(dt)``: (1) every agent's new velocity is computed from the
start-of-step state (positions, velocities, preferred velocities), in any order; (2) every
agent sets velocity = new velocity and then position = position + velocity * dt, component
by component.  Zero agents is a no-op.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from .constraint import agent_constraint, segment_constraint
from .fallback import relax
from .halfplane import HalfPlane
from .linear_program import solve_closest
from .neighbors import AgentGrid, Segment, obstacle_neighbors


@dataclass(frozen=True)
class AgentParams:
    """Per-agent public parameters of the text."""

    radius: float
    max_speed: float
    neighbor_distance: float
    max_neighbors: int
    time_horizon: float
    time_horizon_obst: float


class Simulator:
    """Agents as parallel lists of floats (index order is agent order) plus static segments."""

    def __init__(self, segments: Sequence[Segment] = ()):
        self.segments: list[Segment] = list(segments)
        self.px: list[float] = []
        self.py: list[float] = []
        self.vx: list[float] = []
        self.vy: list[float] = []
        self.pref_x: list[float] = []
        self.pref_y: list[float] = []
        self.params: list[AgentParams] = []
        self.fallback_count = 0
        """How many new velocities came from the fallback (a statistic; affects no bits)."""
        self.hard_fallback_count = 0
        """How many of those relaxed the hard prefix alone."""

    def add_agent(self, position: tuple[float, float], params: AgentParams,
                  velocity: tuple[float, float] = (0.0, 0.0)) -> int:
        """Append an agent; returns its index."""
        self.px.append(position[0])
        self.py.append(position[1])
        self.vx.append(velocity[0])
        self.vy.append(velocity[1])
        self.pref_x.append(0.0)
        self.pref_y.append(0.0)
        self.params.append(params)
        return len(self.px) - 1

    def __len__(self) -> int:
        return len(self.px)

    def grid(self) -> AgentGrid:
        """Neighbor grid over the current positions."""
        widest = max((p.neighbor_distance for p in self.params), default=0.0)
        return AgentGrid(self.px, self.py, widest)

    def constraints(self, i: int, dt: float, grid: AgentGrid | None = None) -> tuple[list[HalfPlane], int]:
        """Constraint list of agent i (obstacles first, then agents) and the hard count."""
        prm = self.params[i]
        x = self.px[i]
        y = self.py[i]
        segments = self.segments
        lines: list[HalfPlane] = []
        if segments:
            reach = prm.time_horizon_obst * prm.max_speed + prm.radius
            for _, k in obstacle_neighbors(x, y, reach, segments):
                ax, ay, bx, by = segments[k]
                lines.append(segment_constraint(ax - x, ay - y, bx - x, by - y,
                                                prm.radius, prm.time_horizon_obst, dt))
        hard_count = len(lines)
        if grid is None:
            grid = self.grid()
        neighbors = grid.neighbors(i, prm.neighbor_distance, prm.max_neighbors)
        if neighbors:
            px = self.px
            py = self.py
            vx = self.vx
            vy = self.vy
            params = self.params
            vax = vx[i]
            vay = vy[i]
            radius = prm.radius
            tau = prm.time_horizon
            for _, j in neighbors:
                lines.append(agent_constraint(px[j] - x, py[j] - y, radius + params[j].radius,
                                              tau, dt, vax, vay, vx[j], vy[j]))
        return lines, hard_count

    def new_velocity(self, i: int, dt: float, grid: AgentGrid | None = None) -> tuple[float, float]:
        """Velocity of agent i for this step, from the start-of-step state."""
        lines, hard_count = self.constraints(i, dt, grid)
        speed = self.params[i].max_speed
        vx, vy, failed = solve_closest(lines, speed, self.pref_x[i], self.pref_y[i])
        if failed >= 0:
            self.fallback_count += 1
            if failed < hard_count:
                self.hard_fallback_count += 1
            vx, vy = relax(lines, hard_count, speed, failed)
        return vx, vy

    def new_velocities(self, dt: float, indices: Iterable[int] | None = None,
                       grid: AgentGrid | None = None) -> dict[int, tuple[float, float]]:
        """Phase 1 for the given agents (all by default); any order or split gives the same bits."""
        if grid is None:
            grid = self.grid()
        if indices is None:
            indices = range(len(self.px))
        return {i: self.new_velocity(i, dt, grid) for i in indices}

    def apply(self, velocities: dict[int, tuple[float, float]], dt: float) -> None:
        """Phase 2: velocity = new velocity, then position = position + velocity * dt."""
        px = self.px
        py = self.py
        for i, (nvx, nvy) in velocities.items():
            self.vx[i] = nvx
            self.vy[i] = nvy
            px[i] = px[i] + nvx * dt
            py[i] = py[i] + nvy * dt

    def step(self, dt: float) -> None:
        """One synchronous step of every agent."""
        if not self.px:
            return
        self.apply(self.new_velocities(dt), dt)
