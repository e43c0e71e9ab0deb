"""What a column's first use will compile, and how long that is expected to take.

Contract: ``pending_builds(column, runner)`` lists the builds that the runner's first use would
compile because they are not in the build cache, each a ``PlannedBuild`` with its expected
seconds and where that figure comes from (``Basis``): the time the last build of the same name
took on this machine (the ``build.txt`` that ``build`` writes into every artifact's cache folder,
so an older build of changed sources still counts), or, when it was never built here, the
typical time of its kind (``TYPICAL_SECONDS``, measured with empty caches).  A column that
cannot build here (its toolchain or emulator is missing: it will be SKIPPED) lists none.
Nothing here compiles or writes.
"""

from __future__ import annotations

import glob
import importlib.util
import shutil
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from .build.layer import BuildSpec, ToolchainMissing, artifact_path, cache_root


class Basis(Enum):
    """Where an expected build time comes from."""

    LAST_TIME = "last time here"
    TYPICAL = "typical"


TYPICAL_SECONDS: dict[str, float] = {
    "host compiler": 3.0,
    "zig host": 15.0,
    "zig wasm": 12.0,
    "zig freestanding": 10.0,
    "zig static linux": 60.0,
    "zig windows": 100.0,
}
"""Seconds of a first build of each kind (``build_kind``) with empty build and Zig caches.  On a
2-core x86-64 machine, 2026-12-03, each alone under ``nice`` beside other work: gcc's shared
library 2.3 s, Zig's host library 13.8 s, the wasm module 11.9 s, a freestanding ELF 7.8 to
11.0 s (the qemu columns' Linux executables and ``c:windows``'s Windows executable, both
without a C library, are the same kind: the port and compiler-rt; ``c:windows`` 5.9 to 6.7 s);
Zig builds the C library of a target on its first build for it, so a static musl executable
took 101 to 132 s and the Windows executable with MinGW's runtime 341 s there (63 to 84 s
beside lighter work), while a user's first matrix on an idle machine built those in 40 to 98 s
(issue 40): the figures here are the idle ones.  "zig windows" is now a Windows host's own
Zig build (the library, linked with MinGW's runtime).  The clock scales every expected build by the pace of those
finished, so a slower machine is followed after its first build."""


def build_kind(spec: BuildSpec) -> str:
    """The key of TYPICAL_SECONDS that a spec's first build is like."""
    target = spec.effective_target or ""
    if spec.toolchain.name != "zig":
        return "host compiler"
    if spec.output == "wasm":
        return "zig wasm"
    if target.endswith("-freestanding") or target.endswith("-linux-none") or "-nolibc" in spec.link_flags:
        return "zig freestanding"  # no C library to build: the port and compiler-rt
    if "windows" in target:
        return "zig windows"
    return "zig static linux" if target else "zig host"


@dataclass(frozen=True)
class PlannedBuild:
    """One build a column's first use will make: its name (the cache folder's), its cache key
    (two columns that share a build share the key: the wasm module), what it is, and its
    expected seconds with their basis."""

    name: str
    key: str
    what: str
    seconds: float
    basis: Basis

    def describe(self) -> str:
        """``about 98 s (last time here)``."""
        return f"about {self.seconds:.0f} s ({self.basis.value})"


def last_seconds(name: str, root: Path | None = None) -> float | None:
    """The seconds the newest build named ``name`` took here (its ``build.txt``), or None."""
    folders = (root or cache_root()).glob(f"{glob.escape(name)}-" + "[0-9a-f]" * 20)
    notes = [f / "build.txt" for f in folders if (f / "build.txt").is_file()]
    for note in sorted(notes, key=lambda p: p.stat().st_mtime, reverse=True):
        try:
            last = note.read_text(encoding="utf-8").strip().splitlines()[-1]
            return float(last.removesuffix(" s"))
        except (OSError, IndexError, ValueError):
            continue
    return None


def expected(spec: BuildSpec, key: str) -> PlannedBuild:
    """The PlannedBuild of a spec: last time's seconds here, else its kind's typical ones."""
    target = spec.effective_target or "host"
    what = f"{spec.toolchain.name}, {target}, {spec.output}"
    seconds = last_seconds(spec.name)
    if seconds is not None:
        return PlannedBuild(spec.name, key, what, seconds, Basis.LAST_TIME)
    return PlannedBuild(spec.name, key, what, TYPICAL_SECONDS[build_kind(spec)], Basis.TYPICAL)


def pending_builds(column: str, runner) -> tuple[PlannedBuild, ...]:
    """The builds ``runner`` (column ``column``) compiles on first use that are not cached; none
    when it compiles nothing or cannot run here."""
    from .port_build import plan_of_runner
    plan = plan_of_runner(column, runner)
    if plan is None or plan.missing or (plan.emulator and shutil.which(plan.emulator) is None):
        return ()
    if plan.kind == "freestanding" and importlib.util.find_spec("unicorn") is None:
        return ()
    try:
        key = plan.spec.key()
    except (ToolchainMissing, OSError):
        return ()
    if artifact_path(plan.spec, key).exists():
        return ()
    return (expected(plan.spec, key),)
