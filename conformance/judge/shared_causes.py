"""A column's red cells share the dear part of their diagnoses: each cause is searched once.

Contract: a ``SharedCauses`` lives for one column (one runner); the cell engine hands it to
``diagnosis.diagnose``, which hands it to the searches that cost seconds (``follow_rounding``'s
walk to the first different decision, ``_reading_fits_others``' look at the other agents).  A
search asks ``recall(search, signature)`` first: the signature is what the cell found before
the search (its cause's kind and key, a reading's words), never its agent or step, so that a
recalled outcome is the one the same mistake gave in the first cell that searched; a miss runs
the search and ``keep``s its outcome under the cell that ran it (``owner``, "row@step").  A cell
that used a recalled outcome is told so (``Diagnosis.shared_from``: the owner; the cell keeps
its own step, agent, field and values, and the decisive facts of its own agent_step); its note
says where the full search ran.  ``enabled=False`` (``--verbose``) searches every cell in full.
``searches`` counts the searches run (for tests: a column of many cells of one cause runs each
search once).  ``CachedReference`` is the reference runner whose dumps of a scene are kept by
step, so the dumps of k, k - 1 and the next few states of one cell cost one replay; and, for a
scene whose driver keeps no state (every agent has one waypoint), ``seed`` starts that replay
at a state the port has shown to be the reference's (its positions and velocities hash to the
golden's hash of that state: SHA-256, so they are the reference's bit for bit).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable

from ..contract.driver import Driver, build_simulator
from ..contract.scenario import Scene
from ..runners.base import StateDump
from ..runners.reference import ReferenceRunner
from ..solver import Simulator

MISSING = object()
"""``recall``'s answer when nothing is kept under a signature (None is a kept outcome)."""


@dataclass
class SharedCauses:
    """The outcomes of a column's dear searches, by search and signature (the module's contract)."""

    enabled: bool = True
    owner: str = ""
    """The cell being diagnosed, as "row@step" (the cell engine sets it)."""
    searches: int = 0
    kept: dict[tuple[str, Hashable], tuple[str, object]] = field(default_factory=dict)
    arithmetic: str = ""
    """What the column's vectors row already says of the port's arithmetic (its rounding-only share,
    or a decisive toolchain fingerprint: ``VectorFailure.arithmetic``), set by the cell engine.
    Its words replace the headline of any cell whose own finding is rounding
    (``cell_engine.attach_vector_failure``), so the searches that could only name rounding (a
    single fused site, the walk to the first different decision) are skipped: ``settled``."""

    def settled(self) -> bool:
        """Whether a cell's rounding searches are skipped because the vectors row named the
        arithmetic (never with ``enabled=False``: --verbose searches every cell in full)."""
        return self.enabled and bool(self.arithmetic)

    def settled_note(self, search: str) -> str:
        """The note of a cell whose ``search`` was skipped (``settled``)."""
        return (f"{search} was not searched: the vectors row already names the port's arithmetic "
                f"({self.arithmetic}), the decisive fact (--verbose searches it)")

    def recall(self, search: str, signature: Hashable) -> tuple[str, object]:
        """(the owner, the outcome) kept for ``signature``, or ("", MISSING)."""
        if not self.enabled:
            return "", MISSING
        return self.kept.get((search, signature), ("", MISSING))

    def keep(self, search: str, signature: Hashable, outcome: object) -> None:
        """Count a search run by the current cell and keep its outcome."""
        self.searches += 1
        if self.enabled:
            self.kept.setdefault((search, signature), (self.owner, outcome))


def referred(owner: str) -> str:
    """The note of a cell that used an outcome searched in full in another cell."""
    return (f"the dear search of this cause ran in full once for the column, at {owner}; this cell uses its "
            "outcome (--verbose searches every cell in full)")


def stateless_driver(scene: Scene) -> bool:
    """Whether the driver's preferred velocity of a state depends on that state alone (and the
    step): every agent has one waypoint, so no waypoint index is carried from step to step."""
    return all(len(agent.waypoints) <= 1 for agent in scene.agents)


class CachedReference(ReferenceRunner):
    """The reference whose dumps of the last few scenes are kept by step: asking step k replays
    the scene once from the last kept state (or from the start), keeping every state on the way,
    each exactly what ``ReferenceRunner.dump`` gives for it (the same calls of the driver)."""

    SCENES = 2

    def __init__(self) -> None:
        super().__init__()
        self._scenes: list[tuple[Scene, dict[int, StateDump], list, dict[int, tuple[int, ...]]]] = []

    def _entry(self, scene: Scene) -> tuple[Scene, dict[int, StateDump], list, dict[int, tuple[int, ...]]]:
        entry = next((e for e in self._scenes if e[0] is scene), None)
        if entry is None:
            entry = (scene, {}, [build_simulator(scene, Simulator), Driver(scene), 0], {})
            self._scenes = ([entry] + self._scenes)[:self.SCENES]
        return entry

    def seed(self, scene: Scene, step: int, rows) -> bool:
        """Start the replay of ``scene`` at ``step`` from ``rows`` (x, y, vx, vy first in each row),
        which the caller has shown to be the reference's state of that step; only where the driver
        keeps no state (``stateless_driver``).  Whether it was taken."""
        if not stateless_driver(scene) or len(rows) != len(scene.agents):
            return False
        sim = build_simulator(scene, Simulator)
        for i, row in enumerate(rows):
            sim.px[i], sim.py[i], sim.vx[i], sim.vy[i] = row[0], row[1], row[2], row[3]
        _, states, live, _ = self._entry(scene)
        if live[2] <= step:
            live[:] = [sim, Driver(scene), step]
        return True

    def dump(self, scene: Scene, step: int) -> StateDump:
        _, states, live, waypoints = self._entry(scene)
        if step in states:
            return states[step]
        sim, driver, at = live
        if at > step:  # the live replay is past it: start again
            sim, driver, at = build_simulator(scene, Simulator), Driver(scene), 0
        while at <= step:
            waypoints[at] = tuple(driver.waypoint)
            driver.set_preferred_velocities(sim, at)
            states[at] = StateDump(at, tuple((sim.px[i], sim.py[i], sim.vx[i], sim.vy[i], sim.pref_x[i],
                                              sim.pref_y[i]) for i in range(len(sim))))
            sim.step(scene.dt)
            at += 1
        live[:] = [sim, driver, at]
        return states[step]

    def waypoint(self, scene: Scene, step: int, agent: int) -> int:
        """The driver's waypoint index of ``agent`` as it computes the preferred velocity of state
        ``step`` (what ``contract.driver.run``'s observer sees at that state), from the kept replay:
        a state reached by ``dump`` records it; one seeded or kept without it is replayed again."""
        _, states, live, waypoints = self._entry(scene)
        if step not in waypoints:
            states.pop(step, None)  # dump it again from the start
            if live[2] > step:
                live[:] = [build_simulator(scene, Simulator), Driver(scene), 0]
            self.dump(scene, step)
        return waypoints[step][agent]
