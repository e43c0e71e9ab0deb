"""Scenario files: YAML load -> schema check -> exact expansion -> frozen dataclasses.

Contract: ``load_scenario(path)`` returns a ``Scenario`` whose ``scene`` holds nothing but
exact binary64 values (generators already run) or raises ``InputError`` naming the file, the
key path and the reason.  ``Scene.canonical_json()`` is the canonical JSON that runners
receive (scene.schema.json) and that the fingerprint (SHA-256) covers.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from . import generators, schema_files, strict_yaml
from .clauses import clause_map
from ..errors import CannotRead, InputError, cannot_read, did_you_mean, format_path
from .expectations import validate_expect
from ..solver import AgentParams
from ..solver.neighbors import Segment

Vec2 = tuple[float, float]

EXPANDED_FORMAT = "orca-expanded/1"
POSITION_LIMIT = 2.0 ** 21
"""Every coordinate must have magnitude below this (the text's boundary limit)."""
MAX_AGENTS = 20_000
MAX_SEGMENTS = 10_000
MAX_AGENT_STEPS = 50_000_000
"""agents * steps above this is an absurd size for a conformance scene."""
GROUP_KEYS = ("agent", "circle", "block", "params")  # one of the first three, and optional params

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
    def from_json(cls, data: dict, source: str = "scene") -> "Scene":
        """Inverse of ``to_json``; InputError naming ``source`` and the key path for data that
        breaks scene.schema.json."""
        found = schema_files.problem("scene", data)
        if found:
            raise InputError(source, *found)
        agents = tuple(
            AgentSpec(position=_vec(a["position"]), velocity=_vec(a["velocity"]),
                      params=AgentParams(float(a["radius"]), float(a["max_speed"]), float(a["neighbor_distance"]),
                                         int(a["max_neighbors"]), float(a["time_horizon"]),
                                         float(a["time_horizon_obst"])),
                      goal_radius=float(a["goal_radius"]), waypoints=tuple(_vec(w) for w in a["waypoints"]))
            for a in data["agents"])
        segments = tuple(tuple(float(v) for v in s) for s in data["segments"])
        return cls(float(data["dt"]), int(data["steps"]), int(data["perturbation"]["seed"]),
                   float(data["perturbation"]["magnitude"]), agents, segments)  # type: ignore[arg-type]

    def canonical_json(self) -> bytes:
        return canonical_json(self.to_json())

    def fingerprint(self) -> str:
        return "sha256:" + hashlib.sha256(self.canonical_json()).hexdigest()


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
    clauses: tuple[str, ...] = ()  # the clauses this scene pins (contract/clauses.json), checked on load
    frame: str = ""  # a framed variant's frame (contract/frames.py), empty for a scenario file's own scene
    default: bool = True  # a framed variant: whether it runs in the default matrix (a file's scene: see slow)

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


def _schema_error(file: str, data: object) -> InputError | None:
    found = schema_files.problem("scenario", data)
    return None if found is None else InputError(file, *found)


def _check_groups(file: str, data: dict) -> None:
    """One clear message for a group that is not exactly one of agent/circle/block."""
    groups = data.get("agents")
    if not isinstance(groups, list):
        return  # the schema names the type error
    for i, group in enumerate(groups):
        if not isinstance(group, dict):
            continue
        kinds = [k for k in ("agent", "circle", "block") if k in group]
        unknown = [k for k in group if k not in GROUP_KEYS]
        if unknown:
            hint = did_you_mean(unknown[0], GROUP_KEYS) or " (a group is one of agent, circle, block, plus params)"
            raise InputError(file, format_path(["agents", i, unknown[0]]), f"unknown key {unknown[0]!r}{hint}")
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
    agents = _expand_agents(file, data)
    segments = _expand_obstacles(file, data)
    steps = int(data["steps"])
    if steps * max(1, len(agents)) > MAX_AGENT_STEPS:
        raise InputError(file, "steps", f"agents x steps = {steps * len(agents)} exceeds {MAX_AGENT_STEPS}")
    perturbation = data.get("perturbation", {"seed": 0, "magnitude": 0.0})
    scene = Scene(float(data["dt"]), steps, int(perturbation["seed"]), float(perturbation["magnitude"]),
                  tuple(agents), tuple(segments))
    validate_expect(data["expect"], len(agents), file)
    return Scenario(id=data["id"], description=data["description"], comment=data.get("comment", ""),
                    slow=bool(data.get("slow", False)), expect=dict(data["expect"]), scene=scene, source=file,
                    clauses=clause_map().check_ids(data["clauses"], file, "clauses") if "clauses" in data else ())


def _expand_agents(file: str, data: dict) -> list[AgentSpec]:
    """Every agent of every group, in file order, with its parameters and checked coordinates."""
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
        kind, velocity, pairs = _group_pairs(file, gi, group, len(agents))
        for position, waypoints in pairs:
            for key, value in [("position", c) for c in position] + [("waypoints", c) for w in waypoints for c in w]:
                _check_coordinate(file, ["agents", gi, kind, key], value)
            agents.append(AgentSpec(position, velocity, params, goal_radius, waypoints))
        if len(agents) > MAX_AGENTS:
            raise InputError(file, format_path(["agents", gi]), f"more than {MAX_AGENTS} agents in one scene")
    return agents


def _group_pairs(file: str, gi: int, group: dict, placed: int) -> tuple[str, Vec2, list]:
    """(kind, start velocity, [(position, waypoints)]) of one group after ``placed`` agents."""
    if "agent" in group:
        spec = group["agent"]
        pairs = [(_vec(spec["position"]), tuple(_vec(w) for w in spec["waypoints"]))]
        return "agent", _vec(spec.get("velocity", (0.0, 0.0))), pairs
    if "circle" in group:
        spec = group["circle"]
        if int(spec["count"]) + placed > MAX_AGENTS:
            raise InputError(file, format_path(["agents", gi, "circle", "count"]),
                             f"more than {MAX_AGENTS} agents in one scene")
        pairs = [(p, (g,)) for p, g in generators.circle(
            int(spec["count"]), float(spec["radius"]), _vec(spec.get("center", (0.0, 0.0))),
            int(spec.get("phase", 0)))]
        return "circle", (0.0, 0.0), pairs
    spec = group["block"]
    if int(spec["columns"]) * int(spec["rows"]) + placed > MAX_AGENTS:
        raise InputError(file, format_path(["agents", gi, "block"]),
                         f"more than {MAX_AGENTS} agents in one scene")
    via = tuple(_vec(w) for w in spec.get("via", ()))
    pairs = [(p, via + (g,)) for p, g in generators.block(
        _vec(spec["origin"]), int(spec["columns"]), int(spec["rows"]),
        _vec(spec["spacing"]), _vec(spec["goal_offset"]),
        _vec(spec["goal_spacing"]) if "goal_spacing" in spec else None)]
    return "block", (0.0, 0.0), pairs


def _expand_obstacles(file: str, data: dict) -> list[Segment]:
    """The segments of every polyline and (closed) polygon, in file order, coordinates checked."""
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
    return segments


def load_scenario(path: Path, root: Path | None = None) -> Scenario:
    """Load and expand one file; with ``root``, the id must equal the path below root.

    Whatever the bytes, the outcome is a ``Scenario`` or an ``InputError`` whose text is one
    printable line (control characters escaped, overlong values shortened).
    """
    file = str(path)
    try:
        try:
            data = path.read_bytes()
            if len(data) > strict_yaml.MAX_BYTES:
                raise InputError(file, "", f"file larger than {strict_yaml.MAX_BYTES} bytes")
            text = data.decode("utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise cannot_read(file, err) from None
        scenario = parse_scenario(strict_yaml.load(text, file), file)
        if root is not None:
            _check_id_matches_path(scenario, path, root)
    except InputError as err:
        raise one_line(err) from None
    return scenario


def one_line(err: InputError) -> InputError:
    """The same error with every part printable on one line and of bounded length."""
    parts = (printable(err.file, 300), printable(err.key_path, 200), printable(err.reason, 400))
    if parts == (err.file, err.key_path, err.reason):
        return err
    clean = CannotRead(parts[0], printable(err.why, 300)) if isinstance(err, CannotRead) else InputError(*parts)
    clean.__cause__ = None
    return clean


def printable(text: str, limit: int) -> str:
    """``text`` with control and line-breaking characters escaped, cut to ``limit`` characters."""
    out = "".join(c if c.isprintable() or c == " " else c.encode("unicode_escape").decode("ascii")
                  for c in text)
    return out if len(out) <= limit else out[:limit - 3] + "..."


def _check_id_matches_path(scenario: Scenario, path: Path, root: Path) -> None:
    expected = presumed_id(path, root)
    if scenario.id != expected:
        raise InputError(str(path), "id", f"id {scenario.id!r} must match the file path {expected!r}")


def presumed_id(path: Path, root: Path) -> str:
    """The id a scenario file must have: its path below root without ``.yaml``."""
    return path.relative_to(root).with_suffix("").as_posix()


def scenario_files(root: Path) -> Iterator[Path]:
    """Scenario files below root, sorted."""
    yield from sorted(p for p in root.rglob("*.yaml") if p.is_file())


@dataclass(frozen=True)
class BrokenFile:
    """A scenario file that did not load: where, the id its path gives it, and why."""

    path: Path
    presumed_id: str
    error: InputError


@dataclass(frozen=True)
class SuiteLoad:
    """Every scenario file below a root, each either loaded or broken (never both)."""

    scenarios: tuple[Scenario, ...]
    """The files that loaded, sorted by id."""
    broken: tuple[BrokenFile, ...]
    """The files that did not, sorted by path, one error each."""

    def require_all(self) -> list[Scenario]:
        """The scenarios, or ``ScenarioFileErrors`` listing every broken file."""
        if self.broken:
            raise ScenarioFileErrors([b.error for b in self.broken])
        return list(self.scenarios)


class ScenarioFileErrors(InputError):
    """One or more broken scenario files; ``str`` is one ``error:``-prefixed line per file.

    ``file``, ``key_path`` and ``reason`` are the first error's, so a caller that knows only
    ``InputError`` still names a file.  The CLI prints ``error: <str>``, which gives one line
    per broken file.
    """

    def __init__(self, errors: list[InputError]):
        first = errors[0]
        super().__init__(first.file, first.key_path, first.reason)
        self.errors = list(errors)
        self.args = ("\nerror: ".join(str(e) for e in self.errors),)

    def __str__(self) -> str:
        return self.args[0]


def load_each(root: Path) -> SuiteLoad:
    """Load every file below root, collecting one error per broken file instead of stopping.

    A file is broken when it does not load, when its id does not match its path, or when its
    id was already taken by an earlier file (in path order).
    """
    loaded: dict[str, Scenario] = {}
    broken: list[BrokenFile] = []
    for path in scenario_files(root):
        try:
            scenario = load_scenario(path)
            if scenario.id in loaded:
                raise InputError(str(path), "id",
                                 f"duplicate id {scenario.id!r} (also in {loaded[scenario.id].source})")
            _check_id_matches_path(scenario, path, root)
        except InputError as err:
            broken.append(BrokenFile(path, presumed_id(path, root), one_line(err)))
            continue
        loaded[scenario.id] = scenario
    return SuiteLoad(tuple(loaded[k] for k in sorted(loaded)), tuple(broken))


def load_suite(root: Path) -> list[Scenario]:
    """Every scenario below root, sorted by id; any broken file (bad input, an id that does
    not match the path, a duplicate id) raises ``ScenarioFileErrors`` naming every one."""
    return load_each(root).require_all()
