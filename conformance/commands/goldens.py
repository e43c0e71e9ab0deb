"""``orca-conformance goldens regen|check``: the goldens, made and checked by the reference.

Contract: one group command with two actions.  ``regen`` writes a scenario's golden only when
the reference's run meets the scenario's own expect: bounds (otherwise REFUSED, exit 1);
``check`` re-runs the reference and compares bit for bit (with no ids: the vector files and
the orphans too).  The work is ``data.goldens``'s.
"""

from __future__ import annotations

import argparse

from ..data import goldens
from . import options
from .command import Command, exit_code, say


def _regen_arguments(p: argparse.ArgumentParser) -> None:
    """``ID...`` (scenarios, globs or vectors/FAMILY), ``--all``, ``--frames``."""
    p.add_argument("ids", nargs="*", metavar="ID", help="scenario ids or globs, or vectors/FAMILY (default: every "
                                                        "non-slow scenario and every vector family)")
    options.all_and_frames(p)


def _regen(args: argparse.Namespace) -> int:
    """Regenerate goldens from the reference (``goldens.regenerate``); exit 1 when one is refused."""
    suite = options.suite(args)
    scenarios, families = goldens.regen_targets(suite, args.ids or [], args.all, args.all or args.frames)
    return exit_code(goldens.regenerate(suite, scenarios, families, say).refused > 0)


def _check_arguments(p: argparse.ArgumentParser) -> None:
    """``ID...`` (scenarios or globs), ``--all``, ``--frames``."""
    p.add_argument("ids", nargs="*", metavar="ID", help="scenario ids or globs (default: every non-slow scenario, "
                                                        "the vector files and the orphans)")
    options.all_and_frames(p)


def _check(args: argparse.Namespace) -> int:
    """Re-run the reference and compare with the goldens; exit 1 on any difference."""
    suite = options.suite(args)
    chosen = suite.select(args.ids, args.all, args.all or args.frames)
    return exit_code(goldens.check_goldens(suite, chosen, not args.ids, say).failed)


REGEN = Command(
    "regen", "regenerate goldens from the reference", """
Run the reference on the named scenarios (ids or globs) and vector families
(vectors/FAMILY), or on every non-slow scenario and every family, and write the
goldens that changed.  A scenario's golden is written only when the run meets
the scenario's own expect: bounds; otherwise it is REFUSED.""",
    ("orca-conformance goldens regen orca/my-scene", "orca-conformance goldens regen vectors/relax"),
    ok="every golden was written or already current", failed="a golden was refused",
    add_arguments=_regen_arguments, run=_regen)

CHECK = Command(
    "check", "re-run the reference and compare", """
Re-run the reference on the named scenarios (or on every non-slow one, then the
vector files and orphans too) and compare with the committed goldens, bit for
bit.""",
    ("orca-conformance goldens check", "orca-conformance goldens check 'orca/boundary-*'"),
    ok="every golden agrees", failed="one differs, is missing, stale or an orphan",
    add_arguments=_check_arguments, run=_check)

COMMAND = Command(
    "goldens", "regenerate or check the goldens (reference only)", """\
The goldens are the reference's outputs: the state hashes of every scenario
(goldens/<id>.json) and the results of the primitive vectors (goldens/vectors/).
'regen' rewrites them, 'check' re-runs the reference and compares.""",
    ("orca-conformance goldens check", "orca-conformance goldens regen orca/my-scene"),
    actions=(REGEN, CHECK))
