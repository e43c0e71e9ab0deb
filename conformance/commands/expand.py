"""``orca-conformance expand ID|FILE``: one scenario as a port receives it.

Contract: the scenario's canonical JSON (``contract.scenario.canonical_json``: every generator
expanded into exact binary64 values, sorted keys, no spaces) on one line of stdout; an id
that matches no scenario, or a file outside the suite's scenarios/, is bad input.
"""

from __future__ import annotations

import argparse
import sys

from ..contract.scenario import canonical_json
from . import options
from .command import EXIT_OK, Command


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``ID|FILE``: the scenario."""
    p.add_argument("id", metavar="ID|FILE",
                   help="scenario id (orca/head-on-exact) or its file below scenarios/ "
                        "(scenarios/orca/head-on-exact.yaml)")


def run(args: argparse.Namespace) -> int:
    """Print the expanded scenario."""
    suite = options.suite(args)
    scenario = suite.scenario(suite.id_of(args.id))
    sys.stdout.write(canonical_json(scenario.expanded()).decode("ascii") + "\n")
    return EXIT_OK


COMMAND = Command(
    "expand", "print the expanded scenario of one id or file", """
Print one scenario as a port receives it: every generator expanded into exact
binary64 values, as canonical JSON (sorted keys, no spaces).  Give its id or
its file below the suite's scenarios/ folder (the id is that path without
.yaml); a file outside scenarios/ is bad input.""",
    ("orca-conformance expand orca/head-on-exact",
     "orca-conformance expand scenarios/orca/head-on-exact.yaml"),
    ok="the scenario is printed", failed=None,
    add_arguments=add_arguments, run=run)
