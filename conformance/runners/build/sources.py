"""The C port's source tree: the solver mirror and the harness, in two folders.

Contract: ``runners/c/solver/`` mirrors ``conformance/solver`` file for file and holds nothing
else; ``runners/c/harness/`` holds what drives it (scene, driver, state hash, worker threads).
``SOLVER_FILES`` is the one list of the solver's files, in the order of the text (a test holds
the folder to it); ``MUTATED`` the ones that hold code, which the mutation run changes.
``library_sources(tree)`` and ``include_dirs(tree)`` give the library's ``.c`` files and header
folders of a tree laid out like ``runners/c`` (the production one or a patched copy).
``from_tree(spec, tree)`` is a column's BuildSpec with ``runners/c`` swapped for such a tree (a
user's edited copy: ``build COLUMN --sources DIR``), everything else (flags, defines, target,
toolchain) unchanged; a tree that lacks a folder the build takes from is an ``InputError``.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Callable

from ...errors import InputError
from .layer import ROOT, BuildSpec

C_DIR = ROOT / "runners" / "c"
SOLVER = "solver"
HARNESS = "harness"

SOLVER_FILES = ("vector.h", "halfplane.h", "obstacle.h", "obstacle.c", "constraint.h", "constraint.c",
                "linear_program.h", "linear_program.c", "fallback.h", "fallback.c", "neighbors.h", "neighbors.c",
                "simulator.h", "simulator.c", "orca.h")
"""Every file of runners/c/solver, in the order of the text."""

MUTATED = tuple(f for f in SOLVER_FILES if f not in ("simulator.h", "orca.h"))
"""The solver files with code in them (the other two only declare)."""


def library_sources(tree: Path = C_DIR) -> tuple[Path, ...]:
    """The library's ``.c`` files: the solver's, then the harness's, each folder sorted."""
    return tuple(sorted((tree / SOLVER).glob("*.c"))) + tuple(sorted((tree / HARNESS).glob("*.c")))


def include_dirs(tree: Path = C_DIR) -> tuple[Path, ...]:
    """The header folders of the library (``#include "simulator.h"`` finds its file in either)."""
    return (tree / SOLVER, tree / HARNESS)


def cached_tree(folder: Path, fill: Callable[[Path], None]) -> Path:
    """``folder``, made once by ``fill`` (which writes a copy of a source tree into the folder it
    is given): built under a temporary name and renamed into place, so that two processes or
    threads asking for the same tree at once both get a whole one (the loser's copy is dropped)."""
    import os
    import shutil
    import threading
    if (folder / ".complete").exists():
        return folder
    temporary = folder.with_name(f"{folder.name}.tmp-{os.getpid()}-{threading.get_ident()}")
    shutil.rmtree(temporary, ignore_errors=True)
    try:
        fill(temporary)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise
    (temporary / ".complete").write_text("ok\n")
    if folder.exists() and not (folder / ".complete").exists():
        shutil.rmtree(folder, ignore_errors=True)  # a partial copy left by an interrupted run
    try:
        os.rename(temporary, folder)
    except OSError:  # another one got there first
        shutil.rmtree(temporary, ignore_errors=True)
    return folder


def from_tree(spec: BuildSpec, tree: Path, option: str = "--sources") -> BuildSpec:
    """``spec`` with every ``.c`` file and header folder it takes from below ``runners/c`` taken
    from the same place below ``tree`` instead: each such folder's ``.c`` files as ``tree``
    holds them (sorted, as ``library_sources`` lists them; a file added to or removed from the
    copy counts), sources elsewhere (``runners/wasm``) kept.  InputError (naming ``option``) when
    ``tree`` is not a folder, lacks one of those folders or has no ``.c`` file in it, or when
    the spec takes nothing from ``runners/c`` (a control's own patched copy)."""
    if not tree.is_dir():
        raise InputError("command line", option, f"{str(tree)!r} " + ("is not a folder" if tree.exists()
                                                                      else "does not exist"))
    folders = list(dict.fromkeys(s.parent.relative_to(C_DIR) for s in spec.sources if s.is_relative_to(C_DIR)))
    if not folders:
        raise InputError("command line", option, f"{spec.name} is not built from runners/c")
    for folder in folders:
        if not (tree / folder).is_dir() or not any((tree / folder).glob("*.c")):
            raise InputError(str(tree), folder.as_posix(), "no such folder of .c files (--sources names a copy "
                             f"of runners/c, holding {', '.join(f.as_posix() + '/' for f in folders)})")
    tree = tree.resolve()
    sources: list[Path] = []
    taken: set[Path] = set()
    for source in spec.sources:
        folder = source.parent.relative_to(C_DIR) if source.is_relative_to(C_DIR) else None
        if folder is None:
            sources.append(source)
        elif folder not in taken:
            taken.add(folder)
            sources.extend(sorted((tree / folder).glob("*.c")))
    includes = tuple(tree / d.relative_to(C_DIR) if d.is_relative_to(C_DIR) else d for d in spec.include_dirs)
    return replace(spec, sources=tuple(sources), include_dirs=includes)
