"""Careless ports in Python: Simulator subclasses that each make one mistake real ports make.

They are negative controls, never used for goldens: single-precision state, constraints in a
different order (agents before obstacles; neighbors by index), and the simplified
time-to-collision projection scheme of orca-textbook.txt (which is a plausible-looking ORCA
but not the algorithm of orca-spec.txt).
"""

from __future__ import annotations

from math import sqrt

from ...contract.float_bits import to_float32
from ...solver import Simulator
from ...solver.halfplane import HalfPlane
from ...solver.neighbors import AgentGrid


class Float32StateSimulator(Simulator):
    """Keeps positions and velocities in single precision (rounded after every step)."""

    def step(self, dt: float) -> None:
        super().step(dt)
        for values in (self.px, self.py, self.vx, self.vy):
            values[:] = [to_float32(v) for v in values]


class _IndexOrderGrid(AgentGrid):
    def neighbors(self, i: int, neighbor_distance: float, max_neighbors: int):
        # the nearest maxNeighbors, but listed by index instead of by distance
        return sorted(super().neighbors(i, neighbor_distance, max_neighbors), key=lambda n: n[1])


class NeighborsByIndexSimulator(Simulator):
    """Lists agent constraints by neighbor index instead of (squared distance, index)."""

    def grid(self) -> AgentGrid:
        widest = max((p.neighbor_distance for p in self.params), default=0.0)
        return _IndexOrderGrid(self.px, self.py, widest)


class AgentsFirstSimulator(Simulator):
    """Puts the agent constraints before the obstacle constraints (and keeps hardCount)."""

    def constraints(self, i: int, dt: float, grid: AgentGrid | None = None) -> tuple[list[HalfPlane], int]:
        lines, hard_count = super().constraints(i, dt, grid)
        return lines[hard_count:] + lines[:hard_count], hard_count


class TextbookSimulator(Simulator):
    """The textbook's time-to-collision projection (agents only, every other agent, no LP).

    For each other agent j it finds the time to collision of the current relative motion
    within the agent horizon; the normal of the contact point, u = (R n - p_coll) / max(ttc, dt)
    and the half-plane through v_i + u/2; then it projects the preferred velocity onto each
    violated half-plane in turn, clipping to the speed limit after each projection.
    """

    def new_velocity(self, i: int, dt: float, grid: AgentGrid | None = None) -> tuple[float, float]:
        prm = self.params[i]
        cons = []
        for j in range(len(self.px)):
            if j == i:
                continue
            pijx = self.px[j] - self.px[i]
            pijy = self.py[j] - self.py[i]
            vijx = self.vx[i] - self.vx[j]
            vijy = self.vy[i] - self.vy[j]
            big_r = prm.radius + self.params[j].radius
            ttc = _time_to_collision(pijx, pijy, vijx, vijy, big_r, prm.time_horizon)
            if ttc is None:
                continue
            cx = pijx + vijx * ttc
            cy = pijy + vijy * ttc
            n = sqrt(cx * cx + cy * cy)
            nx, ny = (cx / n, cy / n) if n != 0.0 else (cx, cy)
            scale = max(ttc, dt)
            ux = (big_r * nx - cx) / scale
            uy = (big_r * ny - cy) / scale
            cons.append((nx, ny, self.vx[i] + 0.5 * ux, self.vy[i] + 0.5 * uy))
        vx, vy = _clip(self.pref_x[i], self.pref_y[i], prm.max_speed)
        for nx, ny, px, py in cons:
            if (vx - px) * nx + (vy - py) * ny < 0.0:
                k = (px - vx) * nx + (py - vy) * ny
                vx, vy = _clip(vx + k * nx, vy + k * ny, prm.max_speed)
        return vx, vy


def _time_to_collision(px: float, py: float, vx: float, vy: float, big_r: float, horizon: float) -> float | None:
    a = vx * vx + vy * vy
    c = px * px + py * py - big_r * big_r
    if c <= 0.0:
        return 0.0
    if a == 0.0:
        return None
    b = 2.0 * (px * vx + py * vy)
    disc = b * b - 4.0 * a * c
    if disc < 0.0:
        return None
    t = (-b - sqrt(disc)) / (2.0 * a)
    if t < 0.0 or t > horizon:
        return None
    return t


def _clip(x: float, y: float, limit: float) -> tuple[float, float]:
    n = sqrt(x * x + y * y)
    if n > limit:
        return x * (limit / n), y * (limit / n)
    return x, y
