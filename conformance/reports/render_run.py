"""``orca-conformance render`` on a runner named by its id.

Contract: ``render_on(scenario, runner_id, out, every, steps)`` resolves the runner (an unknown
id is ``InputError``), draws the scenario into ``out`` (see render.py) and closes the runner
whatever happens; it returns the number of frames and the runner's id.  A runner that cannot
run, or a picture format whose plotting library is missing, is ``RenderFailed`` (one line).
"""

from __future__ import annotations

from pathlib import Path

from ..contract.scenario import Scenario
from ..runners import resolve
from ..runners.base import RunnerError, RunnerUnavailable
from .drawing import PlotUnavailable
from .render import render


class RenderFailed(Exception):
    """The runner or the plotting library could not make the picture."""


def render_on(scenario: Scenario, runner_id: str, out: Path, every: int | None,
              steps: int | None) -> tuple[int, str]:
    runner = resolve(runner_id)
    try:
        return render(scenario, runner, out, every, steps), runner.id
    except (RunnerError, RunnerUnavailable, PlotUnavailable) as err:
        raise RenderFailed(str(err)) from err
    finally:
        runner.close()
