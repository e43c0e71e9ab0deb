"""The ``exec:<command>`` runner: any port that speaks docs/protocol.md over stdin/stdout.

Contract: a port that crashes, segfaults, hangs, never answers, floods its output, prints
garbage, returns the wrong number of steps or reports an error becomes a ``RunnerError`` with
the reason and the tail of its stderr; so does a reply that does not follow its schema
(conformance/schemas/protocol/, the one definition of every message), naming the field and
what is wrong with it (an upper-case hash, a missing key, a number where a string belongs).
The whole process group is killed on timeout, on a bad reply and on close, and the next request
starts a fresh process.  Requests are written by a
separate thread, so a port that never reads its stdin cannot block the harness.
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import Iterator

from ..contract import schema_files
from ..data import vectors
from ..contract.scenario import Scene
from .base import Runner, RunnerError, RunnerInfo, StateDump

PROTOCOL_VERSION = 1


def schema_problem(data: dict, message: str) -> str | None:
    """Why ``data`` is not a valid ``message`` reply (``hello-reply``, ``run-step-reply``, ...):
    the field and the reason; None when it is."""
    found = schema_files.problem(f"protocol/{message}", data)
    return None if found is None else f"{found[0] or '(the reply)'}: {found[1][:200]}"


@dataclass(frozen=True)
class Limits:
    """Time and size limits of one exec port."""

    handshake: float = 20.0
    reply: float = 60.0
    run: float = 1800.0
    line_bytes: int = 64 * 1024 * 1024
    stderr_bytes: int = 64 * 1024


_EOF = object()


class _Port:
    """One live process of a port, with reader threads for stdout and stderr."""

    def __init__(self, argv: list[str], limits: Limits, env: dict | None = None):
        self.limits = limits
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         start_new_session=True, env=env)
        except OSError as err:
            raise RunnerError(f"cannot start {argv[0]!r}: {err.strerror or err}") from None
        self.lines: queue.Queue = queue.Queue()
        self.stderr_tail = bytearray()
        self.flooded = False
        self._writes: queue.Queue = queue.Queue()
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        threading.Thread(target=self._write_stdin, daemon=True).start()

    @staticmethod
    def _chunks(stream):
        """Raw chunks of a pipe until end of file (a read error counts as the end)."""
        fd = stream.fileno()
        while True:
            try:
                chunk = os.read(fd, 1 << 16)
            except OSError:
                return
            if not chunk:
                return
            yield chunk

    def _read_stdout(self) -> None:
        pending = bytearray()
        for chunk in self._chunks(self.proc.stdout):
            pending += chunk
            while True:
                cut = pending.find(b"\n")
                if cut < 0:
                    break
                self.lines.put(bytes(pending[:cut]))
                del pending[:cut + 1]
            if len(pending) > self.limits.line_bytes:
                self.flooded = True
                self.lines.put(_EOF)
                return
        if pending:
            self.lines.put(bytes(pending))
        self.lines.put(_EOF)

    def _read_stderr(self) -> None:
        for chunk in self._chunks(self.proc.stderr):
            self.stderr_tail += chunk
            if len(self.stderr_tail) > self.limits.stderr_bytes:
                del self.stderr_tail[:len(self.stderr_tail) - self.limits.stderr_bytes]

    def _write_stdin(self) -> None:
        while True:
            data = self._writes.get()
            if data is None:
                return
            try:
                self.proc.stdin.write(data)
                self.proc.stdin.flush()
            except (OSError, ValueError):
                return

    def send(self, request: dict) -> None:
        self._writes.put(json.dumps(request, separators=(",", ":")).encode() + b"\n")

    def stderr(self) -> str:
        return self.stderr_tail.decode("utf-8", "replace")[-4000:]

    def fail(self, reason: str) -> RunnerError:
        """Kill the process group and build the error (with the signal when the port died of one)."""
        status = self.proc.poll()  # before our own kill, so that SIGKILL from us is not reported
        self.kill()
        if status is not None and status < 0:
            try:
                reason += f" (killed by {signal.Signals(-status).name})"
            except ValueError:
                reason += f" (signal {-status})"
        time.sleep(0.05)  # let the stderr reader drain what the dying port wrote
        return RunnerError(reason, self.stderr())

    def reply(self, timeout: float, what: str, message: str) -> dict:
        """Next reply line as a JSON object following the schema of ``message`` (or an error
        reply); RunnerError on timeout, EOF, flood, garbage or a reply off its schema."""
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise self.fail(f"no reply to {what} within {timeout:.0f} s") from None
        if line is _EOF:
            if self.flooded:
                raise self.fail(f"reply to {what} exceeded {self.limits.line_bytes} bytes without a newline")
            status = self.proc.wait(timeout=5) if self.proc.poll() is None else self.proc.poll()
            if status is not None and status < 0:
                raise self.fail(f"port died during {what}")
            raise self.fail(f"port exited (status {status}) during {what}")
        try:
            data = json.loads(line)
        except (ValueError, UnicodeDecodeError):
            raise self.fail(f"garbage reply to {what}: {line[:120]!r}") from None
        if not isinstance(data, dict):
            raise self.fail(f"reply to {what} is not a JSON object: {line[:120]!r}")
        if "error" in data:
            raise self.fail(f"port reported an error during {what}: {str(data['error'])[:300]}")
        if message == "run-step-reply" and "done" in data:
            message = "run-done-reply"  # a run that ends early: the caller says what is wrong
        problem = schema_problem(data, message)
        if problem:
            raise self.fail(f"reply to {what} does not follow the protocol ({message}.schema.json): {problem}")
        return data

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        self._writes.put(None)

    def close(self) -> None:
        if self.proc.poll() is None:
            self.send({"cmd": "bye"})
            try:
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                pass
        self.kill()


class ExecRunner(Runner):
    """A column driven through the port protocol."""

    def __init__(self, runner_id: str, command: str | list[str], limits: Limits = Limits(),
                 env: dict | None = None, describe: dict | None = None):
        self.id = runner_id
        self.argv = shlex.split(command) if isinstance(command, str) else list(command)
        self.limits = limits
        self.env = env
        self.extra = describe or {}
        self._port: _Port | None = None
        self._hello: dict | None = None

    def _prepare(self) -> None:
        """Before the first process starts: subclasses build their port here (RunnerUnavailable
        or RunnerError when they cannot)."""

    def _live(self) -> _Port:
        self._prepare()
        if self._port is not None and self._port.proc.poll() is None:
            return self._port
        if self._port is not None:
            self._port.kill()
        port = _Port(self.argv, self.limits, self.env)
        port.send({"cmd": "hello", "protocol": PROTOCOL_VERSION})
        hello = port.reply(self.limits.handshake, "hello", "hello-reply")  # the schema pins protocol 1
        self._port = port
        self._hello = hello["port"]
        return port

    def _drop(self) -> None:
        if self._port is not None:
            self._port.kill()
            self._port = None

    def info(self) -> RunnerInfo:
        self._live()
        port = self._hello or {}
        versions = {k: str(v) for k, v in port.items() if k not in ("compiler", "flags", "platform")}
        versions.update({k: str(v) for k, v in self.extra.get("versions", {}).items()})
        return RunnerInfo(self.id, str(port.get("name", "?")), platform=str(port.get("platform", "?")),
                          architecture=str(self.extra.get("architecture", port.get("platform", "?"))),
                          compiler=str(self.extra.get("compiler", port.get("compiler", ""))),
                          flags=str(self.extra.get("flags", port.get("flags", ""))), versions=versions)

    def hashes(self, scene: Scene) -> Iterator[str]:
        port = self._live()
        port.send({"cmd": "run", "scene": scene.to_json(), "steps": scene.steps})
        deadline = time.monotonic() + self.limits.run
        finished = False
        try:
            for step in range(scene.steps + 1):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise port.fail(f"run exceeded its {self.limits.run:.0f} s budget at step {step}")
                data = port.reply(min(self.limits.reply, left), f"run (step {step})", "run-step-reply")
                if "done" in data:
                    raise port.fail(f"returned {step} states, expected {scene.steps + 1}")
                if data["step"] != step:
                    raise port.fail(f"bad step reply, want step {step}: {str(data)[:200]}")
                yield data["hash"]
            data = port.reply(self.limits.reply, "run (done)", "run-step-reply")
            if "done" not in data:
                raise port.fail(f"returned more than the {scene.steps + 1} states asked for: {str(data)[:200]}")
            if data["done"] != scene.steps:
                raise port.fail(f"expected {{\"done\": {scene.steps}}} after the last step, got {str(data)[:200]}")
            finished = True
        finally:
            if not finished:
                self._drop()  # stopped early (divergence) or failed: the port may still be writing

    def dump(self, scene: Scene, step: int) -> StateDump:
        port = self._live()
        port.send({"cmd": "dump", "scene": scene.to_json(), "step": step})
        data = port.reply(self.limits.run, f"dump (step {step})", "dump-reply")  # 6 lower-case hex doubles
        agents = data["agents"]
        if data["step"] != step or len(agents) != len(scene.agents):
            self._drop()
            raise RunnerError(f"bad dump reply: want step {step} and {len(scene.agents)} agents")
        return StateDump(step, tuple(tuple(vectors.unhexd(v) for v in row) for row in agents))  # type: ignore[arg-type]

    def vectors(self, family: str, args: list[list]) -> list[list]:
        port = self._live()
        port.send({"cmd": "vectors", "family": family, "cases": args})
        data = port.reply(self.limits.run, f"vectors ({family})", "vectors-reply")
        results = data["results"]
        if len(results) != len(args):
            self._drop()
            raise RunnerError(f"bad vectors reply for {family}: want {len(args)} results")
        return results

    def close(self) -> None:
        if self._port is not None:
            self._port.close()
            self._port = None
