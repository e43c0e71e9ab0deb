"""``orca-conformance fuzz``: differential testing on seeded random scenes, with shrinking.

Contract: the campaign is ``selftest.fuzz``'s; every input (kinds, duration, count, folders,
runners, option clashes) is checked before the first scene.  With ``--controls`` it runs the
negative controls under fuzz instead (``selftest.fuzz.command.fuzz_controls``).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import InputError
from ..jsonfile import writable_folder
from ..runners.selection import chosen_runners
from . import options
from .command import Command, exit_code, say


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The runners, the scenes (seed, count or time, kinds), the expected side, shrinking,
    reports, the extra checks, the workers and the controls."""
    options.runners(p, "at least one")
    p.add_argument("--seed", type=int, default=0, help="seed of the scenes (default 0)")
    amount = p.add_mutually_exclusive_group()
    amount.add_argument("--count", type=int, help="number of scenes (default 100; 30 per control with --controls)")
    amount.add_argument("--time", metavar="T", help="run for a duration: 90s, 10m, 1h")
    p.add_argument("--kinds", metavar="A,B", action="append", help="scene kinds (default: all; see docs/fuzz.md)")
    p.add_argument("--expected", metavar="ID", default="reference",
                   help="source of expected hashes: the reference (default) or a column that must first pass "
                        "the whole committed suite in this run, e.g. c")
    p.add_argument("--shrink-to", metavar="DIR",
                   help="shrink each divergence; write DIR/scenarios/fuzz/*.yaml and DIR/goldens/fuzz/*.json")
    options.report(p, options.REPORT_HELP.replace("matrix reports", "matrix reports of the "
                                                                    "failing scenes and a summary row"))
    p.add_argument("--protocol", action="store_true",
                   help="also run the protocol row's scene checks on each scene that passes: runs of fewer "
                        "steps, dumps, two runs in one process (docs/fuzz.md)")
    p.add_argument("--frames", action="store_true",
                   help="run each scene that passed again in a frame of its own: rotated, translated, mirrored, "
                        "its agents reordered (docs/fuzz.md)")
    options.jobs(p, "worker processes computing the reference's hashes ahead; the run is the same as with "
                    "--jobs 1 (default: the number of CPUs, here %(default)s)")
    p.add_argument("--controls", action="store_true",
                   help="run the negative controls and the misreading catalogue under fuzz instead")
    p.add_argument("--only", metavar="A,B", help="with --controls: only these controls (names or globs)")
    options.verbose(p)


def run(args: argparse.Namespace) -> int:
    """Check the inputs, run the campaign (or the controls under fuzz), write the reports."""
    from ..selftest.fuzz import campaign as fuzz
    from ..selftest.fuzz.command import fuzz_failed, fuzz_runners
    suite = options.suite(args)
    kinds = fuzz.parse_kinds(args.kinds)
    seconds = fuzz.parse_duration(args.time) if args.time is not None else None
    if args.count is not None and args.count < 1:
        raise InputError("command line", "--count", "must be at least 1")
    shrink_to = Path(args.shrink_to) if args.shrink_to else None
    for option, folder in (("--shrink-to", shrink_to), ("--report", args.report)):
        if folder:
            writable_folder(folder, option)
    if args.controls and args.protocol:
        raise InputError("command line", "--protocol", "not with --controls (the controls run the scenes only)")
    if args.controls:
        from ..selftest.controls.command import choose_controls
        from ..selftest.fuzz.command import fuzz_controls
        chosen = choose_controls(args.only)
        return exit_code(fuzz_controls(chosen, suite, args.seed, args.count or 30, kinds, shrink_to, say))
    ids = chosen_runners(args.runner_ids or [])
    result = fuzz_runners(suite, ids, args.seed, args.count, seconds, kinds, args.expected, shrink_to, say,
                          args.jobs, verbose=args.verbose, protocol=args.protocol, frames=args.frames)
    if args.report:
        options.write_reports(result.matrix(), suite, args.report)
    return exit_code(fuzz_failed(result, say))


COMMAND = Command(
    "fuzz", "differential testing on seeded random scenes, with shrinking", """
Run seeded random scenes (docs/fuzz.md) on the reference, or on a column that
first passes the whole committed suite (--expected), and on every chosen
runner, and compare every state.  Each divergence gets the matrix's diagnosis
and, with --shrink-to, is shrunk to a small scenario with its golden.  With
--protocol, each scene that passes also gets the protocol row's scene checks
(runs of fewer steps, dumps, two runs in one process).  With --controls, runs
the negative controls under fuzz instead.""",
    ("orca-conformance fuzz --runners c --count 200 --seed 7",
     "orca-conformance fuzz --runner 'exec:./my-port' --time 10m --shrink-to found/ --report fuzz-report/",
     "orca-conformance fuzz --runner 'exec:./my-port' --count 50 --protocol",
     "orca-conformance fuzz --controls --only horizon-swap"),
    ok="nothing diverged or errored",
    failed="something did or nothing was compared (with --controls: fuzzing caught a control "
           "the committed scenarios miss)",
    add_arguments=add_arguments, run=run)
