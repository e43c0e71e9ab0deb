"""``orca-conformance census``: the boundary census of the reference.

Contract: the census is ``selftest.census``'s: data exactly on every decision site of the
reference, in the vectors and the non-slow scenes; ``--write`` stores it, ``--check`` runs
nothing new and checks the committed one (fresh, complete, every site covered or argued).
"""

from __future__ import annotations

import argparse

from . import options
from .command import Command, exit_code, say


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``--write`` and ``--check``."""
    p.add_argument("--write", action="store_true", help="write docs/census/census.json (the committed census)")
    p.add_argument("--check", action="store_true",
                   help="only check the committed census: fresh, complete, every site covered or argued")


def run(args: argparse.Namespace) -> int:
    """Take the census (or check the committed one); exit 1 when a site is neither covered nor argued."""
    from ..selftest.census.command import check_census, take_census
    suite = options.suite(args)
    return exit_code(check_census(suite, say) if args.check else take_census(suite, args.write, say))


COMMAND = Command(
    "census", "boundary census: data exactly on every decision of the reference", """
Run the instrumented reference over the vectors and the committed non-slow
scenarios and count, for every decision site of the reference, the data that
fall exactly on its boundary (about 2 minutes).  --write stores the census as
docs/census/census.json; --check runs nothing new and checks the committed one.""",
    ("orca-conformance census --check", "orca-conformance census --write"),
    ok="every decision site is covered or argued (with --check: the census is also fresh and complete)",
    failed="a site is neither covered nor argued, or the committed census is stale",
    add_arguments=add_arguments, run=run)
