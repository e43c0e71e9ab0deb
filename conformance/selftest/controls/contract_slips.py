"""Contract slips: ports whose solver is the reference's but whose protocol is not, as controls.

They are the slips a port author makes around the solver (docs/protocol.md), which no scenario
cell of a fresh process sees and which send a diagnosis the wrong way: state kept from one run
into the next, a dump one step late, a run one state short.  Each is the
reference column with that one slip, in the harness's process; the protocol row
(judge/protocol_row.py) must catch it and its headline name the slip, and a scenario cell that
diverges because of it must say the protocol row's finding first.
"""

from __future__ import annotations

import dataclasses
from typing import Iterator

from ...contract.driver import run
from ...contract.scenario import Scene
from ...contract.state_hash import state_hash
from ...runners.base import StateDump
from ...runners.reference import ReferenceRunner


class LeakingRunner(ReferenceRunner):
    """Starts each agent of a run with the velocity the same agent index had at the end of the
    previous run of this runner (a process-wide array that is never reset)."""

    def __init__(self, runner_id: str):
        super().__init__(runner_id, name="contract slip: state between runs")
        self.last: list[tuple[float, float]] = []

    def _leaked(self, scene: Scene) -> Scene:
        agents = [dataclasses.replace(a, velocity=self.last[i]) if i < len(self.last) else a
                  for i, a in enumerate(scene.agents)]
        return dataclasses.replace(scene, agents=tuple(agents))

    def hashes(self, scene: Scene, steps: int | None = None) -> Iterator[str]:
        seen: list[tuple[float, float]] = []

        def keep(step, sim, driver) -> None:
            seen[:] = list(zip(sim.vx, sim.vy))
        for data in run(self._leaked(scene), steps=steps, observer=keep):
            yield state_hash(data)
        if seen:
            self.last = seen

    def dump(self, scene: Scene, step: int) -> StateDump:
        return super().dump(self._leaked(scene), step)


class DumpLateRunner(ReferenceRunner):
    """Its dump of step k holds the state after k + 1 steps (it steps, then dumps)."""

    def __init__(self, runner_id: str):
        super().__init__(runner_id, name="contract slip: a dump one step late")

    def dump(self, scene: Scene, step: int) -> StateDump:
        return dataclasses.replace(super().dump(scene, min(step + 1, scene.steps)), step=step)


class ShortRunRunner(ReferenceRunner):
    """Stops one state short: a run of n steps gives states 0..n-1 (a loop that tests ``step <
    steps`` where the text has ``<=``)."""

    def __init__(self, runner_id: str):
        super().__init__(runner_id, name="contract slip: a short run")

    def hashes(self, scene: Scene, steps: int | None = None) -> Iterator[str]:
        total = scene.steps if steps is None else steps
        for step, digest in enumerate(super().hashes(scene, steps)):
            if step == total:
                return
            yield digest
