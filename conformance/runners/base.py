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
    """The port failed (crash, hang, garbage, wrong count, NaN); the reason is shown.

    The class says what happened, the reason only says it to a person: the judge decides by
    ``isinstance`` and by ``diagnosable`` (whether asking the same port for dumps of the failing
    step can tell more), never by the reason's words.  A plain ``RunnerError`` is a failure of
    the step itself (a crash, a trap, a port that exited): diagnosable."""

    diagnosable = True

    def __init__(self, reason: str, stderr_tail: str = ""):
        self.reason = reason
        self.stderr_tail = stderr_tail
        super().__init__(reason + (f"\n--- stderr tail ---\n{stderr_tail}" if stderr_tail else ""))


class BudgetExhausted(RunnerError):
    """A call into an in-process guest (the wasm module, an emulated CPU) outlived its budget
    (its fuel, or its wall-clock seconds), or a port's run outlived the run budget.  A runaway
    port, or a budget too small for the work."""

    diagnosable = False


class NoReply(RunnerError):
    """A port behind a pipe sent nothing in time (a run past its budget included): asking it
    again would wait as long."""

    diagnosable = False


class Flooded(RunnerError):
    """A reply line past its byte limit, or output without a newline: the port was stopped."""

    diagnosable = False


class Refused(RunnerError):
    """The port answered a request with an error reply (a TODO, an unsupported request):
    ``request`` is the request it refused (``run (step 1)``), ``message`` the port's own words."""

    def __init__(self, reason: str, stderr_tail: str = "", request: str = "", message: str = ""):
        self.request, self.message = request, message
        super().__init__(reason, stderr_tail)


class CannotStart(RunnerError):
    """The port could not be built, loaded or started: nothing of it ran (a failed build is this
    too, its reason "build failed: " and the compiler's message)."""

    diagnosable = False


class OutOfMemory(RunnerError):
    """The port (or its guest heap) could not allocate what the scene needs."""

    diagnosable = False


class NonFinite(RunnerError):
    """A run met a NaN or an infinity at state ``step``; ``agent`` and ``field`` (``velocity.x``)
    name the first value that is not finite, when the port said (else None and "")."""

    def __init__(self, step: int, agent: int | None = None, field: str = "", value: str = "",
                 stderr_tail: str = "", reason: str = ""):
        self.step, self.agent, self.field, self.value = step, agent, field, value
        named = f": agent {agent} {field} is {value}" if agent is not None else ""
        super().__init__(reason or f"non-finite state at step {step}{named}", stderr_tail)

    def what(self) -> str:
        """``agent i field``, or "" when the port did not name one."""
        return f"agent {self.agent} {self.field}" if self.agent is not None else ""


class BadReply(RunnerError):
    """The port answered with a line that is no reply: not JSON, not an object, or off its
    message's schema (docs/protocol-schemas.md); the reason quotes the line or the schema's
    complaint.  Diagnosable: the same port may still dump the failing step."""


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
