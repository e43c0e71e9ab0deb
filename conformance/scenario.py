"""Scenario files: YAML load -> schema check -> exact expansion -> frozen dataclasses.

Contract: ``load_scenario(path)`` returns a ``Scenario`` whose ``scene`` holds nothing but
exact binary64 values (generators already run) or raises ``InputError`` naming the file, the
key path and the reason.  ``Scene.canonical_bytes()`` is the canonical JSON that runners
receive and that the fingerprint (SHA-256) covers.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Iterator

import jsonschema

from . import generators, strict_yaml
from .errors import InputError, format_path
from .solver import AgentParams
from .solver.neighbors import Segment

Vec2 = tuple[float, float]

EXPANDED_FORMAT = "orca-expanded/1"
POSITION_LIMIT = 2.0 ** 21
"""Every coordinate must have magnitude below this (the text's boundary limit)."""
MAX_AGENTS = 20_000
MAX_SEGMENTS = 10_000
MAX_AGENT_STEPS = 50_000_000
"""agents * steps above this is an absurd size for a conformance scene."""

DEFAULT_PARAMS: dict[str, float | int] = {
    "radius": 0.5,
    "max_speed": 1.0,
    "neighbor_distance": 5.0,
    "max_neighbors": 10,
    "time_horizon": 2.0,
    "time_horizon_obst": 2.0,
    "goal_radius": 0.1,
}


@dataclass(frozen=True)
class AgentSpec:
    """One agent of an expanded scene: initial state, solver parameters, driver data."""

    position: Vec2
    velocity: Vec2
    params: AgentParams
    goal_radius: float
    waypoints: tuple[Vec2, ...]


@dataclass(frozen=True)
class Scene:
    """Everything that affects bits: what runners receive and the fingerprint covers."""

    dt: float
    steps: int
    seed: int
    magnitude: float
    agents: tuple[AgentSpec, ...]
    segments: tuple[Segment, ...]

    def to_json(self) -> dict:
        """The scene as JSON data (floats stay floats, counts stay ints)."""
        return {
            "dt": self.dt,
            "steps": self.steps,
            "perturbation": {"seed": self.seed, "magnitude": self.magnitude},
            "segments": [list(s) for s in self.segments],
            "agents": [
                {
                    "position": list(a.position),
                    "velocity": list(a.velocity),
                    "radius": a.params.radius,
                    "max_speed": a.params.max_speed,
                    "neighbor_distance": a.params.neighbor_distance,
                    "max_neighbors": a.params.max_neighbors,
                    "time_horizon": a.params.time_horizon,
                    "time_horizon_obst": a.params.time_horizon_obst,
                    "goal_radius": a.goal_radius,
                    "waypoints": [list(w) for w in a.waypoints],
                }
                for a in self.agents
            ],
        }

    @classmethod
    def from_json(cls, data: dict) -> "Scene":
        """Inverse of ``to_json`` (no validation: the data comes from ``to_json``)."""
        agents = tuple(
            AgentSpec(
                position=_vec(a["position"]),
                velocity=_vec(a["velocity"]),
                params=AgentParams(float(a["radius"]), float(a["max_speed"]),
                                   float(a["neighbor_distance"]), int(a["max_neighbors"]),
                                   float(a["time_horizon"]), float(a["time_horizon_obst"])),
                goal_radius=float(a["goal_radius"]),
                waypoints=tuple(_vec(w) for w in a["waypoints"]),
            )
            for a in data["agents"]
        )
        segments = tuple(tuple(float(v) for v in s) for s in data["segments"])
        return cls(float(data["dt"]), int(data["steps"]), int(data["perturbation"]["seed"]),
                   float(data["perturbation"]["magnitude"]), agents, segments)  # type: ignore[arg-type]

    def canonical_bytes(self) -> bytes:
        return canonical_json(self.to_json())

    def fingerprint(self) -> str:
        return "sha256:" + hashlib.sha256(self.canonical_bytes()).hexdigest()


@dataclass(frozen=True)
class Scenario:
    """A loaded scenario file: identity, behaviour bounds and its expanded scene."""

    id: str
    description: str
    comment: str
    slow: bool
    expect: dict = field(hash=False, compare=False)
    scene: Scene = field(hash=False)
    source: str = ""

    @property
    def fingerprint(self) -> str:
        return self.scene.fingerprint()

    def expanded(self) -> dict:
        """The expanded document that ``orca-conformance expand`` prints."""
        return {
            "format": EXPANDED_FORMAT,
            "id": self.id,
            "description": self.description,
            "fingerprint": self.fingerprint,
            "scene": self.scene.to_json(),
        }


def canonical_json(data: object) -> bytes:
    """Sorted keys, no spaces, ASCII, shortest round-trip decimals (Python's float repr)."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False).encode("ascii")


def _vec(v) -> Vec2:
    return (float(v[0]), float(v[1]))


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    text = resources.files("conformance").joinpath("schemas/scenario.schema.json").read_text()
    return jsonschema.Draft202012Validator(json.loads(text))


def _schema_error(file: str, data: object) -> InputError | None:
    errors = list(_validator().iter_errors(data))
    if not errors:
        return None
    err = jsonschema.exceptions.best_match(errors)
    # descend into oneOf/anyOf to the most specific reason
    while err.context:
        err = jsonschema.exceptions.best_match(err.context)
    reason = err.message
    if err.validator == "additionalProperties":
        reason = "unknown key: " + reason
    return InputError(file, format_path(list(err.absolute_path)), reason)


def _check_groups(file: str, data: dict) -> None:
    """One clear message for a group that is not exactly one of agent/circle/block."""
    for i, group in enumerate(data.get("agents") or []):
        if not isinstance(group, dict):
            continue
        kinds = [k for k in ("agent", "circle", "block") if k in group]
        unknown = [k for k in group if k not in ("agent", "circle", "block", "params")]
        if unknown:
            raise InputError(file, format_path(["agents", i, unknown[0]]),
                             "unknown key (a group is one of agent, circle, block, plus optional params)")
        if len(kinds) != 1:
            raise InputError(file, format_path(["agents", i]),
                             f"a group needs exactly one of agent, circle, block (got {kinds or 'none'})")


def _check_coordinate(file: str, path: list, value: float) -> None:
    if not -POSITION_LIMIT < value < POSITION_LIMIT:
        raise InputError(file, format_path(path), f"coordinate {value!r} is not below 2^21 in magnitude")


def parse_scenario(data: object, file: str) -> Scenario:
    """Validate parsed YAML data and expand it."""
    if not isinstance(data, dict):
        raise InputError(file, "", "a scenario file is a mapping at the top level")
    _check_groups(file, data)
    err = _schema_error(file, data)
    if err is not None:
        raise err
    defaults = dict(DEFAULT_PARAMS)
    defaults.update(data.get("agent_defaults", {}))
    agents: list[AgentSpec] = []
    for gi, group in enumerate(data["agents"]):
        prm = dict(defaults)
        prm.update(group.get("params", {}))
        params = AgentParams(float(prm["radius"]), float(prm["max_speed"]),
                             float(prm["neighbor_distance"]), int(prm["max_neighbors"]),
                             float(prm["time_horizon"]), float(prm["time_horizon_obst"]))
        goal_radius = float(prm["goal_radius"])
        if "agent" in group:
            spec = group["agent"]
            pairs = [(_vec(spec["position"]), tuple(_vec(w) for w in spec["waypoints"]))]
            velocity = _vec(spec.get("velocity", (0.0, 0.0)))
            kind = "agent"
        elif "circle" in group:
            spec = group["circle"]
            kind = "circle"
            velocity = (0.0, 0.0)
            if int(spec["count"]) + len(agents) > MAX_AGENTS:
                raise InputError(file, format_path(["agents", gi, kind, "count"]),
                                 f"more than {MAX_AGENTS} agents in one scene")
            pairs = [(p, (g,)) for p, g in generators.circle(
                int(spec["count"]), float(spec["radius"]), _vec(spec.get("center", (0.0, 0.0))),
                int(spec.get("phase", 0)))]
        else:
            spec = group["block"]
            kind = "block"
            velocity = (0.0, 0.0)
            if int(spec["columns"]) * int(spec["rows"]) + len(agents) > MAX_AGENTS:
                raise InputError(file, format_path(["agents", gi, kind]),
                                 f"more than {MAX_AGENTS} agents in one scene")
            via = tuple(_vec(w) for w in spec.get("via", ()))
            pairs = [(p, via + (g,)) for p, g in generators.block(
                _vec(spec["origin"]), int(spec["columns"]), int(spec["rows"]),
                _vec(spec["spacing"]), _vec(spec["goal_offset"]),
                _vec(spec["goal_spacing"]) if "goal_spacing" in spec else None)]
        for position, waypoints in pairs:
            _check_coordinate(file, ["agents", gi, kind, "position"], position[0])
            _check_coordinate(file, ["agents", gi, kind, "position"], position[1])
            for w in waypoints:
                _check_coordinate(file, ["agents", gi, kind, "waypoints"], w[0])
                _check_coordinate(file, ["agents", gi, kind, "waypoints"], w[1])
            agents.append(AgentSpec(position, velocity, params, goal_radius, waypoints))
        if len(agents) > MAX_AGENTS:
            raise InputError(file, format_path(["agents", gi]), f"more than {MAX_AGENTS} agents in one scene")
    segments: list[Segment] = []
    for oi, obstacle in enumerate(data.get("obstacles", [])):
        (kind, points), = obstacle.items()
        pts = [_vec(p) for p in points]
        for pi, (x, y) in enumerate(pts):
            _check_coordinate(file, ["obstacles", oi, kind, pi, 0], x)
            _check_coordinate(file, ["obstacles", oi, kind, pi, 1], y)
        if kind == "polygon":
            pts.append(pts[0])
        for a, b in zip(pts, pts[1:]):
            segments.append((a[0], a[1], b[0], b[1]))
    if len(segments) > MAX_SEGMENTS:
        raise InputError(file, "obstacles", f"more than {MAX_SEGMENTS} segments in one scene")
    steps = int(data["steps"])
    if steps * max(1, len(agents)) > MAX_AGENT_STEPS:
        raise InputError(file, "steps", f"agents x steps = {steps * len(agents)} exceeds {MAX_AGENT_STEPS}")
    perturbation = data.get("perturbation", {"seed": 0, "magnitude": 0.0})
    scene = Scene(float(data["dt"]), steps, int(perturbation["seed"]), float(perturbation["magnitude"]),
                  tuple(agents), tuple(segments))
    return Scenario(id=data["id"], description=data["description"], comment=data.get("comment", ""),
                    slow=bool(data.get("slow", False)), expect=dict(data["expect"]), scene=scene,
                    source=file)


def load_scenario(path: Path, root: Path | None = None) -> Scenario:
    """Load and expand one file; with ``root``, the id must equal the path below root."""
    file = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(file, "", f"cannot read: {err}") from None
    scenario = parse_scenario(strict_yaml.load(text, file), file)
    if root is not None:
        _check_id_matches_path(scenario, path, root)
    return scenario


def _check_id_matches_path(scenario: Scenario, path: Path, root: Path) -> None:
    expected = path.relative_to(root).with_suffix("").as_posix()
    if scenario.id != expected:
        raise InputError(str(path), "id", f"id {scenario.id!r} must match the file path {expected!r}")


def scenario_files(root: Path) -> Iterator[Path]:
    """Scenario files below root, sorted."""
    yield from sorted(p for p in root.rglob("*.yaml") if p.is_file())


def load_suite(root: Path) -> list[Scenario]:
    """Every scenario below root, sorted by id; duplicate ids are an error."""
    out: dict[str, Scenario] = {}
    for path in scenario_files(root):
        scenario = load_scenario(path)
        if scenario.id in out:
            raise InputError(str(path), "id", f"duplicate id {scenario.id!r} (also in {out[scenario.id].source})")
        out[scenario.id] = scenario
    for scenario in out.values():
        _check_id_matches_path(scenario, Path(scenario.source), root)
    return [out[k] for k in sorted(out)]
