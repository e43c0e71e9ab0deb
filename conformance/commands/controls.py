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
    failed = run_controls(choose_controls(args.only), scenarios, suite.goldens_dir, say)
    if args.only is None:
        say(operators_line(suite.root))
    return exit_code(failed)


def operators_line(root) -> str:
    """The rewrite operators' part of the diagnosis benchmark, from the committed report (which
    ``orca-conformance operators`` re-judges, and a test holds fresh)."""
    from ..selftest.variants.operator_report import named_share
    share = named_share(root)
    if not share:
        return "rewrite operators: no committed report (docs/operators/report.json)"
    named, kills = sum(n for n, _ in share.values()), sum(k for _, k in share.values())
    every = sum(n > 0 for n, _ in share.values())
    return (f"rewrite operators: the cell names the operator's class or component in {named} of the {kills} variants a "
            f"scene kills without crashing, {every} of the {len(share)} classes named at least once (docs/operators/report.json; "
            "orca-conformance operators re-judges them)")


COMMAND = Command(
    "controls", "run the negative controls and the misreading catalogue: each must be caught in a scenario", """
Run each negative control (a deliberately wrong build of the C port) and each
entry of the misreading catalogue as a column on the committed non-slow
scenarios: each must diverge in at least one of them, or be argued equivalent.""",
    ("orca-conformance controls", "orca-conformance controls --only 'horizon-*,textbook-ttc'"),
    ok="every control is caught", failed="a control is caught in no scenario (a gap) or nothing was compared",
    add_arguments=add_arguments, run=run)
