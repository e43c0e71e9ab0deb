"""``orca-conformance mutate``: the mutation score of the C port under the scenarios and vectors.

Contract: the engine is ``selftest.variants``'s (``mutation_run``, ``mutate``, ``evidence``);
every input (``--only`` matching nothing, a sanitizer this machine lacks, ``--sanitize`` with
``--evidence``, an unwritable ``--out``) is bad input before the first mutant builds.  The run
fails on a survivor nobody has reviewed (a new gap or a stale equivalence claim).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import InputError
from ..jsonfile import writable_folder
from . import options
from .command import Command, exit_code, say


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The mutants (sample, only, seed), the run (jobs, timeout, sanitizer), the report, ``--evidence``."""
    options.parallel(p, "mutants")
    options.sample(p, "mutants")
    p.add_argument("--evidence", action="store_true",
                   help="run the reviewed equivalent mutants (docs/mutation/equivalent.json) on fresh random "
                        "primitive inputs and record the result there")
    options.only_ids(p, "mutants", "neighbors.c:*")
    options.seed(p)
    p.add_argument("--timeout", type=float,
                   help="seconds per mutant (default 30, 60 with --sanitize address, 180 with --sanitize thread; "
                        "a surviving mutant needs about 5; hung ones are timeouts)")
    p.add_argument("--out", metavar="DIR", help="write report.json and report.md into DIR")
    p.add_argument("--sanitize", choices=("address", "thread"),
                   help="build every mutant with AddressSanitizer or ThreadSanitizer (then also on a real pool of "
                        "two threads): a memory error or a data race is a kill by sanitizer:NAME every time, not "
                        "a crash on some runs (Linux, gcc's libasan/libtsan; verdicts cached apart; default: none)")


def run(args: argparse.Namespace) -> int:
    """Score the chosen mutants (or refresh the evidence); exit 1 on an unreviewed survivor."""
    from ..selftest.variants.mutation_run import score_mutants, select_mutants
    suite = options.suite(args)
    if args.evidence and args.sanitize:
        raise InputError("command line", "--sanitize", "not with --evidence (the evidence compares bits only)")
    if args.evidence:
        from ..selftest.variants.evidence import refresh_evidence
        return exit_code(refresh_evidence(suite.root, args.jobs, say).failed)
    patterns = options.patterns(args.only)
    mutants = select_mutants(patterns, args.sample, args.seed)
    if patterns is not None and not mutants:
        raise InputError("command line", "--only", f"no mutant id matches {', '.join(map(repr, patterns))}")
    from ..runners.build.sanitizer import unavailable
    reason = unavailable(args.sanitize) if args.sanitize else None
    if reason:
        raise InputError("command line", "--sanitize", reason)
    from ..selftest.variants.mutate import default_timeout
    timeout = args.timeout if args.timeout is not None else default_timeout(args.sanitize)
    out = Path(args.out) if args.out else None
    if out is not None:
        writable_folder(out, "--out")
    # fails on survivors nobody has reviewed (a new gap or a stale equivalence claim)
    return exit_code(score_mutants(mutants, suite.root, args.jobs, timeout, out, say, sanitizer=args.sanitize) > 0)


COMMAND = Command(
    "mutate", "mutation score of the C port under the scenarios and vectors", """
Mutation testing of the C port: each mutant of runners/c/ (one operator
changed) runs against the scenarios and vectors; a survivor that is not
reviewed equivalent in docs/mutation/equivalent.json is a gap (about 22 minutes
for every mutant).  --evidence instead re-runs the reviewed equivalent mutants
on fresh random primitive inputs and records the result there.""",
    ("orca-conformance mutate --only 'neighbors.c:*' --out mutation/",
     "orca-conformance mutate --sample 50 --seed 3", "orca-conformance mutate --evidence"),
    ok="no unreviewed mutant survives", failed="one does (or --evidence finds a difference)",
    add_arguments=add_arguments, run=run)
