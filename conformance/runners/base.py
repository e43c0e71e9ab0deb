"""The runner interface: what every column of the hash matrix implements.

Contract: a ``Runner`` has a typed id (``c``, ``c:O0``, ``exec:./port``...).  ``info()``
describes it (or raises ``RunnerUnavailable`` with the reason, making its cells SKIPPED);
``hashes(scene, steps)`` yields the hex SHA-256 of states 0..steps lazily (closing the iterator
stops the work): exactly ``steps + 1`` of them, ``steps`` defaulting to ``scene.steps`` and
possibly fewer (the scene itself is sent or built unchanged: an exec port gets ``"steps": k`` in
its run request, an in-process column advances only k steps); ``dump(scene, step)`` returns the full state after ``step`` steps with the
preferred velocities computed from it; ``vectors(family, args)`` evaluates primitive vectors
in the protocol encoding, for the families ``info().provides`` names (None: every family; a
port that wraps a library may answer only some, docs/protocol.md, "hello").  Anything that
goes wrong inside the port raises ``RunnerError`` with a reason (and a stderr tail when there
is one): the cell becomes ERROR and the suite goes on.
"""

from __future__ import annotations

import platform
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Iterator

from ..contract.scenario import Scene


class RunnerUnavailable(Exception):
    """The runner cannot run here (missing compiler, emulator, engine); the reason is shown."""


class RunnerError(Exception):
    """The port failed (crash, hang, garbage, wrong count, NaN); the reason is shown."""

    def __init__(self, reason: str, stderr_tail: str = ""):
        self.reason = reason
        self.stderr_tail = stderr_tail
        super().__init__(reason + (f"\n--- stderr tail ---\n{stderr_tail}" if stderr_tail else ""))


class BudgetExhausted(RunnerError):
    """A call into an in-process guest (the wasm module, an emulated CPU) outlived its budget:
    its fuel, or its wall-clock seconds.  A runaway port, or a budget too small for the work."""


class WrongCount(RunnerError):
    """The port answered a run with another number of states than the request asked for."""


@dataclass(frozen=True)
class RunnerInfo:
    """Self-description of a runner, copied into reports."""

    id: str
    name: str
    platform: str = field(default_factory=lambda: f"{platform.system().lower()}-{platform.machine().lower()}")
    architecture: str = field(default_factory=lambda: platform.machine().lower())
    compiler: str = ""
    flags: str = ""
    versions: dict = field(default_factory=dict)
    provides: tuple[str, ...] | None = None
    """The vector families the runner answers (its hello's ``provides``); None for every family."""

    def to_json(self) -> dict:
        out = {"id": self.id, "name": self.name, "platform": self.platform, "architecture": self.architecture,
               "compiler": self.compiler, "flags": self.flags, "versions": dict(self.versions)}
        if self.provides is not None:
            out["provides"] = list(self.provides)
        return out


@dataclass(frozen=True)
class StateDump:
    """The state after ``step`` steps: per agent (px, py, vx, vy, prefx, prefy)."""

    step: int
    agents: tuple[tuple[float, float, float, float, float, float], ...]


DUMP_FIELDS = ("position.x", "position.y", "velocity.x", "velocity.y", "preferred.x", "preferred.y")


class Runner(ABC):
    """One column of the matrix."""

    id: str
    cost: float = 1.0
    """The column's time as a multiple of the native build's, measured once (docs/unicorn.md): the
    order in which the matrix starts its columns, dearest first; never part of a verdict."""

    @abstractmethod
    def info(self) -> RunnerInfo:
        """Describe the runner; raise RunnerUnavailable when it cannot run here."""

    @abstractmethod
    def hashes(self, scene: Scene, steps: int | None = None) -> Iterator[str]:
        """Hex SHA-256 of states 0..steps (default ``scene.steps``; never more than asked), lazily."""

    @abstractmethod
    def dump(self, scene: Scene, step: int) -> StateDump:
        """Full state after ``step`` steps."""

    @abstractmethod
    def vectors(self, family: str, args: list[list]) -> list[list]:
        """Results of one family's cases, in the protocol encoding."""

    def close(self) -> None:
        """Release processes and libraries."""
