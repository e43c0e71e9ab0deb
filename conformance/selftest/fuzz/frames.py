"""Frames under fuzz: a scene that passed, rotated, translated, mirrored or reordered, run again.

Contract: ``scene_frame(seed, index, scene)`` is the frame (``contract.frames.Frame``) of the
scene ``(seed, index)``, a function of the suite version, the seed, the index and the scene's
extent alone: a turn of k/360 (k from 1 to 359, never a quarter turn) or, one time in four, of
an eighth (cos = sin, inexact: an axis-aligned line becomes a diagonal whose two coordinates are
the same bits); a translation by (1e4, 1e4), by (2^20 + 0.1, 2^20 + 0.1) or by none, the largest
that keeps every coordinate below 2^21; a mirror and a reversal of the agents and segments, each
one time in two.  ``framed(fs, frame)`` is the ``FuzzScene`` of the same kind, seed and index
whose scene is ``frames.transform(fs.scene, frame)`` and whose id ends in ``~NAME``; it keeps the
scene it came from (``base``), so that ``shrink_framed`` shrinks that scene and applies the frame
to each candidate: the frame stays while the framed scene still fails, and the shrunk scenario
is the framed one.
"""

from __future__ import annotations

import dataclasses
import random

from ... import __version__
from ...contract.frames import Frame, transform
from ...contract.scenario import POSITION_LIMIT, Scene
from .scenes import FuzzScene
from .shrink import Oracle, Shrunk, shrink

SHIFTS: tuple[tuple[str, float], ...] = (("shift2p20", 1048576.1), ("shift1e4", 10000.0), ("", 0.0))
"""The translations a frame may take, largest first, with their part of the frame's name."""


def extent(scene: Scene) -> float:
    """The largest magnitude of any coordinate of the scene's points."""
    values = [abs(c) for a in scene.agents for p in (a.position, *a.waypoints) for c in p]
    return max(values + [abs(c) for s in scene.segments for c in s] + [0.0])


def scene_frame(seed: int, index: int, scene: Scene) -> Frame:
    """The frame the scene ``(seed, index)`` is run in after it passed (see the module doc)."""
    rng = random.Random(f"orca-conformance {__version__} fuzz frame seed={seed} index={index}")
    turn = (1, 8) if rng.random() < 0.25 else (rng.choice([k for k in range(1, 360) if k % 90]), 360)
    room = POSITION_LIMIT - 1.5 * extent(scene)  # a turn moves a point by at most sqrt(2) of its extent
    fitting = [(name, v) for name, v in SHIFTS if v < room]
    label, shift = rng.choice(fitting) if fitting else ("", 0.0)
    mirror, reverse = rng.random() < 0.5, rng.random() < 0.5
    parts = (["mirror"] if mirror else []) + [f"rot{turn[0]}of{turn[1]}"] + ([label] if label else []) \
        + (["reverse"] if reverse else [])
    return Frame("-".join(parts), "fuzz frame", mirror=mirror, turn=turn, shift=(shift, shift), reverse=reverse)


@dataclasses.dataclass(frozen=True)
class FramedScene(FuzzScene):
    """A fuzz scene in a frame: ``scene`` is the framed one, ``base`` the scene it came from."""

    frame: Frame | None = None
    base: Scene | None = None

    @property
    def id(self) -> str:
        return f"fuzz/{self.kind}-{self.seed}-{self.index}~{self.frame.name}"


def framed(fs: FuzzScene, frame: Frame) -> FramedScene:
    """``fs`` in ``frame`` (see the module doc)."""
    return FramedScene(fs.kind, fs.seed, fs.index, transform(fs.scene, frame), frame, fs.scene)


def shrink_framed(fs: FramedScene, step: int, diverges: Oracle, budget: float) -> tuple[Shrunk, bool]:
    """The framed scene shrunk through its base: each candidate is the base reduced, then framed;
    the ``Shrunk`` holds the framed small scene.  The flag: the small base, unframed, still fails
    too (the frame was not needed)."""
    frame = fs.frame
    small = shrink(fs.base, step, lambda base: diverges(transform(base, frame)), budget)
    without = diverges(small.scene) is not None
    return dataclasses.replace(small, scene=transform(small.scene, frame)), without
