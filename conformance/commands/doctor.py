"""``orca-conformance doctor [COLUMN...]``: what every column needs and whether it is here.

Contract: the list is the top-level ``doctor`` module's (``format_doctor``); a missing need is
no failure (such a column is SKIPPED by the matrix), so the command exits 0 whatever is
missing; a column id that is no known one (nor an ``exec:``/``control:`` one) is bad input,
with the nearest known id when one is near.
"""

from __future__ import annotations

import argparse

from ..errors import InputError, did_you_mean
from .command import EXIT_OK, Command, say


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``COLUMN...``: only these columns."""
    p.add_argument("columns", nargs="*", metavar="COLUMN", help="only these column ids (default: every column)")


def run(args: argparse.Namespace) -> int:
    """Check the ids, print every chosen column's needs and the install commands of the missing ones."""
    from ..doctor import format_doctor
    from ..runners import known_ids
    known = known_ids()
    for column in args.columns:
        if not column.startswith(("exec:", "control:")) and column not in known:
            hint = did_you_mean(column, [k for k in known if not k.endswith(">")]) or f"; known: {', '.join(known)}"
            raise InputError("command line", "doctor", f"unknown column {column!r}{hint}")
    text, _ = format_doctor(args.columns or None)
    say(text)
    return EXIT_OK


COMMAND = Command(
    "doctor", "what every column needs, whether it is here, and how to install it", """
List every column (or the ones named), what it needs (a C compiler, ziglang,
Node.js, qemu-user, Wine, ...), which needs are present here with their
versions, and the command that installs each missing one.  Missing needs are
not a failure: such a column is SKIPPED by the matrix.""",
    ("orca-conformance doctor", "orca-conformance doctor arm64:qemu c:windows"),
    ok="the list is printed, whatever is missing", failed=None,
    add_arguments=add_arguments, run=run)
