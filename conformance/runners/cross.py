"""Other architectures, second engine: the C CLI cross-compiled with Zig as static Linux
executables without a C library, run under qemu-user.

Columns: ``arm64:qemu`` (aarch64-linux), ``s390x:qemu`` (big-endian), ``i386:qemu`` (32-bit
x86 with SSE2 math), ``riscv64:qemu`` and ``ppc64le:qemu`` (POWER8, little-endian: Unicorn
cannot run it, see docs/unicorn.md).  The plain ``arm64``, ``s390x``, ``i386`` and ``riscv64``
columns are the first engine (unicorn_runner.py), which needs no emulator installed.  Each
runs natively when the host is that architecture, otherwise through Debian's
``qemu-<arch>-static`` called explicitly (containers often lack binfmt_misc).  A missing
toolchain or emulator makes the column SKIPPED with the reason; the default matrix takes
these columns only where they can run (``runs_here``).

Contract: ``cross_spec(target)`` is the CLI's BuildSpec for one target: runners/c/*.c and
runners/c/cli unchanged, the determinism flags (``-ffp-contract=off``, no fast math), ``-O2``
and the target's own flags, for ``<arch>-linux-none``; its runtime is
runners/freestanding/linux (the entry, read/write/exit_group), runners/freestanding/runtime
(the streams and formats the CLI uses, a correctly rounded strtod, the wasm build's allocator
over a heap in .bss: ``cli_port.on_own_runtime``, which ``c:windows`` shares) and Zig's
compiler-rt.  No C library is compiled, so a cold build takes seconds (the static musl
executables it replaces made Zig build musl first: 40 to 98 s per target).
"""

from __future__ import annotations

import platform
import shutil
from dataclasses import dataclass
from pathlib import Path

from .build.layer import DETERMINISM_FLAGS, BuildSpec, zig_available, zig_cc
from .build.sources import C_DIR
from .cli_port import FREESTANDING, CliRunner, cli_spec, on_own_runtime
from .exec_runner import Limits

LINUX_SYSTEM = FREESTANDING / "linux"
LINUX_FLAGS = ("-g0",)
"""No debug info.  The headers are runners/freestanding/runtime/include's and runners/wasm/include's
(the target has no C library), but the compile is hosted: ``-ffreestanding`` (no builtins) made
the i386 column's 300-agent circle 20 % slower under qemu than the musl build, hosted it is as
fast (same hashes)."""
LINUX_LINK = ("-nolibc", "-rtlib=compiler-rt")
"""Link no C library, but Zig's compiler-rt (64-bit division on i386, sqrt's slow path)."""


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
    "arm64": CrossTarget("arm64", "aarch64-linux-none", "qemu-aarch64-static", ("aarch64", "arm64"), cost=5.0),
    "s390x": CrossTarget("s390x", "s390x-linux-none", "qemu-s390x-static", ("s390x",), cost=19.0),
    "i386": CrossTarget("i386", "x86-linux-none", "qemu-i386-static", ("i386", "i686"),
                        ("-msse2", "-mfpmath=sse"), 7.0),
    "riscv64": CrossTarget("riscv64", "riscv64-linux-none", "qemu-riscv64-static", ("riscv64",), cost=6.0),
    "ppc64le": CrossTarget("ppc64le", "powerpc64le-linux-none", "qemu-ppc64le-static", ("ppc64le",),
                           ("-mcpu=pwr8",), 16.0),
}

EMULATED_LIMITS = Limits(handshake=60.0, reply=300.0, run=3600.0)


def native(target: CrossTarget) -> bool:
    """Whether this host runs the target's binaries itself."""
    return platform.machine().lower() in target.machines


def runs_here(target: CrossTarget) -> bool:
    """Natively, or with its qemu-user emulator on PATH."""
    return native(target) or shutil.which(target.emulator) is not None


def cross_spec(target: CrossTarget, source_dir: Path = C_DIR) -> BuildSpec:
    """The CLI of one target as a static Linux executable on the libc-free runtime
    (``source_dir``: the C port's tree, or a patched copy of it for a negative control)."""
    flags = DETERMINISM_FLAGS + ("-O2",) + target.flags + LINUX_FLAGS
    spec = cli_spec(f"cross-{target.column}-qemu", zig_cc(), flags, target=target.target, source_dir=source_dir)
    return on_own_runtime(spec, LINUX_SYSTEM, LINUX_LINK)


def cross_runner(target: CrossTarget) -> CliRunner:
    """The CLI for one target: column ``<arch>:qemu``."""
    column = f"{target.column}:qemu"
    spec = cross_spec(target)
    runner = CliRunner(column, spec, emulator=None if native(target) else target.emulator,
                       missing=zig_available(), limits=EMULATED_LIMITS, architecture=target.target.split("-")[0])
    runner.cost = 1.0 if native(target) else target.cost
    return runner
