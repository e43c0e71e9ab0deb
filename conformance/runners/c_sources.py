"""The C port's source tree: the solver mirror and the harness, in two folders.

Contract: ``runners/c/solver/`` mirrors ``conformance/solver`` file for file and holds nothing
else; ``runners/c/harness/`` holds what drives it (scene, driver, state hash, worker threads).
``SOLVER_FILES`` is the one list of the solver's files, in the order of the text (a test holds
the folder to it); ``MUTATED`` the ones that hold code, which the mutation run changes.
``library_sources(tree)`` and ``include_dirs(tree)`` give the library's ``.c`` files and header
folders of a tree laid out like ``runners/c`` (the production one or a patched copy).
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from .build import ROOT

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
