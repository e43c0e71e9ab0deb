"""Frames: every scenario also runs mirrored, rotated, translated or with its agents reordered.

Contract: a frame is data (``scenarios/frames.json``, schema ``frames.schema.json``), never code
and never a key of a scenario file, which stays one behaviour.  ``transform(scene, frame)`` maps
an expanded scene to the scene of the same behaviour in that frame, in binary64, once, in the
harness (a port receives the resulting doubles and nothing else): each point (x, y) is first
mirrored (x -> -x) when the frame mirrors, then rotated by the frame's turn,
``x' = c*x - s*y``, ``y' = s*x + c*y`` (products first, then the sum; c and s from
``generators.cos_sin_turn``, computed once per frame), then translated (``x' + tx``,
``y' + ty``).  Positions, waypoints and segment ends are points; velocities are mirrored and
rotated, never translated.  ``reverse`` reverses the order of the agents (agent i becomes
n-1-i, its waypoints, parameters and velocity with it) and of the segments (each keeps its
ends); nothing else changes: dt, steps and the perturbation (seed and magnitude, so the noise
is drawn in the new frame's axes and by the new index) stay as they are.

``with_frames(load, path)`` adds, after the scenarios of ``load``, the variant of each
non-slow scenario in each frame (id ``ID~NAME``, ``Scenario.frame`` the frame's name,
``Scenario.default`` whether the frame lists it in ``default``), except those the frame
``skip``s, each with a reason (a frame marked ``only`` applies to its ``default`` list alone).
A variant's ``expect:`` is its scenario's, but for the bounds the frame's ``bounds`` changes or
drops for it, each with the reason (``Frame.expect``): never silently.  A file that breaks its schema, names an unknown scenario in
``default`` or ``skip``, or puts a coordinate at 2^21 or beyond, is one ``BrokenFile`` whose
presumed id is ``FRAMES_ID``; no file, no frames.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from . import generators, schema_files
from ..errors import InputError, format_path
from .scenario import POSITION_LIMIT, AgentSpec, BrokenFile, Scenario, Scene, SuiteLoad

Vec2 = tuple[float, float]

SEPARATOR = "~"
"""Between a scenario's id and its frame's name in a framed variant's id."""
FRAMES_FILE = "frames.json"
"""The frames of a suite: scenarios/frames.json."""
FRAMES_ID = "frames"
"""The presumed id of a broken frames file (``BrokenFile.presumed_id``)."""


@dataclass(frozen=True)
class Frame:
    """One frame: mirror, then rotate by ``turn`` (numerator, denominator of a whole turn), then
    translate by ``shift``; ``reverse`` reorders agents and segments.  ``default``: the
    scenarios whose variant runs in the default matrix; ``skip``: (scenario id, reason)."""

    name: str
    description: str
    mirror: bool = False
    turn: tuple[int, int] | None = None
    shift: Vec2 = (0.0, 0.0)
    reverse: bool = False
    default: tuple[str, ...] = ()
    skip: tuple[tuple[str, str], ...] = ()
    only: bool = False
    bounds: tuple[tuple[str, tuple[tuple[str, object], ...]], ...] = ()
    """(scenario id, ((bound, value or None to drop it), ..., ("why", reason)))."""

    @property
    def cos_sin(self) -> Vec2 | None:
        """(cos, sin) of the turn (the harness's own series), None without one."""
        return None if self.turn is None else generators.cos_sin_turn(*self.turn)

    def skipped(self, scenario_id: str) -> str | None:
        """Why this frame does not apply to ``scenario_id``, or None when it does."""
        if self.only and scenario_id not in self.default:
            return "the frame applies to its default scenarios only"
        return dict(self.skip).get(scenario_id)

    def expect(self, scenario_id: str, expect: dict) -> dict:
        """The scenario's ``expect:`` in this frame: as in its file but for the frame's ``bounds``."""
        changed = dict(dict(self.bounds).get(scenario_id, ()))
        changed.pop("why", None)
        out = {**expect, **changed}
        return {k: v for k, v in out.items() if v is not None}


def split_id(scenario_id: str) -> tuple[str, str]:
    """(base id, frame name) of an id; the frame name is empty for an unframed id."""
    base, _, frame = scenario_id.partition(SEPARATOR)
    return base, frame


def framed_id(base_id: str, frame: str) -> str:
    return base_id + SEPARATOR + frame


def point_map(frame: Frame):
    """The frame's map of a point, exact doubles in, exact doubles out, in the fixed order."""
    cs = frame.cos_sin
    tx, ty = frame.shift

    def apply(p: Vec2, translate: bool = True) -> Vec2:
        x, y = p
        if frame.mirror:
            x = -x
        if cs is not None:
            c, s = cs
            x, y = c * x - s * y, s * x + c * y
        if translate and frame.shift != (0.0, 0.0):
            x, y = x + tx, y + ty
        return x, y
    return apply


def transform(scene: Scene, frame: Frame) -> Scene:
    """The scene in ``frame`` (see the module's contract)."""
    move = point_map(frame)
    agents = tuple(AgentSpec(move(a.position), move(a.velocity, translate=False), a.params, a.goal_radius,
                             tuple(move(w) for w in a.waypoints)) for a in scene.agents)
    segments = []
    for ax, ay, bx, by in scene.segments:
        (px, py), (qx, qy) = move((ax, ay)), move((bx, by))
        segments.append((px, py, qx, qy))
    if frame.reverse:
        agents, segments = agents[::-1], segments[::-1]
    return dataclasses.replace(scene, agents=agents, segments=tuple(segments))


def framed(scenario: Scenario, frame: Frame) -> Scenario:
    """The variant of ``scenario`` in ``frame``: the same bounds and clauses, its own id and scene."""
    return dataclasses.replace(scenario, id=framed_id(scenario.id, frame.name), scene=transform(scenario.scene, frame),
                               frame=frame.name, default=scenario.id in frame.default,
                               expect=frame.expect(scenario.id, scenario.expect))


def parse_frames(data: object, file: str) -> tuple[Frame, ...]:
    """The frames of a parsed frames file; InputError naming the file and key path."""
    found = schema_files.problem("frames", data)
    if found:
        raise InputError(file, *found)
    frames = []
    for i, f in enumerate(data["frames"]):
        if f["name"] in {g.name for g in frames}:
            raise InputError(file, format_path(["frames", i, "name"]), f"duplicate frame name {f['name']!r}")
        frames.append(Frame(f["name"], f["description"], bool(f.get("mirror", False)),
                            tuple(f["rotate"]) if "rotate" in f else None,
                            tuple(float(v) for v in f.get("translate", (0.0, 0.0))), bool(f.get("reverse", False)),
                            tuple(f.get("default", ())), tuple(sorted(f.get("skip", {}).items())),
                            bool(f.get("only", False)),
                            tuple((k, tuple(v.items())) for k, v in sorted(f.get("bounds", {}).items()))))
    return tuple(frames)


def read_frames(path: Path) -> tuple[Frame, ...]:
    """The frames of ``path`` (none when there is no such file); InputError for a broken one."""
    if not path.exists():
        return ()
    return parse_frames(schema_files.read_valid(path, "frames"), str(path))


def with_frames(load: SuiteLoad, path: Path) -> SuiteLoad:
    """``load`` and, after its scenarios, every framed variant (see the module's contract)."""
    try:
        frames = read_frames(path)
        variants = _variants(load, frames, str(path))
    except InputError as err:
        return SuiteLoad(load.scenarios, load.broken + (BrokenFile(path, FRAMES_ID, err),))
    return SuiteLoad(load.scenarios + tuple(variants), load.broken)


def _variants(load: SuiteLoad, frames: tuple[Frame, ...], file: str) -> list[Scenario]:
    """Each frame's variants of the non-slow scenarios, checked against the file's lists."""
    known = {s.id: s for s in load.scenarios} | {b.presumed_id: None for b in load.broken}
    out = []
    for i, frame in enumerate(frames):
        for key, ids in (("default", frame.default), ("skip", [k for k, _ in frame.skip]),
                         ("bounds", [k for k, _ in frame.bounds])):
            for name in ids:
                if name not in known:
                    raise InputError(file, format_path(["frames", i, key]), f"no scenario {name!r}")
                if known[name] is not None and known[name].slow:
                    raise InputError(file, format_path(["frames", i, key]),
                                     f"{name!r} is slow: frames apply to the non-slow scenarios only")
        for s in load.scenarios:
            if s.slow or frame.skipped(s.id) is not None:
                continue
            variant = framed(s, frame)
            _check_limits(file, i, variant)
            out.append(variant)
    return out


def _check_limits(file: str, index: int, variant: Scenario) -> None:
    """Every point of the variant below 2^21 in magnitude, as the loader asks of a scenario."""
    points = [p for a in variant.scene.agents for p in (a.position, *a.waypoints)]
    points += [(s[0], s[1]) for s in variant.scene.segments] + [(s[2], s[3]) for s in variant.scene.segments]
    for x, y in points:
        if not (-POSITION_LIMIT < x < POSITION_LIMIT and -POSITION_LIMIT < y < POSITION_LIMIT):
            raise InputError(file, format_path(["frames", index]),
                             f"puts a coordinate of {split_id(variant.id)[0]} at ({x!r}, {y!r}), not below 2^21 "
                             "in magnitude (skip the scenario in this frame, with the reason)")
