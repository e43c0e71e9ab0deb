"""``orca-conformance matrix``: every scenario on every runner, compared with the goldens.

Contract: the suite's main job.  Bad input (shard, scenarios, runners, goldens and vectors, the
report folder) is found before the first build or cell; the table, the verdict and the reports
are the stages' (``judge``, ``reports``), printed here.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..data import goldens
from ..jsonfile import writable_folder
from ..progress import fit_to_terminal
from ..runners import default_columns
from ..runners.selection import chosen_runners
from ..runners.shard import parse_shard
from . import options
from .command import Command, exit_code, say

SHARD_HELP = ("run only shard K of N (1 <= K <= N) for a CI job matrix: the columns, in the order given, are "
              "dealt to the shards in turn (shard K runs columns K, K+N, ...), each with every row, so the slow "
              "emulated columns spread evenly over the shards and each shard builds only its own ports; "
              "'orca-conformance merge' of the N reports is the unsharded report")
"""``matrix --shard K/N`` (``runners.shard`` says why the split is by column)."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The runners, the scenarios and rows, the gate's strictness, the reports and the shard."""
    options.runners(p, f"default: the default columns, here {', '.join(default_columns())}")
    p.add_argument("--scenarios", metavar="GLOB", action="append",
                   help="scenario id or glob, e.g. 'orca/*circle*' (repeatable; default: all non-slow)")
    options.all_and_frames(p)
    p.add_argument("--no-vectors", action="store_true", help="skip the primitive-vector row")
    p.add_argument("--no-protocol", action="store_true",
                   help="skip the protocol row (runs of fewer steps, dumps, two runs in one process, hello, "
                        "an unknown command: docs/protocol.md#the-protocol-row)")
    p.add_argument("--strict", action="store_true",
                   help="fail on any SKIPPED cell and NOT PROVIDED vectors row too (ERROR and DIVERGED "
                        "always fail): for gates")
    options.report(p)
    options.jobs(p, "columns run at once, in threads (default: the number of CPUs, here %(default)s)")
    p.add_argument("--shard", metavar="K/N", help=SHARD_HELP)
    p.add_argument("--spec", metavar="FILE",
                   help="your copy of orca-spec.txt: red cells quote each clause's own words when it is the pinned "
                        "version (default: $ORCA_SPEC; without one, each clause in short, in the suite's words)")
    options.verbose(p)


def run(args: argparse.Namespace) -> int:
    """Check every input, run the matrix, print the table and the verdict, write the reports."""
    from ..judge.gate import judge_matrix
    from ..judge.cell_text import format_table
    from ..judge.matrix import run_matrix
    shard = parse_shard(args.shard) if args.shard is not None else None  # bad input before anything runs
    if args.spec is not None:
        from ..contract.clause_quote import use_text
        say(use_text(Path(args.spec)))
    suite = options.suite(args)
    scenarios = suite.select(args.scenarios or None, args.all, args.all or args.frames)
    ids = default_columns() if args.runner_ids is None else chosen_runners(args.runner_ids)
    goldens.require_readable(suite.goldens_dir, scenarios, with_vectors=not args.no_vectors)
    if args.report:
        writable_folder(args.report, "--report")  # before the first build or cell, not after the run
    header = {}
    if shard is not None:
        header = shard.header(ids)
        ids = shard.columns(ids)
        say(f"shard {shard}: columns {', '.join(ids)} (of {len(header.get('run_columns', ids))})")
    result = run_matrix(scenarios, ids, suite.goldens_dir, with_vectors=not args.no_vectors, jobs=args.jobs,
                        with_protocol=not args.no_protocol, share=not args.verbose)
    say(fit_to_terminal(format_table(result, verbose=args.verbose), sys.stdout))
    verdict = judge_matrix(result, len(scenarios), len(ids), args.strict)
    say(verdict.summary)
    if args.report:
        options.write_reports(result, suite, args.report, header)
    if verdict.reason:
        say(verdict.reason)
    return exit_code(verdict.failed)


COMMAND = Command(
    "matrix", "run the scenarios on the runners and compare with the goldens", """
Run every chosen scenario (the non-slow ones by default) and the primitive
vectors on every chosen runner, and compare each step's state hash, bit for bit,
with the goldens the reference made.  The protocol row asks each runner what the
scenarios never do: runs of fewer steps, dumps, two runs in one process, and (a
port's executable) its hello and an unknown command.  Prints the table of cells,
then each red cell (DIVERGED, ERROR, SKIPPED) with where and why, and a vectors
row NOT PROVIDED when a port answers only some primitive families (its hello).""",
    ("orca-conformance matrix",
     "orca-conformance matrix --runners c,wasm --scenarios 'orca/*circle*'",
     "orca-conformance matrix --runner 'exec:./my-port' --report r/ --strict",
     "orca-conformance matrix --shard 2/3 --report shard-2/   # then: merge shard-*/report.json"),
    ok="every compared cell passed",
    failed="a cell diverged or errored (with --strict: or was skipped), or nothing was compared",
    add_arguments=add_arguments, run=run)
