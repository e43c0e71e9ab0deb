"""Object files of a host build, each cached on its own, so a variant recompiles only what it changed.

Contract: ``link(spec, out)`` writes to ``out`` what ``spec.command_line(out)`` would build (the
compiler compiles each source on its own either way; here each with its own ``-c`` command and the
same flags, then one link command with the same flags, the objects in the order of the sources),
compiling a source only when no object of it is cached. An object's cache key is the toolchain
(command and version), the target, the flags, the defines, the output kind, the source's file
name and bytes, and the names and bytes of every header in its own folder and in the include
folders; not where the tree lives. Each object is compiled with ``-ffile-prefix-map`` from each
of those folders to its bare name, so that ``__FILE__`` (an assert's message) and debug
information name ``solver/neighbors.c``, whichever copy of the tree it came from: a mutant's
tree, or a control's, shares every object it did not change with the production build.

Objects are written under a temporary name and renamed into place, under a lock per object, so
that parallel workers wait for one compile instead of racing. The missing objects of one build
compile at once, up to one per core. Used for gcc, clang and cc (``per_object``); Zig keeps a
cache of its own and MSVC has another command line, so those build in one command as before.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .layer import BuildSpec

METHOD = "objects-1"
"""Part of every key made here: changes when the way objects are made changes."""


def per_object(spec: "BuildSpec") -> bool:
    """Whether ``spec`` builds through cached objects (a gcc-dialect host compiler, not Zig's
    clang, which caches its own objects, nor MSVC)."""
    return spec.toolchain.name not in ("zig", "msvc")


def _folders(spec: "BuildSpec", source: Path) -> tuple[Path, ...]:
    """The folders whose headers ``source`` may include: its own, then the include folders."""
    folders = [source.parent]
    folders += [folder for folder in spec.include_dirs if folder not in folders]
    return tuple(folders)


def _prefix_maps(spec: "BuildSpec", source: Path) -> list[str]:
    return [f"-ffile-prefix-map={folder.resolve()}={folder.name}" for folder in _folders(spec, source)]


def object_command(spec: "BuildSpec", source: Path, out: Path) -> list[str]:
    """The compiler command that makes ``source``'s object at ``out``."""
    cmd = spec.compiler_and_flags() + [f"-D{d}" for d in spec.defines] + [f"-I{p}" for p in spec.include_dirs]
    if spec.output == "shared":
        cmd.append("-fPIC")
    return cmd + _prefix_maps(spec, source) + ["-c", str(source.resolve()), "-o", str(out)]


def link_command(spec: "BuildSpec", objects: list[Path], out: Path) -> list[str]:
    """The compiler command that links ``objects`` into ``out`` (the build's flags again: link-time
    optimisation and sanitizers need them at the link too)."""
    cmd = spec.compiler_and_flags()
    if spec.output == "shared":
        cmd += ["-shared", "-fPIC"]
    return cmd + [str(o) for o in objects] + ["-o", str(out)] + list(spec.link_flags)


def object_key(spec: "BuildSpec", source: Path) -> str:
    """The cache key of ``source``'s object in ``spec`` (see the module's contract)."""
    digest = hashlib.sha256()
    for part in (METHOD, " ".join(spec.toolchain.command), spec.toolchain.version(), spec.effective_target or "",
                 spec.output, "\0".join(spec.flags), "\0".join(spec.defines)):
        digest.update(part.encode() + b"\0")
    digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    for folder in _folders(spec, source):
        digest.update(b"folder\0" + folder.name.encode() + b"\0")
        for header in sorted(folder.glob("*.h")):
            digest.update(header.name.encode() + b"\0" + header.read_bytes() + b"\0")
    return digest.hexdigest()


class CompileFailed(RuntimeError):
    """A compile or link command failed: ``command`` and the tail of its output; ``timed_out``
    when it ran out of time, ``missing`` when it could not be started."""

    def __init__(self, command: list[str], output: str, timed_out: bool = False, missing: bool = False):
        super().__init__(output)
        self.command = command
        self.output = output
        self.timed_out = timed_out
        self.missing = missing


def run(cmd: list[str], timeout: float, cwd: Path | None = None) -> None:
    """Runs a compiler command (in ``cwd``); CompileFailed when it fails or cannot start."""
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd)
    except subprocess.TimeoutExpired:
        raise CompileFailed(cmd, f"timed out after {timeout:.0f} s", timed_out=True) from None
    except OSError as err:
        raise CompileFailed(cmd, str(err), missing=True) from None
    if done.returncode != 0:
        raise CompileFailed(cmd, "\n".join((done.stderr or done.stdout).strip().splitlines()[-15:]))


def cached_object(spec: "BuildSpec", source: Path, folder: Path, timeout: float) -> Path:
    """``source``'s object in ``folder`` (the objects' cache), compiled unless it is there."""
    from filelock import FileLock
    key = object_key(spec, source)
    target = folder / key[:2] / f"{source.stem}-{key[:24]}.o"
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(target) + ".lock"):
        if target.exists():
            return target
        scratch = Path(tempfile.mkdtemp(prefix=".compile-", dir=target.parent))
        try:
            made = scratch / target.name
            run(object_command(spec, source, made), timeout, cwd=source.parent)
            os.replace(made, target)
        finally:
            for leftover in scratch.iterdir():
                leftover.unlink()
            scratch.rmdir()
    return target


def link(spec: "BuildSpec", out: Path, folder: Path, timeout: float) -> list[Path]:
    """Builds ``spec`` into ``out`` from cached objects (compiling the missing ones at once, up to
    one per core), and returns the objects, in the order of the sources. Raises CompileFailed
    for the first source, in source order, that does not compile, or for the link."""
    sources = list(spec.sources)
    with ThreadPoolExecutor(max_workers=max(1, min(len(sources), os.cpu_count() or 1))) as pool:
        futures = [pool.submit(cached_object, spec, source, folder, timeout) for source in sources]
        objects = [future.result() for future in futures]
    run(link_command(spec, objects, out), timeout, cwd=out.parent)
    return objects
