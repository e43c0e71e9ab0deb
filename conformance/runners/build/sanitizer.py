"""Sanitizer builds of the C library, loaded by cffi into a Python that is not sanitized.

Contract: ``SANITIZERS`` names the two supported ones, ``address`` (AddressSanitizer: heap and
stack overflows, use after free) and ``thread`` (ThreadSanitizer: data races).
``compile_flags(name)`` is what a build adds to the determinism flags (``-fsanitize=NAME
-fno-omit-frame-pointer -g``; they stay on the one command line that also links the shared
library, so the build layer needs nothing else, and they change no floating-point bit: the
unmutated sources pass every scenario and vector under either).

Python is not built with the sanitizer, so the runtime must be the first library of the process
that loads such a build: ``environment(name)`` is the environment of that child process,
``LD_PRELOAD`` of the runtime the compiler names (``gcc -print-file-name=libasan.so``, resp.
``libtsan.so``) and the runtime's options (``_OPTIONS``).  The child drops the preload for its
own children (``drop_preload``: a compiler run under it prints leak reports, bash segfaults
under TSan).  ``unavailable(name)`` is None
when all that works on this host, else the reason (not Linux, no runtime, or a probe child
that cannot start with it).  ``find_report(text)`` is the first sanitizer report of a child's
stderr, with its first line and first frame.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .layer import Toolchain, system_cc

SANITIZERS = ("address", "thread")
EXIT_STATUS = 66
"""The exit status of a child stopped by a sanitizer report (distinct from Python's 1)."""

_RUNTIME = {"address": "libasan.so", "thread": "libtsan.so"}
_OPTIONS = {
    "address": ("ASAN_OPTIONS", f"detect_leaks=0:halt_on_error=1:exitcode={EXIT_STATUS}:abort_on_error=0:"
                                "allocator_may_return_null=1"),
    "thread": ("TSAN_OPTIONS", f"halt_on_error=1:exitcode={EXIT_STATUS}:report_signal_unsafe=0:"
                               "allocator_may_return_null=1"),
}
"""Each runtime's options: no leak report (Python's own allocations at exit would trip it), stop
at the first report with ``EXIT_STATUS``, a failed allocation returns NULL as glibc's does (the
solver handles it) instead of a report, and no TSan report on the signal handlers of Python
itself (not the library's code)."""
_TOOL = {"AddressSanitizer": "address", "ThreadSanitizer": "thread", "LeakSanitizer": "address"}
SIGNAL_KINDS = ("SEGV", "BUS", "FPE", "ILL", "ABRT")
"""Report kinds that are a sanitizer catching a signal: crashes, not sanitizer findings."""


class SanitizerUnavailable(RuntimeError):
    """The sanitizer cannot be used on this host (the message says why)."""


def check_name(name: str) -> str:
    """``name`` when it is one of ``SANITIZERS``; ValueError naming the known ones otherwise."""
    if name not in SANITIZERS:
        raise ValueError(f"unknown sanitizer {name!r} (known: {', '.join(SANITIZERS)})")
    return name


def compile_flags(name: str) -> tuple[str, ...]:
    """The flags a sanitizer build adds (to the determinism flags and the optimisation level);
    ``-g`` only names the source line in a report (gcc's -g never changes the code generated)."""
    return (f"-fsanitize={check_name(name)}", "-fno-omit-frame-pointer", "-g")


def runtime(name: str, toolchain: Toolchain | None = None) -> Path:
    """The shared runtime of the sanitizer that ``toolchain`` (default the host compiler) links
    against; SanitizerUnavailable when the compiler does not know it (it then answers the bare
    file name) or cannot run."""
    toolchain = toolchain or system_cc()
    wanted = _RUNTIME[check_name(name)]
    try:
        done = subprocess.run([*toolchain.command, f"-print-file-name={wanted}"], capture_output=True, text=True,
                              timeout=60)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise SanitizerUnavailable(f"{toolchain.command[0]} -print-file-name={wanted} failed: {err}") from None
    answer = done.stdout.strip()
    if done.returncode != 0 or not answer or answer == wanted or not Path(answer).is_file():
        raise SanitizerUnavailable(f"{toolchain.command[0]} has no {wanted} (-print-file-name answered "
                                   f"{answer or 'nothing'!r})")
    return Path(answer).resolve()


def environment(name: str, base: dict[str, str] | None = None, toolchain: Toolchain | None = None) -> dict[str, str]:
    """``base`` (default this process's environment) with the runtime preloaded first and the
    runtime's options in front of any the user set (the user's win, coming later)."""
    env = dict(os.environ if base is None else base)
    preload = str(runtime(name, toolchain))
    env["LD_PRELOAD"] = ":".join(p for p in (preload, env.get("LD_PRELOAD", "")) if p)
    variable, options = _OPTIONS[name]
    env[variable] = ":".join(p for p in (options, env.get(variable, "")) if p)
    return env


def drop_preload() -> None:
    """Removes the sanitizer runtimes from this process's ``LD_PRELOAD`` (they stay loaded here),
    so that the processes it starts, the compiler among them, run without them."""
    kept = [p for p in os.environ.get("LD_PRELOAD", "").split(":")
            if p and Path(p).name.split(".so")[0] not in ("libasan", "libtsan")]
    if kept:
        os.environ["LD_PRELOAD"] = ":".join(kept)
    else:
        os.environ.pop("LD_PRELOAD", None)


def loaded(name: str) -> bool:
    """Whether the sanitizer's runtime is mapped into this process (``/proc/self/maps``)."""
    stem = _RUNTIME[check_name(name)].split(".so")[0]
    try:
        maps = Path("/proc/self/maps").read_text()
    except OSError:
        return False
    return re.search(rf"/{stem}\.so[.\d]*$", maps, re.MULTILINE) is not None


@lru_cache(maxsize=None)
def unavailable(name: str) -> str | None:
    """None when a Python child with ``environment(name)`` starts and loads cffi cleanly on this
    host, else the reason (asked once per process)."""
    if not sys.platform.startswith("linux"):
        return f"the {name} sanitizer runs here only on Linux (LD_PRELOAD of its runtime), not {sys.platform}"
    try:
        env = environment(name)
    except SanitizerUnavailable as err:
        return str(err)
    probe = [sys.executable, "-c", "import cffi, hashlib, json; print('ok')"]
    try:
        done = subprocess.run(probe, capture_output=True, text=True, timeout=120, env=env)
    except (OSError, subprocess.TimeoutExpired) as err:
        return f"a Python with {env['LD_PRELOAD']} preloaded did not start: {err}"
    if done.returncode != 0 or done.stdout.strip() != "ok":
        tail = (done.stderr.strip().splitlines() or [f"status {done.returncode}"])[-1]
        return f"a Python with {env['LD_PRELOAD']} preloaded fails: {tail}"
    return None


@dataclass(frozen=True)
class Report:
    """A sanitizer's report: which sanitizer (``address`` or ``thread``), the bug kind
    (``heap-buffer-overflow``, ``data``, ``SEGV``...), its first line (the ``==pid==`` prefix and
    ``(pid=N)`` dropped) and its first stack frame (function, and file:line when built with -g)."""

    sanitizer: str
    kind: str
    line: str
    frame: str = ""

    @property
    def is_signal(self) -> bool:
        """The sanitizer caught a signal (a crash, reported with its context)."""
        return self.kind.upper() in SIGNAL_KINDS

    @property
    def detail(self) -> str:
        return f"{self.line} ({self.frame})" if self.frame else self.line


_HEADER = re.compile(r"^(?:==\d+==)?(?:ERROR|WARNING): (AddressSanitizer|ThreadSanitizer|LeakSanitizer): "
                     r"(\S+)(.*)$", re.MULTILINE)
_FRAME = re.compile(r"^\s*#0 (?:0x[0-9a-f]+ in )?(\S+)(?: ([^\s(]+?:\d+))?", re.MULTILINE)


def find_report(text: str) -> Report | None:
    """The first sanitizer report in ``text`` (a child's stderr), or None."""
    match = _HEADER.search(text or "")
    if match is None:
        return None
    line = re.sub(r"^==\d+==", "", match.group(0)).strip()
    line = re.sub(r" \(pid=\d+\)", "", line)
    frame = _FRAME.search(text, match.end())
    where = ""
    if frame is not None:
        where = f"#0 {frame.group(1)}" + (f" {Path(frame.group(2)).name}" if frame.group(2) else "")
    return Report(_TOOL[match.group(1)], match.group(2), line, where)
