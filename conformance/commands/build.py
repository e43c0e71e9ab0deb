"""``orca-conformance build COLUMN --out PATH``: one column's port, built to a chosen path.

Contract: the build is the suite's own (``runners.port_build``: content-keyed cache, the
column's flags); an unknown column, an unwritable ``--out`` or a ``--sources`` folder that is
no copy of runners/c is bad input before anything compiles; a missing toolchain or a failed
compile is one ``error: build COLUMN:`` line and exit 1.  The buildable ids in the help come
from the registry (``port_build.buildable_by_kind``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..jsonfile import writable_file
from .command import EXIT_FAILED, EXIT_OK, Command, say


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``COLUMN`` (every buildable id, by kind, in the help), ``--out`` and ``--sources``."""
    from ..runners.port_build import KIND_NAMES, buildable_by_kind
    kinds = "; ".join(f"{KIND_NAMES[kind]}: {', '.join(ids)}" for kind, ids in buildable_by_kind().items() if ids)
    p.add_argument("column", metavar="COLUMN", help=f"the column whose port to build: {kinds}; "
                                                    "or control:<name> (a deliberately wrong build)")
    p.add_argument("--out", required=True, metavar="PATH", help="file to write (or an existing folder)")
    p.add_argument("--sources", metavar="DIR",
                   help="build from DIR, your edited copy of runners/c (its solver/, harness/ and, for the CLI, "
                        "cli/ folders), with the column's own flags (default: runners/c)")


def run(args: argparse.Namespace) -> int:
    """Plan, check ``--out``, build and copy; print what was built and how to gate it."""
    from ..runners.port_build import CannotBuild, build_port, output_path, plan
    chosen = plan(args.column, Path(args.sources) if args.sources else None)
    writable_file(args.out, "--out", folder_ok=True)
    out = output_path(chosen, Path(args.out))
    say(chosen.headline())
    try:
        built = build_port(chosen, out)
    except CannotBuild as err:
        print(f"error: build {chosen.column}: {err}", file=sys.stderr)
        return EXIT_FAILED
    for line in built.lines():
        say(line)
    return EXIT_OK


COMMAND = Command(
    "build", "build one column's port (executable, shared library or wasm module) to a path", """
Build one column's port through the suite's own build (content-keyed cache: a
second build is instant) and copy it to --out.  Prints the compiler, flags,
target and SHA-256 of what it built and the matrix command line that gates it.
With --sources DIR it builds your edited copy of runners/c instead, with the
very flags of the column (-std=c99 -ffp-contract=off -fno-fast-math and the
column's own), so the result is what the column would run with your edit; a
DIR that is not such a copy is bad input, before anything compiles.""",
    ("orca-conformance build c:cli --out ./orca-port",
     "orca-conformance build c:cli --sources my-c --out ./orca-port   # an edited copy of runners/c",
     "orca-conformance build wasm --out orca.wasm",
     "orca-conformance build c --out liborca.so"),
    ok="the port was built and copied", failed="the toolchain is missing or the compile failed",
    add_arguments=add_arguments, run=run)
