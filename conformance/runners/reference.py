"""The ``reference`` column: the pure-Python solver itself (the goldens are its output).

Available on request, not in the default matrix; also the source of the reference dumps that
a divergence diagnosis compares against.
"""

from __future__ import annotations

import platform
from typing import Iterator

from .. import __version__, vectors
from ..driver import Driver, build_simulator, run
from ..scenario import Scene
from ..state_hash import state_hash
from .base import Runner, RunnerInfo, StateDump


class ReferenceRunner(Runner):
    id = "reference"

    def info(self) -> RunnerInfo:
        return RunnerInfo(self.id, "orca-reference (Python)", compiler=f"CPython {platform.python_version()}",
                          versions={"orca-conformance": __version__})

    def hashes(self, scene: Scene) -> Iterator[str]:
        for data in run(scene):
            yield state_hash(data)

    def dump(self, scene: Scene, step: int) -> StateDump:
        sim = build_simulator(scene)
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
        return [vectors.evaluate_reference(fam, a) for a in args]
