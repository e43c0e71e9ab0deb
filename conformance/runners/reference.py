"""The ``reference`` column: the pure-Python solver itself (the goldens are its output).

Available on request, not in the default matrix; also the source of the reference dumps that
a divergence diagnosis compares against.
"""

from __future__ import annotations

import platform
from typing import Iterator

from .. import __version__
from ..data import vectors
from ..contract.driver import Driver, build_simulator, run
from ..contract.scenario import Scene
from ..solver import Simulator
from ..contract.state_hash import state_hash
from .base import Runner, RunnerError, RunnerInfo, StateDump


class ReferenceRunner(Runner):
    """The reference; ``simulator`` swaps in a Simulator subclass (negative controls)."""

    def __init__(self, runner_id: str = "reference", simulator: type[Simulator] = Simulator,
                 name: str = "orca-reference (Python)", agent_step: bool = False):
        self.id = runner_id
        self.simulator = simulator
        self.name = name
        self.agent_step = agent_step and simulator is not Simulator
        """A careless port that answers agent_step from its own simulator (its only primitive)."""

    def info(self) -> RunnerInfo:
        """A swapped-in simulator (a careless port) has no primitive entry points: it provides no
        family, or agent_step alone when asked to answer it."""
        return RunnerInfo(self.id, self.name, compiler=f"CPython {platform.python_version()}",
                          versions={"orca-conformance": __version__},
                          provides=None if self.simulator is Simulator else ("agent_step",) if self.agent_step else ())

    def hashes(self, scene: Scene, steps: int | None = None) -> Iterator[str]:
        for data in run(scene, steps=steps, simulator=self.simulator):
            yield state_hash(data)

    def dump(self, scene: Scene, step: int) -> StateDump:
        sim = build_simulator(scene, self.simulator)
        driver = Driver(scene)
        for s in range(step):
            driver.set_preferred_velocities(sim, s)
            sim.step(scene.dt)
        rows = []
        for i in range(len(sim)):
            px, py = driver.preferred_velocity(sim, i, step)
            rows.append((sim.px[i], sim.py[i], sim.vx[i], sim.vy[i], px, py))
        return StateDump(step, tuple(rows))

    def vectors(self, family: str, args: list[list]) -> list[list]:
        fam = vectors.FAMILY_BY_NAME[family]
        if self.agent_step and family == "agent_step":
            return [[vectors.encode_value(c, v) for c, v in zip(fam.result, fam.reference(
                *[vectors.decode_value(c, v) for c, v in zip(fam.args, a)], simulator=self.simulator))] for a in args]
        if self.simulator is not Simulator:
            raise RunnerError("this fake port changes the step only; it has no primitive entry points")
        return [vectors.evaluate_reference(fam, a) for a in args]
