"""The one build layer: every compiled artifact the suite needs, cached and locked.

Contract: ``build(spec)`` returns an ``Artifact`` for a ``BuildSpec`` (toolchain, sources,
flags, output kind, target), compiling on first use into a cache folder keyed by the SHA-256 of
the sources' contents, the flags, the output kind, the target and the toolchain's version
string.  A file lock (the filelock package) makes parallel workers and the matrix's column
threads wait for one compile instead of racing; the artifact is written to a temporary name
and renamed, so a half-built file is never used. Host gcc and clang builds compile each source
into an object of its own, cached by that source's content (``objects.py``), and link those.
A missing toolchain raises ``ToolchainMissing`` (the runner becomes SKIPPED with the reason);
a failing compile raises ``BuildFailed`` with the compiler's output.

Every C build carries the determinism flags ``-std=c99 -ffp-contract=off`` and never fast
math; variants (optimisation levels, -march=native, controls and mutants) only add flags or
swap sources.  Flags are written in the gcc/clang dialect; for MSVC (``cl``, Windows hosts that
have it) ``msvc_flags`` translates them, ``-ffp-contract=off -fno-fast-math`` becoming
``/fp:precise``, and refuses one it cannot translate.  On Windows without MSVC the host
compiler is Zig's clang for ``x86_64-windows-gnu`` (``system_cc``).  Shared libraries are
loaded by cffi in ABI mode (``ffi.dlopen`` of a path), so each variant is a distinct file and no
module name can clash.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator

from filelock import FileLock

from ... import shipped
from . import objects

ROOT = shipped.require()
"""The C, wasm and freestanding sources' root (``runners/`` below it): the checkout, or the
wheel's copy (``shipped.root``); an installed wheel missing some of them stops here, at import,
with one ``MissingData`` line."""
DETERMINISM_FLAGS = ("-std=c99", "-ffp-contract=off", "-fno-fast-math")

MSVC_FLAGS: dict[str, str | None] = {
    "-std=c99": "/std:c11",  # MSVC has no C99 mode; C11 is its nearest strict C
    "-ffp-contract=off": "/fp:precise",  # no contraction into FMA (the default of /fp:precise since VS 2022)
    "-fno-fast-math": "/fp:precise",
    "-O0": "/Od", "-O1": "/O1", "-O2": "/O2", "-O3": "/O2",
    "-g0": None, "-fPIC": None,
}
"""gcc-dialect flag -> MSVC flag (None: nothing to pass)."""


class ToolchainMissing(RuntimeError):
    """The compiler (or emulator) a column needs is not installed; the message says which."""


class FlagUnsupported(ToolchainMissing):
    """The host compiler cannot honour a flag the column needs (MSVC and ``-march=native``): the
    column is SKIPPED with this reason, as for a missing compiler."""


class BuildFailed(RuntimeError):
    """The compiler ran and failed; the message holds its command and output tail."""


@dataclass(frozen=True)
class Toolchain:
    """A C compiler command line, e.g. ('gcc',), (python, '-m', 'ziglang', 'cc') or ('cl',)
    (name ``msvc``); ``target`` is the cross target it builds for when a spec names none (Zig's
    ``x86_64-windows-gnu`` on a Windows host without MSVC)."""

    name: str
    command: tuple[str, ...]
    target: str | None = None

    def version(self) -> str:
        """First line of ``--version`` (of the bare command for MSVC, which prints its banner on
        stderr); raises ToolchainMissing when it cannot run."""
        return _version(self.command, self.name == "msvc")


def msvc_flags(flags: tuple[str, ...]) -> list[str]:
    """The MSVC spelling of gcc-dialect flags, duplicates dropped; FlagUnsupported for a flag
    MSVC cannot honour (``-march=native``, ``-ffast-math``: that column cannot be built with MSVC)."""
    out: list[str] = []
    for flag in flags:
        if flag not in MSVC_FLAGS:
            raise FlagUnsupported(f"MSVC has no equivalent of {flag!r} (known: {', '.join(MSVC_FLAGS)})")
        translated = MSVC_FLAGS[flag]
        if translated and translated not in out:
            out.append(translated)
    return out


def windows_target(target: str | None) -> bool:
    """Whether a build for ``target`` (None: this host) produces a Windows binary."""
    return "windows" in target if target else sys.platform == "win32"


@lru_cache(maxsize=None)
def _version(command: tuple[str, ...], bare: bool = False) -> str:
    if shutil.which(command[0]) is None:
        raise ToolchainMissing(f"{command[0]} not found on PATH")
    try:
        out = subprocess.run([*command] if bare else [*command, "--version"], capture_output=True, text=True,
                             timeout=120)
        if bare:  # cl prints its banner on stderr and exits non-zero without sources
            return ((out.stderr or out.stdout).strip().splitlines() or [command[0]])[0]
    except (OSError, subprocess.TimeoutExpired) as err:
        raise ToolchainMissing(f"{' '.join(command)} --version failed: {err}") from None
    if out.returncode != 0:
        tail = (out.stderr or out.stdout).strip().splitlines()[-1:] or ["no output"]
        raise ToolchainMissing(f"{' '.join(command)} is not usable: {tail[0]}")
    return (out.stdout or out.stderr).strip().splitlines()[0]


def system_cc(platform_name: str | None = None) -> Toolchain:
    """The host C compiler: $CC, else gcc, cc or clang; on Windows (``platform_name`` "win32",
    default this host's ``sys.platform``) $CC, else MSVC's ``cl`` when on PATH, else Zig's clang
    for ``x86_64-windows-gnu`` (the ``ziglang`` package)."""
    if os.environ.get("CC"):
        return Toolchain(os.environ["CC"].split()[0], tuple(os.environ["CC"].split()))
    if (platform_name or sys.platform) == "win32":
        if shutil.which("cl"):
            return Toolchain("msvc", ("cl",))
        return Toolchain("zig", zig_cc().command, target="x86_64-windows-gnu")
    for name in ("gcc", "cc", "clang"):
        if shutil.which(name):
            return Toolchain(name, (name,))
    return Toolchain("gcc", ("gcc",))


def zig_cc() -> Toolchain:
    """Zig's clang from the ``ziglang`` PyPI package (no system install needed)."""
    return Toolchain("zig", (sys.executable, "-m", "ziglang", "cc"))


def zig_available() -> str | None:
    """None when ``python -m ziglang`` can run, else the reason."""
    try:
        import ziglang  # noqa: F401
    except ImportError:
        return "the ziglang package is not installed (pip install ziglang)"
    return None


@dataclass(frozen=True)
class BuildSpec:
    """What to build. ``output`` is 'shared', 'executable' or 'wasm'."""

    name: str
    toolchain: Toolchain
    sources: tuple[Path, ...]
    flags: tuple[str, ...]
    output: str = "shared"
    target: str | None = None
    include_dirs: tuple[Path, ...] = ()
    link_flags: tuple[str, ...] = ()
    defines: tuple[str, ...] = field(default=())

    @property
    def effective_target(self) -> str | None:
        """The spec's target, else the toolchain's own (None: this host)."""
        return self.target or self.toolchain.target

    def compiler_and_flags(self) -> list[str]:
        """The gcc-dialect compiler command, its ``-target`` when there is one, and the flags: the
        start of every command that compiles or links this spec (here and in ``objects``)."""
        target = ["-target", self.effective_target] if self.effective_target else []
        return list(self.toolchain.command) + target + list(self.flags)

    def command_line(self, out: Path) -> list[str]:
        if self.toolchain.name == "msvc":
            return self._msvc_command_line(out)
        cmd = self.compiler_and_flags() + [f"-D{d}" for d in self.defines]
        cmd += [f"-I{p}" for p in self.include_dirs]
        if self.output == "shared":
            cmd += ["-shared", "-fPIC"]
        cmd += [str(s) for s in self.sources] + ["-o", str(out)] + list(self.link_flags)
        return cmd

    def _msvc_command_line(self, out: Path) -> list[str]:
        """``cl /nologo /fp:precise /O2 ... [/LD] sources /Fe:out [/link ...]``; ``-lm`` and
        ``-static`` have no MSVC meaning (the C runtime holds the maths) and are dropped."""
        cmd = list(self.toolchain.command) + ["/nologo"] + msvc_flags(self.flags)
        cmd += [f"/D{d}" for d in self.defines] + [f"/I{p}" for p in self.include_dirs]
        if self.output == "shared":
            cmd.append("/LD")
        cmd += [str(s) for s in self.sources] + [f"/Fe:{out}"]
        link = [f for f in self.link_flags if f not in ("-lm", "-static")]
        return cmd + (["/link", *link] if link else [])

    def key(self) -> str:
        digest = hashlib.sha256()
        for part in (self.output, self.effective_target or "", " ".join(self.flags), " ".join(self.defines),
                     " ".join(self.link_flags), self.toolchain.version(), " ".join(self.toolchain.command)):
            digest.update(part.encode() + b"\0")
        for source in self.sources:
            digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
        for folder in self.include_dirs:
            for header in sorted(folder.glob("*.h")):
                digest.update(header.name.encode() + b"\0" + header.read_bytes() + b"\0")
        return digest.hexdigest()

    @property
    def for_windows(self) -> bool:
        """Whether the artifact is a Windows binary (MSVC, or a ``*-windows-*`` target)."""
        return self.toolchain.name == "msvc" or windows_target(self.effective_target)

    def artifact_name(self) -> str:
        if self.for_windows and self.output != "wasm":
            return {"shared": "orca.dll", "executable": "orca-port.exe"}[self.output]
        return {"shared": "liborca.so", "executable": "orca-port", "wasm": "orca.wasm"}[self.output]


@dataclass(frozen=True)
class Artifact:
    """A built file and how it was made (for the reports)."""

    path: Path
    key: str
    spec: BuildSpec
    compiler: str
    seconds: float
    cached: bool

    def describe(self) -> dict:
        return {"compiler": self.compiler, "flags": " ".join(self.spec.flags), "target": self.spec.effective_target,
                "artifact": str(self.path), "sha256": _file_sha256(self.path),
                "size": self.path.stat().st_size}


def _file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def cache_root() -> Path:
    """$ORCA_CONFORMANCE_CACHE, else $XDG_CACHE_HOME/orca-conformance, else ~/.cache/orca-conformance."""
    if os.environ.get("ORCA_CONFORMANCE_CACHE"):
        return Path(os.environ["ORCA_CONFORMANCE_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "orca-conformance"


def artifact_path(spec: BuildSpec, key: str) -> Path:
    """Where ``build`` keeps the artifact of ``spec`` (``key`` is ``spec.key()``): in a folder of
    its own, ``<name>-<key prefix>``, beside the ``build.txt`` that says how it was made."""
    return cache_root() / f"{spec.name}-{key[:20]}" / spec.artifact_name()


def _locked(path: Path) -> FileLock:
    """An exclusive lock on ``path`` across processes and threads, held while compiling
    (filelock: fcntl on POSIX, msvcrt on Windows, waiting as long as a compile takes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    return FileLock(path)


_announce: list[Callable[[str], None]] = []
"""Who hears "building ..." and "built ..." lines (the matrix's progress bar, say); see ``announcing``."""


@contextmanager
def announcing(callback: Callable[[str], None]) -> Iterator[None]:
    """While inside, every real compilation (not a cache hit) is announced to ``callback``."""
    _announce.append(callback)
    try:
        yield
    finally:
        _announce.remove(callback)


def _say(text: str) -> None:
    for callback in list(_announce):
        callback(text)


def build(spec: BuildSpec, timeout: float = 900.0) -> Artifact:
    """Compile once per key; later calls (any process) return the cached artifact."""
    spec.command_line(Path(spec.artifact_name()))  # FlagUnsupported before anything is written
    compiler = spec.toolchain.version()
    key = spec.key()
    target = artifact_path(spec, key)
    folder = target.parent
    with _locked(cache_root() / "locks" / f"{spec.name}-{key[:20]}.lock"):
        if target.exists():
            return Artifact(target, key, spec, compiler, 0.0, True)
        folder.mkdir(parents=True, exist_ok=True)
        # A private folder, but the artifact's own file name: linkers may record the output's
        # name (wasm-ld writes it into the module's name section), so a random temporary name
        # would make the same build give different bytes.
        scratch = Path(tempfile.mkdtemp(prefix=".build-", dir=folder))
        tmp = scratch / spec.artifact_name()
        cmd = spec.command_line(tmp)
        started = time.perf_counter()
        _say(f"building {spec.name} ({spec.toolchain.name}{', ' + spec.effective_target if spec.effective_target else ''}, "
             f"{spec.output}) ...")
        try:
            _compile(spec, tmp, timeout)
            os.chmod(tmp, 0o755)
            os.replace(tmp, target)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        seconds = time.perf_counter() - started
        how = "from one object per source (objects.py), as the command above would\n" if objects.per_object(spec) else ""
        (folder / "build.txt").write_text(" ".join(cmd) + "\n" + how + compiler + "\n" + f"{seconds:.2f} s\n")
        _say(f"built {spec.name} in {seconds:.1f} s")
        return Artifact(target, key, spec, compiler, seconds, False)


def _compile(spec: BuildSpec, out: Path, timeout: float) -> None:
    """Makes ``out`` from ``spec``: through cached objects (``objects.per_object``), else in the
    one command ``spec.command_line``. BuildFailed or ToolchainMissing when that fails."""
    try:
        if objects.per_object(spec):
            objects.link(spec, out, cache_root() / "objects", timeout)
        else:
            objects.run(spec.command_line(out), timeout)
    except objects.CompileFailed as failed:
        if failed.missing:
            raise ToolchainMissing(f"{spec.name}: cannot run {failed.command[0]}: {failed.output}") from None
        if failed.timed_out:
            raise BuildFailed(f"{spec.name}: compiler {failed.output}") from None
        raise BuildFailed(f"{spec.name}: {' '.join(failed.command)}\n{failed.output}") from None
