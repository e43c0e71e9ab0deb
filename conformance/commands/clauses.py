"""``orca-conformance clauses``: every clause of the text and what pins it down.

Contract: the report is ``selftest.clauses.report.clauses_report``'s; ``--write`` also writes
docs/clauses.md, ``--list`` only lists the clauses (and never fails).
"""

from __future__ import annotations

import argparse

from . import options
from .command import Command, exit_code, say


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``--write`` and ``--list``."""
    p.add_argument("--write", action="store_true", help="also write docs/clauses.md")
    p.add_argument("--list", action="store_true", help="list the clause ids, where they stand, what they say")


def run(args: argparse.Namespace) -> int:
    """Report every clause; exit 1 when one is OPEN or a piece of the suite names none."""
    from ..selftest.clauses.report import clauses_report
    return exit_code(clauses_report(options.suite(args), args.write, args.list, say))


COMMAND = Command(
    "clauses", "every clause of the text: sites, boundary data, scenes, controls", """
Every clause of the text (orca-spec.txt, the spec notes, the porting rules) with
what pins it down: decision sites, boundary data, scenarios, controls; a clause
nothing pins is OPEN.  --write also writes docs/clauses.md; --list only lists
the ids, where they stand and what they say.""",
    ("orca-conformance clauses", "orca-conformance clauses --list"),
    ok="every clause is pinned and every piece of the suite names its clauses (or with --list)",
    failed="a clause is OPEN or a scenario, control or vector family names none",
    add_arguments=add_arguments, run=run)
