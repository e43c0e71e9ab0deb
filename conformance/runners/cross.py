"""Other architectures: the C CLI cross-compiled with Zig (static musl) and run under QEMU.

Columns: ``arm64`` (aarch64-linux), ``s390x`` (big-endian: proves the canonical byte order)
and ``i386`` (32-bit x86 with SSE2 math).  Each runs natively when the host is that
architecture, otherwise through Debian's ``qemu-<arch>-static`` called explicitly (containers
often lack binfmt_misc).  A missing toolchain or emulator makes the column SKIPPED with the
reason.  The emulated columns are slow: use them on the non-slow scenarios (the default
matrix); ``--all`` adds the 1000-agent circle, which takes minutes under emulation.
"""

from __future__ import annotations

import platform
from dataclasses import dataclass

from ..build import DETERMINISM_FLAGS, zig_available, zig_cc
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


TARGETS = {
    "arm64": CrossTarget("arm64", "aarch64-linux-musl", "qemu-aarch64-static", ("aarch64", "arm64")),
    "s390x": CrossTarget("s390x", "s390x-linux-musl", "qemu-s390x-static", ("s390x",)),
    "i386": CrossTarget("i386", "x86-linux-musl", "qemu-i386-static", ("i386", "i686"),
                        ("-msse2", "-mfpmath=sse")),
}

EMULATED_LIMITS = Limits(handshake=60.0, reply=300.0, run=3600.0)


def cross_runner(target: CrossTarget, runner_id: str | None = None, extra_flags: tuple[str, ...] = (),
                 flags: tuple[str, ...] | None = None, source_dir=None) -> CliRunner:
    """The CLI for one target; ``flags`` replaces the determinism flags (negative controls)."""
    chosen = (DETERMINISM_FLAGS + ("-O2",) if flags is None else flags) + target.flags + extra_flags
    native = platform.machine().lower() in target.machines
    kwargs = {} if source_dir is None else {"source_dir": source_dir}
    name = (runner_id or target.column).replace(":", "-")
    spec = cli_spec(f"cross-{name}", zig_cc(), chosen, target=target.target, static=True, **kwargs)
    return CliRunner(runner_id or target.column, spec, emulator=None if native else target.emulator,
                     missing=zig_available(), limits=EMULATED_LIMITS, architecture=target.target.split("-")[0])


def cross_columns() -> dict[str, CliRunner]:
    return {name: cross_runner(t) for name, t in TARGETS.items()}
