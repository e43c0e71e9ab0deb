"""How a divergence grows: max |Δposition| from the first divergent step on, and where it shows.

Contract: ``divergence_series(scene, step, runner, reference)`` compares the runner's and the
reference's positions at steps ``step .. scene.steps`` and returns a ``DivergenceSeries``:

* per sampled step, the largest distance between an agent's reference and runner positions
  (metres, ``hypot(dx, dy)``) and the largest ULP distance of one coordinate (both maxima over
  the agents, each taken on its own);
* ``visible_step``: the first step whose largest distance reaches ``VISIBLE_METRES``, one pixel of
  the overlay picture (``WINDOW_METRES`` drawn across ``PICTURE_PIXELS``, i.e. 2 cm): the first
  step at which a person looking at the picture can see the two runs apart.  The crossing found
  on the geometric samples is refined by bisection, so it is exact unless the distance falls back
  under the threshold between two samples;
* ``picture``: both runs in a window of ``WINDOW_METRES`` around the agent that moved apart most,
  at the visible step (else at the step of the largest distance), with the sampled trails from
  the first divergent step on.

It is bounded: the reference (and any runner that is a Python simulator) is stepped once and
recorded; any other runner answers at most ``MAX_DUMPS`` dumps (``runner.dump(scene, s)``),
taken at geometrically spaced steps (dense just after the divergence, where the difference
grows fastest, sparse later) plus the bisection; everything stops at ``seconds`` (the series
then ends early and ``stopped`` says why).  A runner that fails a dump ends the series there.
Nothing here raises for a misbehaving runner, and nothing affects a hash or a cell's status.
"""

from __future__ import annotations

import math
import time
from array import array
from dataclasses import dataclass, field
from typing import Callable

from ..contract.driver import Driver, build_simulator
from ..contract.float_bits import ulp_distance
from ..runners.base import Runner, RunnerError, RunnerUnavailable
from ..runners.reference import ReferenceRunner
from ..contract.scenario import Scene

PICTURE_PIXELS = 420
WINDOW_METRES = 8.4
VISIBLE_METRES = WINDOW_METRES / PICTURE_PIXELS
"""One pixel of the overlay picture: 2 cm."""
MAX_DUMPS = 50
SAMPLES = 40
"""Geometric samples; the rest of MAX_DUMPS is left for the bisection."""
GROWTH = 1.25
CELL_SECONDS = 10.0


@dataclass
class DivergenceSeries:
    """Max |Δposition| per sampled step from the first divergent step on (see the module)."""

    first_step: int
    last_step: int
    """scene.steps: the series would end there if nothing stopped it."""
    steps: list[int] = field(default_factory=list)
    metres: list[float] = field(default_factory=list)
    ulps: list[int] = field(default_factory=list)
    worst: list[int] = field(default_factory=list)
    """The agent with the largest distance at each step."""
    visible_metres: float = VISIBLE_METRES
    visible_step: int | None = None
    visible_exact: bool = False
    """Whether the step before ``visible_step`` was measured below the threshold (else the
    crossing lies somewhere after the last sample below it: the bounds stopped the bisection)."""
    picture: dict | None = None
    stopped: str = ""
    """Why the series ends before ``last_step`` (time bound, a failed dump), or ""."""
    dumps: int = 0
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {"first_step": self.first_step, "last_step": self.last_step, "steps": list(self.steps),
                "metres": [m if math.isfinite(m) else None for m in self.metres], "ulps": list(self.ulps),
                "worst": list(self.worst), "visible_metres": self.visible_metres,
                "visible_step": self.visible_step, "visible_exact": self.visible_exact,
                "picture": self.picture, "stopped": self.stopped, "dumps": self.dumps,
                "seconds": round(self.seconds, 3)}


Positions = tuple[array, array]


def _ulps(a: float, b: float) -> int:
    """ulp_distance, with a NaN as the largest distance."""
    distance = ulp_distance(a, b)
    return 2 ** 64 if distance is None else distance


def sample_steps(first: int, last: int, count: int = SAMPLES, growth: float = GROWTH) -> list[int]:
    """``first``, then offsets growing by ``growth`` (at least 1), ending with ``last``; at most count."""
    offsets = [0]
    while offsets[-1] < last - first and len(offsets) < count - 1:
        offsets.append(max(offsets[-1] + 1, int(offsets[-1] * growth)))
    steps = [first + o for o in offsets if first + o < last]
    return steps + [last] if last >= first else steps


class _Recorded:
    """Positions of every step from ``first`` on, from one pass of a Python simulator."""

    def __init__(self, runner: ReferenceRunner, scene: Scene, first: int, deadline: float):
        self.first = first
        self.frames: list[Positions] = []
        sim = build_simulator(scene, runner.simulator)
        driver = Driver(scene)
        for step in range(scene.steps + 1):
            if step >= first:
                self.frames.append((array("d", sim.px), array("d", sim.py)))
            if step == scene.steps or time.monotonic() > deadline and step >= first:
                break
            driver.set_preferred_velocities(sim, step)
            sim.step(scene.dt)
        self.last = first + len(self.frames) - 1

    def at(self, step: int) -> Positions:
        return self.frames[step - self.first]


class _Dumped:
    """Positions from the runner's state dumps, counted and cached."""

    def __init__(self, runner: Runner, scene: Scene):
        self.runner, self.scene = runner, scene
        self.cache: dict[int, Positions] = {}

    def at(self, step: int) -> Positions:
        if step not in self.cache:
            rows = self.runner.dump(self.scene, step).agents
            self.cache[step] = (array("d", (r[0] for r in rows)), array("d", (r[1] for r in rows)))
        return self.cache[step]


def _distance(ref: Positions, got: Positions) -> tuple[float, int, int]:
    """(largest hypot, largest coordinate ULP distance, agent of the largest hypot)."""
    metres, ulps, worst = 0.0, 0, 0
    for i, (rx, ry, gx, gy) in enumerate(zip(ref[0], ref[1], got[0], got[1])):
        d = math.hypot(gx - rx, gy - ry)
        if d != d:
            d = math.inf
        if d > metres:
            metres, worst = d, i
        ulps = max(ulps, _ulps(rx, gx), _ulps(ry, gy))
    return metres, ulps, worst


def divergence_series(scene: Scene, step: int, runner: Runner, reference: Runner | None = None,
                      seconds: float = CELL_SECONDS) -> DivergenceSeries:
    """The series of a cell that diverged at ``step`` (see the module docstring)."""
    started = time.monotonic()
    deadline = started + seconds
    reference = reference if isinstance(reference, ReferenceRunner) else ReferenceRunner()
    series = DivergenceSeries(step, scene.steps)
    if not scene.agents or step > scene.steps:
        series.stopped = "no agent positions to compare"
        return series
    ref = _Recorded(reference, scene, step, started + seconds * 0.6)
    if ref.last < scene.steps:
        series.stopped = f"time bound ({seconds:g} s): the reference reached step {ref.last}"
    one_pass = isinstance(runner, ReferenceRunner)
    got = _Recorded(runner, scene, step, deadline) if one_pass else _Dumped(runner, scene)
    last = min(ref.last, got.last) if one_pass else ref.last
    points: dict[int, tuple[float, int, int]] = {}

    def measure(s: int) -> bool:
        if s in points:
            return True
        if not one_pass and (series.dumps >= MAX_DUMPS or time.monotonic() > deadline):
            if not series.stopped:
                series.stopped = f"time bound ({seconds:g} s) or {MAX_DUMPS} dumps reached at step {s}"
            return False
        try:
            positions = got.at(s)
        except (RunnerError, RunnerUnavailable) as err:
            series.stopped = f"the runner's dump of step {s} failed: {getattr(err, 'reason', str(err))[:200]}"
            return False
        if not one_pass:
            series.dumps += 1
        points[s] = _distance(ref.at(s), positions)
        return True

    for s in sample_steps(step, last):
        if not measure(s):
            break
    _find_visible(series, points, measure)
    for s in sorted(points):
        metres, ulps, worst = points[s]
        series.steps.append(s)
        series.metres.append(metres)
        series.ulps.append(ulps)
        series.worst.append(worst)
    if series.steps:
        shown = series.visible_step
        if shown is None:
            shown = max(series.steps, key=lambda s: points[s][0])
        trail = [s for s in series.steps if s <= shown]
        series.picture = _picture(scene, shown, points[shown][2], trail, ref, got)
    series.seconds = time.monotonic() - started
    return series


def _find_visible(series: DivergenceSeries, points: dict[int, tuple[float, int, int]],
                  measure: Callable[[int], bool]) -> None:
    """Set ``series.visible_step`` (and ``visible_exact``): the first measured step whose largest
    distance reaches VISIBLE_METRES, refined by bisection from the sample before it (``measure``
    adds a step to ``points``, False when the bounds stop it); unchanged when none reaches it."""
    measured = sorted(points)
    below = None
    for s in measured:
        if points[s][0] >= VISIBLE_METRES:
            lo, hi = (below if below is not None else s), s
            while hi - lo > 1 and measure((lo + hi) // 2):
                mid = (lo + hi) // 2
                lo, hi = (lo, mid) if points[mid][0] >= VISIBLE_METRES else (mid, hi)
            series.visible_step = hi if points[lo][0] < VISIBLE_METRES else lo
            series.visible_exact = series.visible_step == series.first_step or hi - lo <= 1
            break
        below = s


def _picture(scene: Scene, step: int, agent: int, trail: list[int], ref, got) -> dict:
    """Both runs in a WINDOW_METRES window around ``agent`` at ``step``, with trails."""
    rx, ry = ref.at(step)
    gx, gy = got.at(step)
    cx, cy = rx[agent], ry[agent]
    half = WINDOW_METRES / 2
    reach = half + max(a.params.radius for a in scene.agents)
    chosen = [i for i in range(len(rx)) if abs(rx[i] - cx) <= reach and abs(ry[i] - cy) <= reach
              or abs(gx[i] - cx) <= reach and abs(gy[i] - cy) <= reach]

    def trails(source) -> list[list[list[float]]]:
        frames = [source.at(s) for s in trail]
        return [[[f[0][i], f[1][i]] for f in frames] for i in chosen]

    return {"step": step, "agent": agent, "center": [cx, cy], "width": WINDOW_METRES, "pixels": PICTURE_PIXELS,
            "indices": chosen, "radii": [scene.agents[i].params.radius for i in chosen],
            "reference": [[rx[i], ry[i]] for i in chosen], "runner": [[gx[i], gy[i]] for i in chosen],
            "trail_steps": trail, "reference_trails": trails(ref), "runner_trails": trails(got),
            "segments": [list(s) for s in scene.segments]}


REPORT_SECONDS = 120.0
"""Time for all the series of one report; cells after it get a note instead."""


def attach_to_report(report: dict, scenarios: dict, runners: dict[str, Runner] | None = None,
                     seconds: float = REPORT_SECONDS) -> None:
    """Add ``diagnosis["divergence"]`` (``DivergenceSeries.to_json()``, or ``{"stopped": why}``)
    to every DIVERGED scenario cell of a report document.  ``scenarios`` maps row ids to
    Scenarios; a runner is taken from ``runners`` or resolved again from its id (and closed
    afterwards).  Never raises for a runner that cannot be made or fails."""
    from ..runners import resolve
    from ..errors import InputError
    deadline = time.monotonic() + seconds
    made: dict[str, Runner | None] = {}
    reference = ReferenceRunner()
    try:
        for cell in report["cells"]:
            diagnosis = cell.get("diagnosis")
            scenario = scenarios.get(cell["row"])
            if cell["status"] != "DIVERGED" or diagnosis is None or scenario is None or cell.get("step") is None:
                continue
            runner_id = cell["runner"]
            if runner_id not in made:
                runner = (runners or {}).get(runner_id)
                if runner is None:
                    try:
                        runner = resolve(runner_id)
                    except (InputError, RunnerError, RunnerUnavailable):
                        runner = None
                made[runner_id] = runner
            runner = made[runner_id]
            left = deadline - time.monotonic()
            if runner is None:
                diagnosis["divergence"] = {"stopped": f"runner {runner_id} cannot be made again to draw the series"}
            elif left <= 0:
                diagnosis["divergence"] = {"stopped": f"the report's time bound ({seconds:g} s) was spent"}
            else:
                try:
                    series = divergence_series(scenario.scene, cell["step"], runner, reference,
                                               min(CELL_SECONDS, left))
                    diagnosis["divergence"] = series.to_json()
                except (RunnerError, RunnerUnavailable) as err:
                    diagnosis["divergence"] = {"stopped": f"the runner failed: {getattr(err, 'reason', err)}"}
    finally:
        for runner_id, runner in made.items():
            if runner is not None and (runners or {}).get(runner_id) is not runner:
                runner.close()
