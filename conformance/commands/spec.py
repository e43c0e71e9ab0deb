"""``orca-conformance spec FILE``: a copy of orca-spec.txt against the pinned version.

Contract: first the SHA-256, then clause by clause (``selftest.clauses.report.spec_report``);
the suite is located only when a clause changed (to list what depends on it), so that a copy
that is the pinned version needs no suite.  An unreadable file is bad input.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from . import options
from .command import Command, exit_code, say


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``FILE``: the user's copy of the text."""
    p.add_argument("file", metavar="FILE", help="your copy of orca-spec.txt")


def run(args: argparse.Namespace) -> int:
    """Compare the copy; exit 1 when it differs from the pinned version in any byte."""
    from ..selftest.clauses.report import spec_report
    return exit_code(spec_report(Path(args.file), lambda: options.suite(args).files(True), say))


COMMAND = Command(
    "spec", "check a copy of orca-spec.txt against the pinned version, clause by clause", """
Compare your copy of orca-spec.txt with the version the goldens were made
against: first its SHA-256 (the exact version, the same text saved with other
line endings or trailing white space, or another text), then clause by clause
(conformance/contract/clauses.json: each clause in place, moved or changed).
For a changed clause it lists the scenarios, controls and vectors that depend
on it.""",
    ("orca-conformance spec ~/Downloads/orca-spec.txt",),
    ok="the copy is byte for byte the pinned version",
    failed="it differs in any byte (line endings included)",
    add_arguments=add_arguments, run=run)
