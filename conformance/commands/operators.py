"""``orca-conformance operators``: rewrite operators at every site of the C port.

Contract: the engine is ``selftest.variants``'s (``operator_run``, ``operator_command``,
``review``, ``band_search``); each variant is judged like a misreading (its red cell
must name a cause its class declares).  ``--evidence`` and ``--search`` refresh the reviewed
survivors' records, ``--list`` prints the variants and stops.
"""

from __future__ import annotations

import argparse

from . import options
from .command import EXIT_OK, Command, exit_code, say


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The variants (only, sample, seed), the run (jobs, timeout, sanitizer), the report, the reviews."""
    options.parallel(p, "variants")
    options.only_ids(p, "variants", "float32:*")
    options.sample(p, "variants")
    options.seed(p)
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per variant (hung ones are timeouts)")
    p.add_argument("--write", action="store_true", help="write docs/operators/report.json and report.md (every variant)")
    p.add_argument("--evidence", action="store_true",
                   help="run the reviewed survivors (docs/operators/equivalent.json) on fresh random primitive "
                        "inputs and the slow scenarios, and record the result there")
    p.add_argument("--search", action="store_true",
                   help="run the reviewed survivors without a proof on the band search (zeros of both signs, "
                        "subnormals, values an ulp apart, points on the radius, off-axis geometry) and record it "
                        "there: what makes them equivalent")
    p.add_argument("--list", action="store_true", help="print every variant's id and diff and stop")
    p.add_argument("--sanitize", choices=("address", "thread"), help="build the variants with this sanitizer")


def run(args: argparse.Namespace) -> int:
    """Run the chosen variants (or refresh a review, or list them); exit 1 on a gap."""
    from ..selftest.variants import operator_run
    suite = options.suite(args)
    if args.evidence:
        from ..selftest.variants.evidence import refresh_operator_evidence
        return exit_code(refresh_operator_evidence(suite.root, args.jobs, say) > 0)
    if args.search:
        from ..selftest.variants.band_search import refresh_search
        return exit_code(refresh_search(suite.root, args.jobs, say) > 0)
    patterns = options.patterns(args.only)
    if args.list:
        for v in operator_run.select_variants(patterns, args.sample, args.seed):
            say(f"{v.id}\n  " + v.diff().replace("\n", "\n  "))
        return EXIT_OK
    from ..selftest.variants.operator_command import run_operators
    return exit_code(run_operators(suite.root, patterns, args.sample, args.seed, args.jobs, args.timeout,
                                   args.write, args.sanitize, say))


COMMAND = Command(
    "operators", "rewrite operators at every site of the C port, judged like misreadings", """
Each rewrite operator of runners/c/operators/ (roots for squares, float32
storage, fmin/fmax for explicit selects, tolerances, reassociation, sort keys,
off-by-one, added guards) is applied at every site of its kind; each variant
runs the scenes (its red cell must name a cause its class declares), then the
vectors.  A survivor must be reviewed equivalent in docs/operators/
equivalent.json with evidence or a solver's proof (about 15 minutes for every
variant; --write commits the report, which a test holds fresh).""",
    ("orca-conformance operators --only 'float32:*'", "orca-conformance operators --write",
     "orca-conformance operators --evidence", "orca-conformance operators --list"),
    ok="no variant is a gap, miscaused, a build failure or a timeout",
    failed="one is (or --evidence finds a difference)",
    add_arguments=add_arguments, run=run)
