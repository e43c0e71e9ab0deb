"""The ``exec:<command>`` runner: any port that speaks docs/protocol.md over stdin/stdout.

Contract: a port that crashes, segfaults, hangs, never answers, floods its output, prints
garbage, returns the wrong number of steps or reports an error becomes a ``RunnerError`` with
the reason and the tail of its stderr; so does a reply that does not follow its schema
(conformance/schemas/protocol/, the one definition of every message), naming the field and
what is wrong with it (an upper-case hash, a missing key, a number where a string belongs).
Every reply line has a length limit that follows from its request (reply_limits.py,
docs/protocol.md#limits): a longer line is a RunnerError naming the limit and the request, and
the harness holds at most the limit (plus one read buffer) of it, because stdout is read one
line at a time, when a reply is wanted, with a bounded readline (a port cannot queue up lines
either).  The stderr tail is bounded too (``Limits.stderr_bytes`` plus one read chunk), and the
hello's free text that goes into reports is cut to ``reply_limits.REPORT_TEXT`` characters.
The hello asks for protocol 2 and, when the port answers that with an error (a protocol-1 port),
for protocol 1 on the same process; both are accepted.  A protocol-2 hello's ``provides`` (the
vector families the port answers; absent: every one) becomes ``RunnerInfo.provides``, and a name
there that is no family of the suite is one RunnerError naming the key.
The whole process group is killed on timeout, on a bad reply and on close, and the next request
starts a fresh process; otherwise one process answers every request of the column, in turn
(``process_id`` tells which).  Requests are written by a separate thread, so a port that never
reads its stdin cannot block the harness.  ``exchange`` sends a request as it is (the protocol
row's unknown command) and reads one reply, bounded like an error reply; ``probe_hello`` checks
the handshake in a process of its own.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shlex
import signal
import subprocess
import threading
import time
from dataclasses import dataclass
from typing import Callable, Iterator

from ..contract import schema_files
from ..data import vectors
from ..errors import did_you_mean
from ..contract.scenario import Scene
from .base import (BadReply, BudgetExhausted, CannotStart, Flooded, NoReply, Runner, RunnerError, RunnerInfo,
                   StateDump, WrongCount)
from .error_reply import error_reply
from .reply_limits import (LineLimit, Overlong, cap_text, dump_limit, error_limit, hello_limit, read_line,
                           run_limit, vectors_limit)

PROTOCOL_VERSION = 2
"""The newest port protocol (docs/protocol.md): the version the harness asks for first."""
REFUSAL = "port reported an error during"
"""How the reason of a request answered with an error reply begins (the request and the message follow)."""
ACCEPTED_PROTOCOLS = (PROTOCOL_VERSION, 1)
"""Every version the harness speaks, newest first: a port that answers the hello of one with an
error is asked for the next, on the same process (a protocol-1 port refuses 2 that way)."""
_STEP_HASH = re.compile(r"[0-9a-f]{64}")


def schema_problem(data: dict, message: str) -> str | None:
    """Why ``data`` is not a valid ``message`` reply (``hello-reply``, ``run-step-reply``, ...):
    the field and the reason; None when it is."""
    if message == "run-step-reply" and _plain_step(data):
        return None
    found = schema_files.problem(f"protocol/{message}", data)
    return None if found is None else f"{found[0] or '(the reply)'}: {found[1][:200]}"


def _plain_step(data: dict) -> bool:
    """A run-step reply the schema surely accepts (exactly an int ``step`` >= 0 and a ``hash`` of
    64 lowercase hex digits): one comes per state, and the schema check took most of a piped
    port's fuzz time.  Anything else goes to the schema, whose reason names the field."""
    step, digest = data.get("step"), data.get("hash")
    return (len(data) == 2 and type(step) is int and step >= 0 and type(digest) is str
            and _STEP_HASH.fullmatch(digest) is not None)


def provided_families(hello: dict) -> tuple[str, ...] | None:
    """The vector families a valid hello reply declares, in the suite's order; None for every
    family (protocol 1, or protocol 2 without ``provides``).  ValueError naming the key when a
    name is no family of the suite, or when a protocol-1 reply carries ``provides``."""
    if "provides" not in hello:
        return None
    if hello["protocol"] == 1:
        raise ValueError("provides: protocol 1 has no provides (answer protocol 2 to declare the families)")
    names = hello["provides"]
    known = list(vectors.FAMILY_BY_NAME)
    unknown = [(k, name) for k, name in enumerate(names) if name not in vectors.FAMILY_BY_NAME]
    if unknown:
        said = [f"provides[{k}]: {name[:64]!r}" + (f" ({hint[2:]})" if (hint := did_you_mean(name, known)) else "")
                for k, name in unknown[:4]]
        what = "is not a vector family" if len(said) == 1 else "are not vector families"
        raise ValueError(f"{' and '.join(said)} {what} of the suite (the families: docs/protocol.md#vector-families)")
    return tuple(name for name in known if name in names)


@dataclass(frozen=True)
class Limits:
    """Time and size limits of one exec port: ``line_bytes`` is a ceiling over every request's
    own line limit (reply_limits.py), ``stderr_bytes`` the stderr tail kept."""

    handshake: float = 20.0
    reply: float = 60.0
    run: float = 1800.0
    line_bytes: int = 64 * 1024 * 1024
    stderr_bytes: int = 64 * 1024


_EOF = object()


class _Port:
    """One live process of a port, with reader threads for stdout and stderr.  The stdout reader
    reads a line only when ``reply`` asks for one (``_wanted`` carries the line's limit), so an
    unread reply stays in the pipe, not in the harness."""

    def __init__(self, argv: list[str], limits: Limits, env: dict | None = None):
        self.limits = limits
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         start_new_session=True, env=env)
        except OSError as err:
            raise CannotStart(f"cannot start {argv[0]!r}: {err.strerror or err}") from None
        self.lines: queue.Queue = queue.Queue()
        self._wanted: queue.Queue = queue.Queue()
        self.stderr_tail = bytearray()
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
        """One bounded line per limit taken from ``_wanted``; stops at end of file, at an over-long
        line (the rest is never read) and when ``kill`` puts None."""
        while True:
            limit = self._wanted.get()
            if limit is None:
                return
            line = read_line(self.proc.stdout, limit)
            self.lines.put(_EOF if line is None else line)
            if line is None or isinstance(line, Overlong):
                return

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

    def fail(self, reason: str, kind: Callable[[str, str], RunnerError] = RunnerError) -> RunnerError:
        """Kill the process group; the error of ``kind`` (of the reason and stderr), with the signal that killed it."""
        status = self.proc.poll()  # before our own kill, so that SIGKILL from us is not reported
        self.kill()
        if status is not None and status < 0:
            try:
                reason += f" (killed by {signal.Signals(-status).name})"
            except ValueError:
                reason += f" (signal {-status})"
        time.sleep(0.05)  # let the stderr reader drain what the dying port wrote
        return kind(reason, self.stderr())

    def reply(self, timeout: float, what: str, message: str, limit: LineLimit, refusal: bool = False) -> dict:
        """Next reply line as a JSON object following the schema of ``message`` (or, with
        ``refusal``, an error reply, returned as it is); RunnerError on timeout, EOF, a line
        longer than ``limit`` (capped at ``Limits.line_bytes``), garbage, an error reply or a
        reply off its schema."""
        limit = limit.capped(self.limits.line_bytes)
        self._wanted.put(limit.bytes)
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise self.fail(f"no reply to {what} within {timeout:.0f} s", NoReply) from None
        if isinstance(line, Overlong):
            raise self.fail(limit.reason(what, line.head), Flooded)
        if line is _EOF:
            status = self.proc.wait(timeout=5) if self.proc.poll() is None else self.proc.poll()
            if status is not None and status < 0:
                raise self.fail(f"port died during {what}")
            raise self.fail(f"port exited (status {status}) during {what}")
        try:
            data = json.loads(line)
        except (ValueError, UnicodeDecodeError):
            raise self.fail(f"garbage reply to {what}: {line[:120]!r}", BadReply) from None
        if not isinstance(data, dict):
            raise self.fail(f"reply to {what} is not a JSON object: {line[:120]!r}", BadReply)
        if "error" in data and refusal:
            return data
        if "error" in data:
            error = str(data["error"])[:300]
            raise self.fail(f"{REFUSAL} {what}: {error}", error_reply(what, error))
        if message == "run-step-reply" and "done" in data:
            message = "run-done-reply"  # a run that ends early: the caller says what is wrong
        problem = schema_problem(data, message)
        if problem:
            raise self.fail(f"reply to {what} does not follow the protocol ({message}.schema.json): {problem}", BadReply)
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
        self._wanted.put(None)

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
        self._provides: tuple[str, ...] | None = None

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
        hello = self._handshake(port)
        try:
            self._provides = provided_families(hello)
        except ValueError as err:
            raise port.fail(f"reply to hello does not follow the protocol (docs/protocol.md#hello): "
                            f"{err}", BadReply) from None
        self._port = port
        self._hello = {cap_text(str(k)): cap_text(str(v)) for k, v in hello["port"].items()}  # for the reports
        return port

    def _handshake(self, port: _Port) -> dict:
        """The hello reply: each of ACCEPTED_PROTOCOLS asked in turn while the port answers the
        hello with an error (the last one's error is the cell's reason)."""
        for version in ACCEPTED_PROTOCOLS:
            port.send({"cmd": "hello", "protocol": version})
            hello = port.reply(self.limits.handshake, "hello", "hello-reply", hello_limit(),
                               refusal=version != ACCEPTED_PROTOCOLS[-1])
            if "error" not in hello:
                break
        return hello

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
                          flags=str(self.extra.get("flags", port.get("flags", ""))), versions=versions,
                          provides=self._provides)

    def hashes(self, scene: Scene, steps: int | None = None) -> Iterator[str]:
        """The run request carries the whole scene and ``"steps": steps`` (default the scene's):
        exactly steps + 1 step lines and ``{"done": steps}`` are wanted, no more, no fewer."""
        steps = scene.steps if steps is None else steps
        port = self._live()
        port.send({"cmd": "run", "scene": scene.to_json(), "steps": steps})
        deadline = time.monotonic() + self.limits.run
        finished = False
        try:
            for step in range(steps + 1):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise port.fail(f"run exceeded its {self.limits.run:.0f} s budget at step {step}", BudgetExhausted)
                data = port.reply(min(self.limits.reply, left), f"run (step {step})", "run-step-reply", run_limit())
                if "done" in data:
                    raise port.fail(f"returned {step} states, expected {steps + 1}", WrongCount)
                if data["step"] != step:
                    raise port.fail(f"bad step reply, want step {step}: {str(data)[:200]}")
                yield data["hash"]
            data = port.reply(self.limits.reply, "run (done)", "run-step-reply", run_limit())
            if "done" not in data:
                raise port.fail(f"returned more than the {steps + 1} states asked for: {str(data)[:200]}", WrongCount)
            if data["done"] != steps:
                raise port.fail(f"expected {{\"done\": {steps}}} after the last step, got {str(data)[:200]}",
                                WrongCount)
            finished = True
        finally:
            if not finished:
                self._drop()  # stopped early (divergence) or failed: the port may still be writing

    def dump(self, scene: Scene, step: int) -> StateDump:
        port = self._live()
        port.send({"cmd": "dump", "scene": scene.to_json(), "step": step})
        data = port.reply(self.limits.run, f"dump (step {step})", "dump-reply",  # 6 lower-case hex doubles
                          dump_limit(len(scene.agents)))
        agents = data["agents"]
        if data["step"] != step or len(agents) != len(scene.agents):
            self._drop()
            raise RunnerError(f"bad dump reply: want step {step} and {len(scene.agents)} agents")
        return StateDump(step, tuple(tuple(vectors.unhexd(v) for v in row) for row in agents))  # type: ignore[arg-type]

    def vectors(self, family: str, args: list[list]) -> list[list]:
        port = self._live()
        port.send({"cmd": "vectors", "family": family, "cases": args})
        data = port.reply(self.limits.run, f"vectors ({family})", "vectors-reply", vectors_limit(family, args))
        results = data["results"]
        if len(results) != len(args):
            self._drop()
            raise RunnerError(f"bad vectors reply for {family}: want {len(args)} results")
        return results

    def process_id(self) -> int | None:
        """The pid of the port's live process; None when none runs (the next request starts one)."""
        return self._port.proc.pid if self._port is not None and self._port.proc.poll() is None else None

    def exchange(self, request: dict, what: str, message: str = "error-reply") -> dict:
        """Send one request as it is on the live process and read one reply line, bounded by
        ``error_limit()``: the reply when it is an error reply, or else one that follows the schema
        of ``message``; RunnerError (the process killed) on no reply in time, end of output (a
        crash), garbage, an over-long line or a reply off that schema."""
        port = self._live()
        port.send(request)
        return port.reply(self.limits.reply, what, message, error_limit(), refusal=True)

    def probe_hello(self, version: int) -> tuple[dict, dict]:
        """In a fresh process of its own (the column's live one is left alone): the reply to a
        hello of ``version`` (an error reply, or a hello reply following its schema), then the
        reply to the handshake every process gets (``_handshake``, its ``provides`` checked), then
        ``bye``.  RunnerError as for the column's own start."""
        self._prepare()
        port = _Port(self.argv, self.limits, self.env)
        try:
            port.send({"cmd": "hello", "protocol": version})
            first = port.reply(self.limits.handshake, f"hello (protocol {version})", "hello-reply", hello_limit(),
                               refusal=True)
            hello = self._handshake(port)
            try:
                provided_families(hello)
            except ValueError as err:
                raise port.fail(f"reply to hello does not follow the protocol (docs/protocol.md#hello): "
                                f"{err}", BadReply) from None
            return first, hello
        finally:
            port.close()

    def close(self) -> None:
        if self._port is not None:
            self._port.close()
            self._port = None
