"""``orca-conformance controls``: the negative controls and the misreading catalogue.

Contract: each control (a deliberately wrong build of the C port) and each misreading runs as a
column on the committed non-slow scenarios and must be caught in one of them, or be argued
equivalent (``selftest.controls``); an unknown ``--only`` name is bad input.
"""

from __future__ import annotations

import argparse

from . import options
from .command import Command, exit_code, say


def add_arguments(p: argparse.ArgumentParser) -> None:
    """``--only A,B``: a subset of the controls."""
    p.add_argument("--only", metavar="A,B", help="run only these controls (names or globs, comma-separated)")


def run(args: argparse.Namespace) -> int:
    """Run the chosen controls on the non-slow scenarios; exit 1 when one is caught nowhere."""
    from ..selftest.controls.command import choose_controls, run_controls
    suite = options.suite(args)
    scenarios = suite.files(False)
    return exit_code(run_controls(choose_controls(args.only), scenarios, suite.goldens_dir, say))


COMMAND = Command(
    "controls", "run the negative controls and the misreading catalogue: each must be caught in a scenario", """
Run each negative control (a deliberately wrong build of the C port) and each
entry of the misreading catalogue as a column on the committed non-slow
scenarios: each must diverge in at least one of them, or be argued equivalent.""",
    ("orca-conformance controls", "orca-conformance controls --only 'horizon-*,textbook-ttc'"),
    ok="every control is caught", failed="a control is caught in no scenario (a gap) or nothing was compared",
    add_arguments=add_arguments, run=run)
