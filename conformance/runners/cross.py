"""Other architectures, second engine: the C CLI cross-compiled with Zig (static musl Linux
binaries) and run under qemu-user.

Columns: ``arm64:qemu`` (aarch64-linux), ``s390x:qemu`` (big-endian), ``i386:qemu`` (32-bit
x86 with SSE2 math), ``riscv64:qemu`` and ``ppc64le:qemu`` (POWER8, little-endian: Unicorn
cannot run it, see docs/unicorn.md).  The plain ``arm64``, ``s390x``, ``i386`` and ``riscv64``
columns are the first engine (unicorn_runner.py), which needs no emulator installed.  Each
runs natively when the host is that architecture, otherwise through Debian's
``qemu-<arch>-static`` called explicitly (containers often lack binfmt_misc).  A missing
toolchain or emulator makes the column SKIPPED with the reason; the default matrix takes
these columns only where they can run (``runs_here``).
"""

from __future__ import annotations

import platform
import shutil
from dataclasses import dataclass

from .build.layer import DETERMINISM_FLAGS, zig_available, zig_cc
from .cli_port import CliRunner, cli_spec
from .exec_runner import Limits


@dataclass(frozen=True)
class CrossTarget:
    column: str
    target: str
    emulator: str
    machines: tuple[str, ...]
    """``platform.machine()`` values on which the binary runs natively."""
    flags: tuple[str, ...] = ()
    cost: float = 1.0
    """The column's time under qemu-user over the native ``c`` column's (Runner.cost)."""


TARGETS = {
    "arm64": CrossTarget("arm64", "aarch64-linux-musl", "qemu-aarch64-static", ("aarch64", "arm64"), cost=5.0),
    "s390x": CrossTarget("s390x", "s390x-linux-musl", "qemu-s390x-static", ("s390x",), cost=19.0),
    "i386": CrossTarget("i386", "x86-linux-musl", "qemu-i386-static", ("i386", "i686"),
                        ("-msse2", "-mfpmath=sse"), 7.0),
    "riscv64": CrossTarget("riscv64", "riscv64-linux-musl", "qemu-riscv64-static", ("riscv64",), cost=6.0),
    "ppc64le": CrossTarget("ppc64le", "powerpc64le-linux-musl", "qemu-ppc64le-static", ("ppc64le",),
                           ("-mcpu=pwr8",), 16.0),
}

EMULATED_LIMITS = Limits(handshake=60.0, reply=300.0, run=3600.0)


def native(target: CrossTarget) -> bool:
    """Whether this host runs the target's binaries itself."""
    return platform.machine().lower() in target.machines


def runs_here(target: CrossTarget) -> bool:
    """Natively, or with its qemu-user emulator on PATH."""
    return native(target) or shutil.which(target.emulator) is not None


def cross_runner(target: CrossTarget) -> CliRunner:
    """The CLI for one target: column ``<arch>:qemu``."""
    column = f"{target.column}:qemu"
    spec = cli_spec(f"cross-{target.column}-qemu", zig_cc(), DETERMINISM_FLAGS + ("-O2",) + target.flags,
                    target=target.target, static=True)
    runner = CliRunner(column, spec, emulator=None if native(target) else target.emulator,
                       missing=zig_available(), limits=EMULATED_LIMITS, architecture=target.target.split("-")[0])
    runner.cost = 1.0 if native(target) else target.cost
    return runner
