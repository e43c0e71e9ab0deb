"""``orca-conformance check``: lint the suite itself.

Contract: the lint is ``data.lint``'s and says every problem, however many files are broken:
lint problems as ``FAIL`` lines on stdout and exit 1, bad files as one ``error:`` line each on
stderr and exit 2; a suite without scenarios fails.  ``--list`` prints the scenario ids (and
the broken files' errors) instead.
"""

from __future__ import annotations

import argparse
import sys

from ..contract.scenario import one_line
from ..data.lint import lint_suite
from . import options
from .command import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, Command, exit_code, say


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``--list``."""
    p.add_argument("--list", action="store_true", help="print the scenario ids and stop")


def _list(suite) -> int:
    """Every scenario id (slow ones marked), then the broken files; exit 2 when one is broken."""
    loaded = suite.load()
    for s in loaded.scenarios:
        say(s.id + ("  (slow)" if s.slow else ""))
    for b in loaded.broken:
        print(f"error: {b.error}", file=sys.stderr, flush=True)
    return EXIT_BAD_INPUT if loaded.broken else EXIT_OK


def run(args: argparse.Namespace) -> int:
    """Lint the suite (or list it); print every problem and the summary."""
    suite = options.suite(args)
    if args.list:
        return _list(suite)
    lint = lint_suite(suite)
    for p in lint.problems:
        say("FAIL", p)
    for err in lint.bad_input:
        print(f"error: {one_line(err)}", file=sys.stderr, flush=True)
    say(lint.summary())
    if lint.bad_input:
        return EXIT_BAD_INPUT
    if not lint.scenarios:
        say("check: no scenarios found")
        return EXIT_FAILED
    return exit_code(bool(lint.problems))


COMMAND = Command(
    "check", "lint the suite itself (schema, ids, goldens, orphans)", """
Lint the suite: every scenario file against the schema, ids that match their
paths, goldens present and fresh, every expect: bound met by its golden, the
vector files, no orphans.  Says every problem, however many files are broken
(FAIL lines on stdout, bad files as error: lines on stderr).  --list prints the
scenario ids instead.""",
    ("orca-conformance check", "orca-conformance --suite my-suite check --list"),
    ok="the suite is clean", failed="a lint problem was found or there are no scenarios",
    add_arguments=add_arguments, run=run)
