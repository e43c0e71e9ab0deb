"""Careless ports of the scene's boundary values and of the neighbor search, in Python.

Like ``careless.py``, negative controls and never goldens: each makes one mistake that no
scene caught before the schema-boundary and feature scenes (``orca/schema-*``,
``orca/feature-*``) existed, and a test shows that one of those scenes catches it.

* ``LanguageDefaultsRunner``: reads an optional scene value as ``value || default`` at
  loading, so an explicit 0 becomes the default (goal_radius 0 read as 0.1);
* ``PointsSkippedSimulator``: treats agents of radius 0 as "points" that constrain no one;
* ``StaleGridSimulator``: finds neighbors in a grid built before the last move (the cells
  of the previous step's positions, distances from the current ones), which misses an agent
  that moved more than a cell in one step.
"""

from __future__ import annotations

import dataclasses
from math import floor
from typing import Iterator

from ...contract.scenario import Scene
from ...runners.base import StateDump
from ...runners.reference import ReferenceRunner
from ...solver import Simulator
from ...solver.neighbors import AgentGrid, agent_neighbors_brute_force

FALSY_DEFAULTS = {"goal_radius": 0.1}
"""The defaults a ``x || default`` reading puts in place of an explicit 0 (docs/scenarios.md)."""


def defaulted(scene: Scene, defaults: dict[str, float]) -> Scene:
    """The scene as a port that reads ``value || default`` sees it: every 0 of a field named
    in ``defaults`` (``goal_radius`` or an AgentParams field) replaced by its default."""
    agents = []
    for agent in scene.agents:
        if "goal_radius" in defaults and agent.goal_radius == 0.0:
            agent = dataclasses.replace(agent, goal_radius=defaults["goal_radius"])
        params = {k: v for k, v in defaults.items()
                  if k != "goal_radius" and getattr(agent.params, k) == 0}
        if params:
            agent = dataclasses.replace(agent, params=dataclasses.replace(agent.params, **params))
        agents.append(agent)
    return dataclasses.replace(scene, agents=tuple(agents))


class LanguageDefaultsRunner(ReferenceRunner):
    """The reference fed the scene through ``defaulted``: right solver and driver, wrong input."""

    def __init__(self, runner_id: str = "falsy-defaults", defaults: dict[str, float] | None = None):
        super().__init__(runner_id, name="a port that reads optional values as x || default")
        self.defaults = dict(FALSY_DEFAULTS if defaults is None else defaults)

    def hashes(self, scene: Scene, steps: int | None = None) -> Iterator[str]:
        return super().hashes(defaulted(scene, self.defaults), steps)

    def dump(self, scene: Scene, step: int) -> StateDump:
        return super().dump(defaulted(scene, self.defaults), step)


class _PointsSkippedGrid(AgentGrid):
    def __init__(self, xs, ys, widest, radii):
        super().__init__(xs, ys, widest)
        self.radii = radii

    def neighbors(self, i: int, neighbor_distance: float, max_neighbors: int):
        found = super().neighbors(i, neighbor_distance, max_neighbors)
        return [(d2, j) for d2, j in found if self.radii[j] != 0.0]


class PointsSkippedSimulator(Simulator):
    """Leaves agents of radius 0 out of every other agent's neighbors, as "points"."""

    def grid(self) -> AgentGrid:
        widest = max((p.neighbor_distance for p in self.params), default=0.0)
        return _PointsSkippedGrid(self.px, self.py, widest, [p.radius for p in self.params])


class _StaleGrid(AgentGrid):
    """Cells of the positions at construction, distances from the positions now: ``xs`` and
    ``ys`` are the simulator's own lists, which the move changes in place."""

    def neighbors(self, i: int, neighbor_distance: float, max_neighbors: int):
        if max_neighbors <= 0 or neighbor_distance <= 0.0 or self.cell <= 0.0:
            return []
        xs, ys = self.xs, self.ys
        if self.brute_force:
            return agent_neighbors_brute_force(i, xs, ys, neighbor_distance, max_neighbors)
        xi, yi = xs[i], ys[i]
        limit = neighbor_distance * neighbor_distance
        cx, cy = floor(xi / self.cell), floor(yi / self.cell)
        found = []
        for gx in (cx - 1, cx, cx + 1):
            for gy in (cy - 1, cy, cy + 1):
                for _, _, j in self.cells.get((gx, gy), ()):
                    d2 = (xs[j] - xi) * (xs[j] - xi) + (ys[j] - yi) * (ys[j] - yi)
                    if d2 < limit and j != i:
                        found.append((d2, j))
        return sorted(found)[:max_neighbors]


class StaleGridSimulator(Simulator):
    """Builds the neighbor grid before the move and uses it in the next step."""

    _stale: AgentGrid | None = None

    def grid(self) -> AgentGrid:
        widest = max((p.neighbor_distance for p in self.params), default=0.0)
        return _StaleGrid(self.px, self.py, widest)

    def step(self, dt: float) -> None:
        if not self.px:
            return
        grid = self._stale if self._stale is not None else self.grid()
        velocities = self.new_velocities(dt, grid=grid)
        self._stale = self.grid()  # the positions before this step's move, used by the next step
        self.apply(velocities, dt)
