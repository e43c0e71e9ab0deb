"""The one build layer: every compiled artifact the suite needs, cached and locked.

Contract: ``build(spec)`` returns an ``Artifact`` for a ``BuildSpec`` (toolchain, sources,
flags, output kind, target), compiling on first use into a cache folder keyed by the SHA-256 of
the sources' contents, the flags, the output kind, the target and the toolchain's version
string.  A file lock makes parallel workers wait for one compile instead of racing; the
artifact is written to a temporary name and renamed, so a half-built file is never used.
A missing toolchain raises ``ToolchainMissing`` (the runner becomes SKIPPED with the reason);
a failing compile raises ``BuildFailed`` with the compiler's output.

Every C build carries the determinism flags ``-std=c99 -ffp-contract=off`` and never fast
math; variants (optimisation levels, -march=native, controls and mutants) only add flags or
swap sources.  Shared libraries are loaded by cffi in ABI mode (``ffi.dlopen`` of a path), so
each variant is a distinct file and no module name can clash.
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

ROOT = Path(__file__).resolve().parent.parent
C_DIR = ROOT / "runners" / "c"
DETERMINISM_FLAGS = ("-std=c99", "-ffp-contract=off", "-fno-fast-math")
WARNING_FLAGS = ("-Wall", "-Wextra")


class ToolchainMissing(RuntimeError):
    """The compiler (or emulator) a column needs is not installed; the message says which."""


class BuildFailed(RuntimeError):
    """The compiler ran and failed; the message holds its command and output tail."""


@dataclass(frozen=True)
class Toolchain:
    """A C compiler command line, e.g. ('gcc',) or (python, '-m', 'ziglang', 'cc')."""

    name: str
    command: tuple[str, ...]

    def version(self) -> str:
        """First line of ``--version``; raises ToolchainMissing when it cannot run."""
        return _version(self.command)


@lru_cache(maxsize=None)
def _version(command: tuple[str, ...]) -> str:
    if shutil.which(command[0]) is None:
        raise ToolchainMissing(f"{command[0]} not found on PATH")
    try:
        out = subprocess.run([*command, "--version"], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as err:
        raise ToolchainMissing(f"{' '.join(command)} --version failed: {err}") from None
    if out.returncode != 0:
        tail = (out.stderr or out.stdout).strip().splitlines()[-1:] or ["no output"]
        raise ToolchainMissing(f"{' '.join(command)} is not usable: {tail[0]}")
    return (out.stdout or out.stderr).strip().splitlines()[0]


def system_cc() -> Toolchain:
    """The host C compiler: $CC, else gcc, else cc."""
    if os.environ.get("CC"):
        return Toolchain(os.environ["CC"].split()[0], tuple(os.environ["CC"].split()))
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
    include_dirs: tuple[Path, ...] = (C_DIR,)
    link_flags: tuple[str, ...] = ()
    defines: tuple[str, ...] = field(default=())

    def command_line(self, out: Path) -> list[str]:
        cmd = list(self.toolchain.command)
        if self.target:
            cmd += ["-target", self.target]
        cmd += list(self.flags) + [f"-D{d}" for d in self.defines]
        cmd += [f"-I{p}" for p in self.include_dirs]
        if self.output == "shared":
            cmd += ["-shared", "-fPIC"]
        cmd += [str(s) for s in self.sources] + ["-o", str(out)] + list(self.link_flags)
        return cmd

    def key(self) -> str:
        digest = hashlib.sha256()
        for part in (self.output, self.target or "", " ".join(self.flags), " ".join(self.defines),
                     " ".join(self.link_flags), self.toolchain.version(), " ".join(self.toolchain.command)):
            digest.update(part.encode() + b"\0")
        for source in self.sources:
            digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
        for folder in self.include_dirs:
            for header in sorted(folder.glob("*.h")):
                digest.update(header.name.encode() + b"\0" + header.read_bytes() + b"\0")
        return digest.hexdigest()

    def artifact_name(self) -> str:
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
        return {"compiler": self.compiler, "flags": " ".join(self.spec.flags), "target": self.spec.target,
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


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+b") as handle:
        try:
            import fcntl
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX)
        except ImportError:  # Windows: msvcrt locks a byte range
            import msvcrt
            msvcrt.locking(handle.fileno(), msvcrt.LK_LOCK, 1)
        try:
            yield
        finally:
            try:
                import fcntl
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
            except ImportError:
                import msvcrt
                msvcrt.locking(handle.fileno(), msvcrt.LK_UNLCK, 1)


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
    compiler = spec.toolchain.version()
    key = spec.key()
    folder = cache_root() / f"{spec.name}-{key[:20]}"
    target = folder / spec.artifact_name()
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
        _say(f"building {spec.name} ({spec.toolchain.name}{', ' + spec.target if spec.target else ''}, "
             f"{spec.output}) ...")
        try:
            try:
                done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                raise BuildFailed(f"{spec.name}: compiler timed out after {timeout:.0f} s") from None
            except OSError as err:
                raise ToolchainMissing(f"{spec.name}: cannot run {cmd[0]}: {err}") from None
            if done.returncode != 0:
                tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-15:])
                raise BuildFailed(f"{spec.name}: {' '.join(cmd)}\n{tail}")
            os.chmod(tmp, 0o755)
            os.replace(tmp, target)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        (folder / "build.txt").write_text(" ".join(cmd) + "\n" + compiler + "\n")
        seconds = time.perf_counter() - started
        _say(f"built {spec.name} in {seconds:.1f} s")
        return Artifact(target, key, spec, compiler, seconds, False)


def c_sources(extra: tuple[Path, ...] = ()) -> tuple[Path, ...]:
    """The C port's library sources (everything in runners/c/*.c), plus extra files."""
    return tuple(sorted(C_DIR.glob("*.c"))) + tuple(extra)
