"""Neighbor selection: which obstacles and agents constrain agent i, and in which order.

Contract (independent of the data structure):
* obstacles with SegmentDistanceSquared <= (obstacleHorizon*maxSpeed + radius)^2, ordered by
  (squared distance, obstacle index); distances in coordinates relative to the agent (note 1);
* agents j != i with (pj - pi).(pj - pi) < neighborDistance^2, the maxNeighbors smallest in the
  order (squared distance, index).
``AgentGrid`` finds the agent candidates in a 3x3 block of uniform cells and returns exactly
what ``agent_neighbors_brute_force`` returns.
"""

from __future__ import annotations

from heapq import nsmallest
from math import floor
from typing import Sequence

from .obstacle import segment_distance_squared

Segment = tuple[float, float, float, float]
"""(a.x, a.y, b.x, b.y): a two-sided static segment in world coordinates."""

EXACT_CELL_LIMIT = 4503599627370496.0
"""2^52: beyond this |coordinate| / cell, floor() no longer gives exact cell indices."""

CELL_MARGIN = 1.0 + 1.0 / 1024.0
"""Cells are this much wider than the largest neighbor distance, so that neither the rounding
of x / cell nor that of the squared distance can put a neighbor outside the 3x3 block."""


def obstacle_neighbors(x: float, y: float, reach: float,
                       segments: Sequence[Segment]) -> list[tuple[float, int]]:
    """(squared distance, index) of the segments within reach of (x, y), in constraint order."""
    reach2 = reach * reach
    found = []
    for k, (ax, ay, bx, by) in enumerate(segments):
        d2 = segment_distance_squared(ax - x, ay - y, bx - x, by - y)
        if d2 <= reach2:
            found.append((d2, k))
    found.sort()
    return found


def agent_neighbors_brute_force(i: int, xs: Sequence[float], ys: Sequence[float],
                                neighbor_distance: float, max_neighbors: int) -> list[tuple[float, int]]:
    """(squared distance, index) of the neighbors of agent i by checking every agent."""
    xi = xs[i]
    yi = ys[i]
    limit = neighbor_distance * neighbor_distance
    found = []
    for j in range(len(xs)):
        if j == i:
            continue
        dx = xs[j] - xi
        dy = ys[j] - yi
        d2 = dx * dx + dy * dy
        if d2 < limit:
            found.append((d2, j))
    return _smallest(found, max_neighbors)


def _smallest(found: list[tuple[float, int]], count: int) -> list[tuple[float, int]]:
    if count <= 0:
        return []
    if len(found) > 4 * count:
        return nsmallest(count, found)
    found.sort()
    return found[:count]


class AgentGrid:
    """Uniform grid over agent positions; cells at least max(neighborDistance) wide."""

    def __init__(self, xs: Sequence[float], ys: Sequence[float], max_neighbor_distance: float):
        self.cell = max_neighbor_distance * CELL_MARGIN
        self.cells: dict[tuple[int, int], list[tuple[float, float, int]]] = {}
        """Cell -> (x, y, index) of the agents in it, in index order."""
        self.xs = xs
        self.ys = ys
        widest = max((abs(v) for v in (*xs, *ys)), default=0.0)
        # Cells so small that x / cell leaves the exact-integer range (or overflows): the
        # grid would be useless and floor() could fail, so answer by brute force instead.
        self.brute_force = self.cell > 0.0 and not widest / self.cell < EXACT_CELL_LIMIT
        if self.cell > 0.0 and not self.brute_force:
            cell = self.cell
            cells = self.cells
            for j in range(len(xs)):
                x = xs[j]
                y = ys[j]
                key = (floor(x / cell), floor(y / cell))
                bucket = cells.get(key)
                if bucket is None:
                    cells[key] = [(x, y, j)]
                else:
                    bucket.append((x, y, j))

    def neighbors(self, i: int, neighbor_distance: float,
                  max_neighbors: int) -> list[tuple[float, int]]:
        """Same result as ``agent_neighbors_brute_force`` for agent i."""
        if max_neighbors <= 0 or neighbor_distance <= 0.0 or self.cell <= 0.0:
            return []
        if self.brute_force:
            return agent_neighbors_brute_force(i, self.xs, self.ys, neighbor_distance, max_neighbors)
        xi = self.xs[i]
        yi = self.ys[i]
        limit = neighbor_distance * neighbor_distance
        cx = floor(xi / self.cell)
        cy = floor(yi / self.cell)
        cells = self.cells
        found: list[tuple[float, int]] = []
        for gx in (cx - 1, cx, cx + 1):
            for gy in (cy - 1, cy, cy + 1):
                bucket = cells.get((gx, gy))
                if bucket is not None:
                    # d2 = dx*dx + dy*dy with dx = xj - xi, dy = yj - yi, exactly as brute force
                    found += [(d2, j) for x, y, j in bucket
                              if (d2 := (x - xi) * (x - xi) + (y - yi) * (y - yi)) < limit and j != i]
        return _smallest(found, max_neighbors)
