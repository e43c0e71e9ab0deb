"""The C port's CLI (runners/c/cli) as an exec port: the protocol path of the C column.

Contract: ``cli_spec(...)`` is the BuildSpec of the CLI executable for a toolchain, target and
flags (native, cross-compiled, patched); ``CliRunner`` builds it through the build layer on
first use and then drives it as an ``exec:`` port, optionally under an emulator.  A missing
compiler or emulator makes the column SKIPPED with the reason.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from dataclasses import replace
from pathlib import Path

from .build.sources import C_DIR, include_dirs, library_sources
from .build.layer import DETERMINISM_FLAGS, ROOT, BuildFailed, BuildSpec, Toolchain, ToolchainMissing, build, system_cc, zig_available, zig_cc
from .base import CannotStart, RunnerUnavailable
from .exec_runner import ExecRunner, Limits


def cli_sources(source_dir: Path = C_DIR) -> tuple[Path, ...]:
    """The CLI's sources: the library's and runners/c/cli."""
    return library_sources(source_dir) + tuple(sorted((source_dir / "cli").glob("*.c")))


def cli_spec(name: str, toolchain: Toolchain, flags: tuple[str, ...], target: str | None = None,
             source_dir: Path = C_DIR) -> BuildSpec:
    """The CLI executable; OC_FLAGS puts the flags into the hello reply."""
    return BuildSpec(name=name, toolchain=toolchain, sources=cli_sources(source_dir), flags=flags,
                     output="executable", target=target, include_dirs=(*include_dirs(source_dir), source_dir / "cli"),
                     link_flags=("-lm",), defines=(f'OC_FLAGS="{" ".join(flags)}"',))


FREESTANDING = ROOT / "runners" / "freestanding"
RUNTIME = FREESTANDING / "runtime"
"""The CLI's libc-free runtime, the same C for every system: the streams and formats the CLI
uses, exit, a correctly rounded strtod, string functions, the wasm build's allocator over a
heap in .bss, and their headers (``include/``, before runners/wasm/include's)."""
WASM_DIR = ROOT / "runners" / "wasm"


def on_own_runtime(spec: BuildSpec, system: Path, link_flags: tuple[str, ...]) -> BuildSpec:
    """The CLI's ``spec`` with no C library: RUNTIME and ``system``'s sources (one system's entry,
    read, write and exit: runners/freestanding/linux or windows), single-threaded, linked with
    ``link_flags`` (-nolibc and the system's own); the port's and the CLI's sources, the flags
    and the target stay ``spec``'s."""
    # the build key hashes the sources and the include folders' headers; the allocator that
    # heap.c includes enters it through this define
    inputs = hashlib.sha256((WASM_DIR / "alloc.c").read_bytes()).hexdigest()[:16]
    return replace(spec, sources=spec.sources + tuple(sorted(RUNTIME.glob("*.c"))) + tuple(sorted(system.glob("*.c"))),
                   include_dirs=(*spec.include_dirs, RUNTIME, RUNTIME / "include", WASM_DIR / "include"),
                   link_flags=link_flags, defines=(*spec.defines, "OC_NO_THREADS", f"OW_INPUTS={inputs}"))


class CliRunner(ExecRunner):
    """Builds the CLI, then speaks the protocol to it (through an emulator when given)."""

    def __init__(self, runner_id: str, spec: BuildSpec, emulator: str | None = None,
                 missing: str | None = None, limits: Limits = Limits(), architecture: str | None = None,
                 install: str = "apt-get install qemu-user-static", env: dict | None = None):
        """``install`` is the command that installs the emulator (named when it is missing);
        ``env`` the port's environment (default: the suite's)."""
        super().__init__(runner_id, [], limits, env=env)
        self.spec = spec
        self.emulator = emulator
        self.install = install
        self.missing = missing
        self.architecture = architecture
        self.artifact = None

    def _prepare(self) -> None:
        if self.artifact is not None:
            return
        if self.missing:
            raise RunnerUnavailable(self.missing)
        if self.emulator and shutil.which(self.emulator) is None:
            raise RunnerUnavailable(f"{self.emulator} not found on PATH ({self.install})")
        try:
            self.artifact = build(self.spec)
        except ToolchainMissing as err:
            raise RunnerUnavailable(str(err)) from None
        except BuildFailed as err:
            raise CannotStart(f"build failed: {err}") from None
        self.argv = ([self.emulator] if self.emulator else []) + [str(self.artifact.path)]
        described = self.artifact.describe()
        self.extra = {"compiler": described["compiler"], "flags": described["flags"],
                      "architecture": self.architecture or "",
                      "versions": {"binary_sha256": described["sha256"], "binary_size": described["size"],
                                   **({"emulator": self.emulator} if self.emulator else {})}}


def native_cli() -> CliRunner:
    """``c:cli``: the host compiler's -O2 build of the CLI, through the protocol."""
    return CliRunner("c:cli", cli_spec("c-cli", system_cc(), DETERMINISM_FLAGS + ("-O2",)))


WINDOWS_TARGET = "x86_64-windows-gnu"
WINDOWS_LINK = ("-nolibc", "-rtlib=compiler-rt", "-lkernel32", "-Wl,--entry,mainCRTStartup")
"""No C runtime (with MinGW's, Zig compiled it first: about 85 s cold): compiler-rt
(``___chkstk_ms``, sqrt's slow path), kernel32's import library (Zig makes it from its .def
file) and the entry of runners/freestanding/windows/start.c, a console program."""
WINE = "wine"
"""Debian's package wine64 installs it as /usr/bin/wine."""


def windows_spec() -> BuildSpec:
    """The ``c:windows`` CLI: Zig's clang for x86_64-windows-gnu, the flags it always had (the
    determinism flags and -O2), on the libc-free runtime with kernel32."""
    spec = cli_spec("c-windows", zig_cc(), DETERMINISM_FLAGS + ("-O2",), target=WINDOWS_TARGET)
    return on_own_runtime(spec, FREESTANDING / "windows", WINDOWS_LINK)


def windows_cli() -> CliRunner:
    """``c:windows``: the CLI as a Windows executable linked with no C runtime (``windows_spec``),
    through the protocol: natively on Windows, elsewhere under Wine."""
    spec = windows_spec()
    on_windows = sys.platform == "win32"
    return CliRunner("c:windows", spec, emulator=None if on_windows else WINE, missing=zig_available(),
                     limits=Limits(handshake=120.0, reply=300.0, run=3600.0), architecture="x86_64",
                     install="apt-get install wine64", env={**os.environ, "WINEDEBUG": "-all"})
