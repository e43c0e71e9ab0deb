"""``orca-conformance render``: the trajectories of one scenario on one runner, as a picture.

Contract: ``trajectory(runner, scene, every, steps)`` samples every agent's position each
``every`` steps (the reference in one pass; other runners through their state dumps), and
``render`` writes it as SVG, PNG or an animated GIF (see drawing.py).  For any runner but the
plain reference, the reference's trajectories at the same steps are drawn underneath in grey,
with a legend, so that where the port leaves the reference shows.
"""

from __future__ import annotations

from pathlib import Path

from .drawing import Point, write_picture
from ..contract.driver import run
from ..runners.base import Runner
from ..runners.reference import ReferenceRunner
from ..contract.scenario import Scenario, Scene
from ..solver import Simulator


def trajectory(runner: Runner, scene: Scene, every: int, steps: int) -> list[list[Point]]:
    """Positions of all agents at steps 0, every, 2*every, ... up to ``steps``."""
    wanted = list(range(0, steps + 1, every))
    if wanted[-1] != steps:
        wanted.append(steps)
    if isinstance(runner, ReferenceRunner):
        frames: list[list[Point]] = []

        def observe(step, sim, _driver):
            if step in wanted_set:
                frames.append(list(zip(sim.px, sim.py)))

        wanted_set = set(wanted)
        for _ in run(scene, steps=steps, observer=observe, simulator=runner.simulator):
            pass
        return frames
    return [[(row[0], row[1]) for row in runner.dump(scene, k).agents] for k in wanted]


def render(scenario: Scenario, runner: Runner, out: Path, every: int | None = None,
           steps: int | None = None) -> int:
    """Write the picture; returns the number of frames drawn."""
    scene = scenario.scene
    steps = scene.steps if steps is None else min(steps, scene.steps)
    every = every or max(1, steps // (60 if out.suffix.lower() == ".gif" else 400))
    frames = trajectory(runner, scene, every, steps)
    radii = [a.params.radius for a in scene.agents]
    goals = [a.waypoints[-1] for a in scene.agents]
    title = f"{scenario.id} on {runner.id}, steps 0-{steps}"
    overlay = None
    if not (isinstance(runner, ReferenceRunner) and runner.simulator is Simulator):
        overlay = trajectory(ReferenceRunner(), scene, every, steps)
    write_picture(out, frames, radii, [list(s) for s in scene.segments], goals, title, reference=overlay,
                  runner_label=runner.id)
    return len(frames)
