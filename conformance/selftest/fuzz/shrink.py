"""Shrinking a diverging fuzz scene, and writing the result as a scenario file with its golden.

Contract: ``shrink(scene, step, diverges)`` returns a ``Shrunk`` scene on which ``diverges``
(the divergence step of a candidate, or None when it no longer diverges) still reports a
divergence, reduced greedily until no reduction applies or the budget runs out (a reduction is accepted only when
it lowers ``complexity``, so the loop cannot cycle): the steps cut
at the divergence step; agents and segments removed (halves, quarters, ... then one by one);
via waypoints dropped; the perturbation, every agent's parameters, goal radius and initial
velocity and the step length set to defaults; the whole scene moved near the origin; every
remaining number rounded to an integer, else to 1/2, 1/16, 1/256, 1/65536 (the coarsest that
still diverges).  Each candidate is a valid scene (the scenario schema's rules hold).
``write_scenario`` writes DIR/scenarios/<id>.yaml (exact doubles as Python reprs) and
DIR/goldens/<id>.json, then loads the file back and raises ``ShrinkError`` unless it gives
the same scene (fingerprint).

Why a plain delta-debugging loop and not hypothesis: hypothesis shrinks the choice sequence
of its own generation strategy and keeps its examples in its database, so a found scene would
have to be regenerated through a strategy (and could not start from a concrete ``Scene`` or
a port's report), and its reductions depend on its version and heuristics.  The loop here
works on the concrete scene, is deterministic (the same scene, runner and oracle shrink to the
same file), and every step is a reduction a port author can name ("agent 3 removed", "x
rounded to 2.5"), which is what the resulting scenario has to explain.
"""

from __future__ import annotations

import dataclasses
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from ...errors import InputError
from .scenes import DEFAULT_AGENT, DEFAULT_GOAL_RADIUS
from ...data.goldens import compute_golden, golden_path, write_golden
from ...contract.scenario import DEFAULT_PARAMS, AgentSpec, Scenario, Scene, load_scenario

Oracle = Callable[[Scene], "int | None"]
"""The divergence step of a scene (same runner, reference as oracle), or None."""

ROUNDINGS = (1.0, 2.0, 16.0, 256.0, 65536.0)
"""Grids tried for each number, coarsest first (integers, halves, ...)."""
SIMPLE_DT = (1.0, 0.5, 0.25, 0.125, 0.1)


class ShrinkError(Exception):
    """The written scenario does not load back to the shrunk scene."""


@dataclass
class Shrunk:
    scene: Scene
    step: int
    tries: int
    seconds: float

    def size(self) -> str:
        s = self.scene
        return ", ".join(f"{n} {what}{'' if n == 1 else 's'}" for n, what in
                         ((len(s.agents), "agent"), (len(s.segments), "segment"), (s.steps, "step")))


def shrink(scene: Scene, step: int, diverges: Oracle, budget_seconds: float = 60.0) -> Shrunk:
    """Greedy reduction while ``diverges`` still reports a divergence (see the module doc)."""
    started = time.perf_counter()
    current, current_step, tries = _cut(scene, step), step, 0
    progress = True
    while progress and time.perf_counter() - started < budget_seconds:
        progress = False
        for reductions in (_fewer_agents, _fewer_segments, _fewer_waypoints, _defaults, _simpler_numbers):
            restart = True
            while restart and time.perf_counter() - started < budget_seconds:
                restart = False
                for candidate in reductions(current):
                    if not _valid(candidate) or complexity(candidate) >= complexity(current):
                        continue
                    tries += 1
                    k = diverges(candidate)
                    if k is not None:
                        current, current_step = _cut(candidate, k), k
                        progress = restart = True
                        break
    return Shrunk(current, current_step, tries, time.perf_counter() - started)


def _number_cost(value: float) -> int:
    """Binary digits of an exact double: fraction bits plus integer bits (0.0 costs 0, 2.5 costs 3)."""
    numerator, denominator = abs(value).as_integer_ratio()
    return denominator.bit_length() - 1 + (numerator // denominator).bit_length()


def complexity(scene: Scene) -> tuple[int, int, int, int, int]:
    """What every accepted reduction strictly lowers (lexicographically), so the loop ends:
    agents, segments, waypoints, values that are not defaults, binary digits of all numbers."""
    non_default = (scene.seed != 0) + (scene.magnitude != 0.0) + sum(
        (a.params != DEFAULT_AGENT) + sum(getattr(a.params, k) != DEFAULT_PARAMS[k] for k in DEFAULT_PARAMS
                                          if k != "goal_radius") + (a.goal_radius != DEFAULT_GOAL_RADIUS)
        + (a.velocity != (0.0, 0.0)) for a in scene.agents)
    numbers = sum(_number_cost(v) for v in (scene.dt, *(x for s in scene.segments for x in s)))
    numbers += sum(_number_cost(v) for a in scene.agents for v in (*a.position, *a.velocity, a.params.radius,
                   a.params.max_speed, a.params.neighbor_distance, a.params.time_horizon, a.params.time_horizon_obst,
                   a.goal_radius, *(x for w in a.waypoints for x in w)))
    return (len(scene.agents), len(scene.segments), sum(len(a.waypoints) for a in scene.agents), non_default, numbers)


def _cut(scene: Scene, step: int) -> Scene:
    return dataclasses.replace(scene, steps=max(1, min(step, scene.steps)))


def _valid(scene: Scene) -> bool:
    if not 0.0 < scene.dt <= 10.0:
        return False
    return all(a.params.radius > 0 and a.params.time_horizon > 0 and a.params.time_horizon_obst > 0
               and a.params.max_speed >= 0 and a.params.neighbor_distance >= 0 and a.goal_radius >= 0
               for a in scene.agents)


def _without_chunks(items: tuple) -> Iterator[tuple]:
    """The tuple with a half, a quarter, ... and finally each single item removed."""
    n = len(items)
    size = n // 2 or 1
    while size >= 1:
        for start in range(0, n, size):
            yield items[:start] + items[start + size:]
        if size == 1:
            break
        size //= 2


def _fewer_agents(scene: Scene) -> Iterator[Scene]:
    for agents in _without_chunks(scene.agents):
        yield dataclasses.replace(scene, agents=agents)


def _fewer_segments(scene: Scene) -> Iterator[Scene]:
    for segments in _without_chunks(scene.segments):
        yield dataclasses.replace(scene, segments=segments)


def _with_agent(scene: Scene, i: int, agent: AgentSpec) -> Scene:
    return dataclasses.replace(scene, agents=scene.agents[:i] + (agent,) + scene.agents[i + 1:])


def _fewer_waypoints(scene: Scene) -> Iterator[Scene]:
    for i, a in enumerate(scene.agents):
        if len(a.waypoints) > 1:
            yield _with_agent(scene, i, dataclasses.replace(a, waypoints=a.waypoints[-1:]))
            for k in range(len(a.waypoints) - 1):
                yield _with_agent(scene, i, dataclasses.replace(a, waypoints=a.waypoints[:k] + a.waypoints[k + 1:]))


def _defaults(scene: Scene) -> Iterator[Scene]:
    yield dataclasses.replace(scene, seed=0, magnitude=0.0)
    for i, a in enumerate(scene.agents):
        yield _with_agent(scene, i, dataclasses.replace(a, params=DEFAULT_AGENT))
        for name in ("radius", "max_speed", "neighbor_distance", "max_neighbors", "time_horizon", "time_horizon_obst"):
            params = dataclasses.replace(a.params, **{name: DEFAULT_PARAMS[name]})
            yield _with_agent(scene, i, dataclasses.replace(a, params=params))
        yield _with_agent(scene, i, dataclasses.replace(a, goal_radius=DEFAULT_GOAL_RADIUS))
        yield _with_agent(scene, i, dataclasses.replace(a, velocity=(0.0, 0.0)))
    for dt in SIMPLE_DT:
        if dt != scene.dt:
            yield dataclasses.replace(scene, dt=dt)


def _map_json(data: dict, visit: Callable[[list, float], float]) -> dict:
    """A copy of a scene's JSON with every float leaf (except the perturbation) replaced."""
    def walk(node, path):
        if isinstance(node, dict):
            return {k: (v if k == "perturbation" else walk(v, path + [k])) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v, path + [k]) for k, v in enumerate(node)]
        return visit(path, node) if isinstance(node, float) else node
    return walk(data, [])


def _as_scene(data: dict) -> Iterator[Scene]:
    """The scene of a candidate's JSON, or nothing when the candidate breaks scene.schema.json."""
    try:
        yield Scene.from_json(data)
    except InputError:
        return


def _simpler_numbers(scene: Scene) -> Iterator[Scene]:
    data = scene.to_json()
    coordinates = [a["position"] for a in data["agents"]] + [w for a in data["agents"] for w in a["waypoints"]]
    big = [c for c in coordinates if max(abs(c[0]), abs(c[1])) > 1000.0]
    if big:  # move everything near the origin: one integer offset for the whole scene
        ox, oy = float(round(big[0][0])), float(round(big[0][1]))

        def shift(path: list, v: float) -> float:
            if path[0] == "segments":
                return v - (ox if path[-1] % 2 == 0 else oy)
            if path[0] == "agents" and path[2] in ("position", "waypoints"):
                return v - (ox if path[-1] == 0 else oy)
            return v
        yield from _as_scene(_map_json(data, shift))
    leaves: list[tuple[list, float]] = []
    _map_json(data, lambda path, v: leaves.append((path, v)) or v)
    for path, value in leaves:
        for grid in ROUNDINGS:
            simple = round(value * grid) / grid
            if simple != value:
                yield from _as_scene(_map_json(data, lambda p, v, t=path, s=simple: s if p == t else v))


# ----------------------------------------------------------------------------- scenario files

def yaml_float(value: float) -> str:
    """Python's repr, with ``1e-05`` written ``1.0e-05`` (YAML 1.1 reads the first as a string)."""
    text = repr(float(value))
    mantissa, e, exponent = text.partition("e")
    if e and "." not in mantissa:
        text = f"{mantissa}.0e{exponent}"
    return text


def _pair(v) -> str:
    return f"[{yaml_float(v[0])}, {yaml_float(v[1])}]"


def scenario_yaml(scene: Scene, scenario_id: str, description: str, comment: str, header: list[str],
                  expect: dict) -> str:
    """The scene as a scenario file: one ``agent`` group each, non-default parameters only."""
    lines = [f"# {h}" for h in header]
    lines += [f"id: {scenario_id}", f"description: {json.dumps(description)}", f"comment: {json.dumps(comment)}",
              f"dt: {yaml_float(scene.dt)}", f"steps: {scene.steps}",
              f"perturbation: {{seed: {scene.seed}, magnitude: {yaml_float(scene.magnitude)}}}"]
    lines.append("agents:" if scene.agents else "agents: []")
    for a in scene.agents:
        body = f"position: {_pair(a.position)}"
        if repr(a.velocity) != repr((0.0, 0.0)):
            body += f", velocity: {_pair(a.velocity)}"
        body += ", waypoints: [" + ", ".join(_pair(w) for w in a.waypoints) + "]"
        lines.append(f"  - agent: {{{body}}}")
        values = {**dataclasses.asdict(a.params), "goal_radius": a.goal_radius}
        params = {k: v for k, v in values.items() if repr(v) != repr(DEFAULT_PARAMS[k] if k == "max_neighbors"
                                                                     else float(DEFAULT_PARAMS[k]))}
        if params:
            lines.append("    params: {" + ", ".join(f"{k}: {v if k == 'max_neighbors' else yaml_float(v)}"
                                                   for k, v in params.items()) + "}")
    if scene.segments:
        lines.append("obstacles:")
        lines += [f"  - segment: [{_pair(s[:2])}, {_pair(s[2:])}]" for s in scene.segments]
    lines.append("expect: {" + ", ".join(f"{k}: {json.dumps(v) if isinstance(v, bool) else yaml_float(v)}"
                                        for k, v in expect.items()) + "}")
    return "\n".join(lines) + "\n"


def expect_from_figures(figures: dict) -> dict:
    """Bounds the reference meets by construction: its own overlaps, and the fallback if it ran."""
    expect: dict = {"max_overlap": float(figures["max_overlap"]),
                    "max_wall_overlap": float(figures["max_wall_overlap"])}
    if figures.get("fallbacks"):
        expect["fallback_used"] = True
    return expect


def write_scenario(scene: Scene, scenario_id: str, description: str, comment: str, header: list[str],
                   folder: Path) -> tuple[Path, Path]:
    """DIR/scenarios/<id>.yaml and DIR/goldens/<id>.json; the file must load back to ``scene``."""
    draft = Scenario(id=scenario_id, description=description, comment=comment, slow=False, expect={}, scene=scene)
    golden = compute_golden(draft, folder / "goldens")
    text = scenario_yaml(scene, scenario_id, description, comment, header, expect_from_figures(golden.figures))
    path = folder / "scenarios" / (scenario_id + ".yaml")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as err:
        raise InputError(str(path), "", f"cannot write: {err}") from None
    loaded = load_scenario(path, folder / "scenarios")
    if loaded.fingerprint != scene.fingerprint():
        raise ShrinkError(f"{path} does not load back to the shrunk scene "
                          f"({loaded.fingerprint} vs {scene.fingerprint()})")
    gpath = golden_path(folder / "goldens", scenario_id)
    gpath.parent.mkdir(parents=True, exist_ok=True)
    write_golden(golden, gpath)
    return path, gpath
