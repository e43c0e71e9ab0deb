"""The options several commands share, and what they do with their values.

Contract: each helper adds one option (or one pair) to a command's parser with the same name,
type, default and help wherever it appears, so that ``--report`` or ``--jobs`` means one thing
on every command; the ones that read a value back (``suite``, ``patterns``, ``write_reports``)
are here too.  Lists of ids in the help come from the registries (``runners``), never from a
list written here.  A value argparse can check is checked here (``positive_int``) and is a
usage error; a value that needs the suite or the machine is the command's ``InputError``.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from ..data.suite import Suite
from ..runners.selection import one_runner_id, runner_ids_text, split_runner_list
from .command import say

REPORT_HELP = ("write the matrix reports into DIR: report.json, junit.xml, matrix.md, matrix.html "
               "(self-contained, a chart per red cell) and clauses.html (the clauses the red cells break)")
"""``--report DIR`` of ``matrix`` and ``fuzz``: every file that ``write_reports`` writes."""


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is less than 1")
    return value


def suite(args: argparse.Namespace) -> Suite:
    """The suite named by the top-level ``--suite DIR`` (default: the one installed or checked out)."""
    return Suite.locate(args.suite)


def runners(p: argparse.ArgumentParser, default: str) -> None:
    """``--runners A,B`` and ``--runner ID``, both repeatable and both into ``args.runner_ids``
    in the order given (``runners.selection``: ``--runners`` splits on commas, ``--runner``
    takes one id whole, so that an ``exec:`` command may hold a comma); ``default`` says what
    no option means, and every known id is in the help."""
    p.add_argument("--runners", metavar="A,B", dest="runner_ids", action="extend", type=split_runner_list,
                   help=f"runner ids, comma-separated (repeatable; {default}); known: {runner_ids_text()}")
    p.add_argument("--runner", metavar="ID", dest="runner_ids", action="append", type=one_runner_id,
                   help="one runner id taken whole, so an exec: command may contain commas, e.g. "
                        "'exec:./my-port --x=a,b' (repeatable; mixes with --runners, columns in the order given)")


def all_and_frames(p: argparse.ArgumentParser) -> None:
    """``--all`` (the slow scenarios and every framed variant too) and ``--frames`` (every framed
    variant), as ``Suite.select`` takes them: ``suite.select(ids, args.all, args.all or args.frames)``."""
    p.add_argument("--all", action="store_true", help="include the slow scenarios and every framed variant")
    p.add_argument("--frames", action="store_true",
                   help="include every framed variant (ID~FRAME, scenarios/frames.json), not only the default matrix's")


def report(p: argparse.ArgumentParser, help: str = REPORT_HELP) -> None:
    """``--report DIR``: the matrix reports (``write_reports``) into DIR."""
    p.add_argument("--report", metavar="DIR", help=help)


def write_reports(result, suite: Suite, folder: str, header: dict | None = None) -> None:
    """The matrix reports of ``result`` into ``folder``: report.json, junit.xml, matrix.md,
    matrix.html and clauses.html (``REPORT_HELP`` names them all), each path said on stdout;
    ``header``: fields added to the report's header (a shard's)."""
    from ..reports.report import write_reports as write
    from ..selftest.clauses.report import write_clause_page
    paths = write(result, suite, Path(folder), header=header)
    for path in paths + [write_clause_page(Path(folder), suite, paths[0])]:
        say(f"report: {path}")


def jobs(p: argparse.ArgumentParser, help: str) -> None:
    """``--jobs N``: a whole number of at least 1, by default the number of CPUs (``help`` may
    say it with ``%(default)s``)."""
    p.add_argument("--jobs", metavar="N", type=positive_int, default=os.cpu_count() or 1, help=help)


def parallel(p: argparse.ArgumentParser, things: str) -> None:
    """``--jobs JOBS`` of the variant engines (mutants, variants): None means one per core."""
    p.add_argument("--jobs", type=int, help=f"parallel {things} (default: the number of cores)")


def only_ids(p: argparse.ArgumentParser, things: str, example: str) -> None:
    """``--only GLOB`` of the variant engines: repeatable, each comma-separated (``patterns``)."""
    p.add_argument("--only", metavar="GLOB", action="append",
                   help=f"only the {things} whose id matches (e.g. '{example}'; repeatable, comma-separated)")


def patterns(only: list[str] | None) -> list[str] | None:
    """The globs of every ``--only`` given (split on commas, blanks dropped); None when none was."""
    return [p for group in only for p in group.split(",") if p] if only else None


def sample(p: argparse.ArgumentParser, things: str) -> None:
    """``--sample N``: a fixed random sample of N of the engine's ``things`` (seeded by ``seed``)."""
    p.add_argument("--sample", type=int, help=f"a fixed random sample of N {things}")


def seed(p: argparse.ArgumentParser) -> None:
    """``--seed`` of a ``--sample`` (default 1)."""
    p.add_argument("--seed", type=int, default=1, help="seed of the sample")


def verbose(p: argparse.ArgumentParser) -> None:
    """``-v``/``--verbose``: every red cell's whole diagnosis."""
    p.add_argument("-v", "--verbose", action="store_true",
                   help="print every red cell's whole diagnosis (default: a headline and at most two lines)")
