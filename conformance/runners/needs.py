"""What every column needs, whether it is here, and the command that installs what is missing.

Contract: ``column_needs(id)`` lists the ``Need``s of one column id (empty for ids that need
nothing but Python, such as ``reference``; ``exec:`` ports need "your port", which the suite
cannot check); every ``Need`` says whether it is present, the version found (or why not) and
the exact install command.  ``needs_line(id)`` is the one-line summary that both
``orca-conformance doctor`` and the matrix's SKIPPED lines print.  Columns defined above the
runners (the controls) put their need kinds in ``COLUMN_NEEDS``.  Nothing here raises for a
missing tool: a check that cannot run is a missing need.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import Callable

MIN_NODE_MAJOR = 18
"""The Node.js the README asks for (the wasm-v8 column itself refuses anything before 16)."""


@dataclass(frozen=True)
class Need:
    """One thing a column needs: present or not, the version found, how to install it."""

    name: str
    present: bool
    found: str
    """The version found when present, else why it is missing."""
    install: str
    """The exact command that installs it (shown when it is missing)."""

    def short(self) -> str:
        if self.present:
            return f"{self.name} {self.found}"
        return f"{self.name} MISSING ({self.install})"


def _package(name: str, install: str) -> Need:
    try:
        return Need(name, True, version(name), install)
    except PackageNotFoundError:
        return Need(name, False, "not installed", install)


def _cc() -> Need:
    from .build.layer import ToolchainMissing, system_cc
    cc = system_cc()
    try:
        if shutil.which(cc.command[0]) is None:
            raise ToolchainMissing(f"{cc.command[0]} not found on PATH")
        return Need("C compiler", True, cc.version(), "apt-get install gcc")
    except ToolchainMissing as err:
        return Need("C compiler", False, str(err), "apt-get install gcc")


def _node() -> Need:
    install = "apt-get install nodejs"
    path = shutil.which("node")
    if path is None:
        return Need(f"node >= {MIN_NODE_MAJOR}", False, "node not found on PATH", install)
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
        found = out.stdout.strip()
        major = int(found.lstrip("v").split(".")[0])
    except (OSError, subprocess.TimeoutExpired, ValueError) as err:
        return Need(f"node >= {MIN_NODE_MAJOR}", False, f"node cannot run: {err}", install)
    return Need(f"node >= {MIN_NODE_MAJOR}", major >= MIN_NODE_MAJOR, found, install)


def _emulator(emulator: str, install: str) -> Need:
    path = shutil.which(emulator)
    if path is None:
        return Need(emulator, False, "not found on PATH", install)
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30)
        words = out.stdout.split()
        found = words[words.index("version") + 1] if "version" in words else (words[0] if words else "present")
    except (OSError, subprocess.TimeoutExpired) as err:
        return Need(emulator, False, f"cannot run: {err}", install)
    return Need(emulator, True, found, install)


def _cpu_fma() -> Need:
    """An x86-64 CPU with fused multiply-add instructions (Haswell and later, Zen): a build that
    contracts with -mfma runs only there (Linux's /proc/cpuinfo says)."""
    install = "an x86-64 CPU with FMA (Haswell or later)"
    try:
        flags = {w for line in open("/proc/cpuinfo", encoding="utf-8") if line.startswith("flags")
                 for w in line.split(":", 1)[1].split()}
    except OSError as err:
        return Need("CPU with FMA", False, f"cannot read /proc/cpuinfo: {err}", install)
    present = "fma" in flags and "avx2" in flags
    return Need("CPU with FMA", present, "fma, avx2" if present else "no fma or avx2 among the CPU's flags", install)


NEED_CHECKS: dict[str, Callable[[], Need]] = {
    "cc": _cc,
    "zig": lambda: _package("ziglang", "pip install ziglang"),
    "wasmtime": lambda: _package("wasmtime", "pip install wasmtime"),
    "node": _node,
    "unicorn": lambda: _package("unicorn", "pip install unicorn"),
    "wine": lambda: _emulator("wine", "apt-get install wine64"),
    "fma": _cpu_fma,
}
"""Need kinds other than an emulator (``qemu:<name>``)."""

COLUMN_NEEDS: dict[str, tuple[str, ...]] = {}
"""Need kinds of the ``control:<name>`` columns, filled in by the controls module."""


def _cross_needs(arch: str) -> tuple[str, ...]:
    from .cross import TARGETS, native
    target = TARGETS[arch]
    if native(target):
        return ("zig",)  # runs natively on this host
    return ("zig", f"qemu:{target.emulator}")


def need_kinds(column: str) -> tuple[str, ...] | None:
    """The need kinds of a column id; None for an id whose needs the suite cannot know (exec:)."""
    from .cross import TARGETS
    from .unicorn_runner import ARCHES
    if column == "reference":
        return ()
    if column.startswith("exec:"):
        return None
    if column in ARCHES:
        return ("zig", "unicorn")
    if column.startswith("control:"):
        return COLUMN_NEEDS.get(column, ("cc",))  # control:<name>: a C patch, like most
    arch, _, engine = column.partition(":")
    if engine == "qemu" and arch in TARGETS:
        return _cross_needs(arch)
    return {
        "c:zig": ("zig",),
        "c:windows": ("zig",) if sys.platform == "win32" else ("zig", "wine"),
        "wasm": ("wasmtime", "zig"),
        "wasm-v8": ("node", "zig"),
    }.get(column, ("cc",) if column == "c" or column.startswith("c:") else None)


def check(kind: str) -> Need:
    """Check one need kind now."""
    if kind.startswith("qemu:"):
        return _emulator(kind.split(":", 1)[1], "apt-get install qemu-user-static")
    return NEED_CHECKS[kind]()


def column_needs(column: str) -> list[Need] | None:
    """The needs of a column, each checked; None when the suite cannot know them (exec:)."""
    kinds = need_kinds(column)
    return None if kinds is None else [check(k) for k in kinds]


def needs_line(column: str) -> str:
    """``needs: ziglang 0.17.1, qemu-aarch64-static MISSING (apt-get install qemu-user-static)``."""
    needs = column_needs(column)
    if needs is None:
        return "needs: your port (the suite cannot check it)"
    if not needs:
        return "needs: nothing beyond the suite's Python dependencies"
    return "needs: " + ", ".join(n.short() for n in needs)
