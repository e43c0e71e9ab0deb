"""The ``orca-conformance`` command line: every subcommand's options, help and examples.

Contract: ``build_parser()`` returns the whole parser.  Each subcommand stores the name of its
handler in ``args.handler`` (``"matrix"``, ``"goldens regen"``, ...), which ``cli.HANDLERS``
maps to the function that runs it, so this module imports no handler.  Every subcommand's
``--help`` says what it does and what it exits with (``description``) and ends with at least
one example (``epilog``; texts in ``cli_help``).  Lists of ids in the help come from the
registries (``runners.known_ids``, ``port_build.buildable_by_kind``), never from a list
written here.  An unknown subcommand raises ``UsageError``, whose text is one line:
``unknown command 'matrx'; did you mean 'matrix'?`` (the CLI prints it and exits with 2); so do
an unknown option of any command (``orca-conformance matrix: unknown option '--runnres'; did you
mean '--runners'?``) and every other argparse error, never argparse's usage text.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from typing import NoReturn

from . import __version__
from .cli_help import EPILOG, TEXTS, REPORT_HELP, SHARD_HELP
from .errors import did_you_mean
from .runners import default_columns
from .runners.selection import runner_options

COMMAND_DESTS = ("command", "goldens_command")
"""The ``dest`` of the two levels of subcommands (``orca-conformance COMMAND``, ``goldens ACTION``)."""


class UsageError(Exception):
    """A command line that names an unknown subcommand; ``str`` is the whole one-line message."""


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Descriptions and examples as written (line breaks kept); option help wrapped to the
    terminal, but never inside an id at a hyphen (``c:O3-native`` stays whole)."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False)


class Parser(argparse.ArgumentParser):
    """argparse, where every usage error is one ``UsageError`` line: an unknown subcommand or
    option names the nearest known one (``errors.did_you_mean``), any other error says which
    command it is about; options are never abbreviated (``--rep`` is not ``--report``), so that
    a typo is an error and not whichever option it happens to begin."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("allow_abbrev", False)  # subcommands' parsers too (add_parser passes no value)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        """argparse's own errors (a missing or malformed value): one line, not the usage text."""
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")

    def parse_known_args(self, args=None, namespace=None):
        """As argparse, but an argument this parser does not know is a ``UsageError`` here, where
        the subcommand's own options are known, rather than at the top as "unrecognized
        arguments"; an unknown option is named before any other error (argparse's "the following
        arguments are required", which a typo of a required option would otherwise give, or an
        "unknown command" for the value of a misspelt ``--suite``)."""
        args = sys.argv[1:] if args is None else list(args)
        unknown = self._unknown_option(args)
        if unknown:
            raise UsageError(self._unknown(unknown))
        namespace, extras = super().parse_known_args(args, namespace)
        if extras:
            raise UsageError(self._unknown(extras[0]))
        return namespace, extras

    def _unknown_option(self, args: list[str]) -> str | None:
        """The first ``--option`` of ``args`` this parser does not know, skipping the values of
        the ones it does; a parser with subcommands looks only before the subcommand's name."""
        commands = self._subparsers is not None
        takes_value = False
        for given in args:
            if given == "--":
                return None
            if takes_value:
                takes_value = False
            elif given.startswith("--"):
                action = self._option_string_actions.get(given.split("=", 1)[0])
                if action is None:
                    return given
                takes_value = "=" not in given and action.nargs is None
            elif commands:
                return None
        return None

    def _unknown(self, given: str) -> str:
        """``matrix: unknown option '--runnres'; did you mean '--runners'?``, or for a word that is
        no option, that it is unexpected."""
        if not given.startswith("-") or given == "-":
            return f"{self.prog}: unexpected argument {given!r} (see {self.prog} --help)"
        option = given.split("=", 1)[0]
        known = sorted(o for o in self._option_string_actions if o.startswith("--"))
        hint = did_you_mean(option, known) or f"; known: {', '.join(known)}"
        return f"{self.prog}: unknown option {option!r}{hint}"

    def _check_value(self, action: argparse.Action, value: object) -> None:
        if action.dest in COMMAND_DESTS and action.choices is not None and value not in action.choices:
            names = list(action.choices)
            prefix = " ".join(self.prog.split()[1:] + [""])  # "goldens " below the goldens command
            hint = did_you_mean(str(value), names, prefix) or f"; known: {', '.join(prefix + n for n in names)}"
            raise UsageError(f"unknown command {prefix + str(value)!r}{hint}")
        super()._check_value(action, value)


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is less than 1")
    return value


def _parser(sub, name: str) -> argparse.ArgumentParser:
    """One subcommand's parser with its help line, description and examples (``cli_help.TEXTS``;
    ``name`` is the command as typed after ``orca-conformance``, e.g. ``goldens regen``)."""
    text = TEXTS[name]
    return sub.add_parser(name.split()[-1], help=text.help, description=text.description,
                          epilog=text.epilog(), formatter_class=HelpFormatter)


def _command(sub, name: str, handler: str | None = None) -> argparse.ArgumentParser:
    """``_parser``, running the handler named ``handler`` (default: the command's own name)."""
    p = _parser(sub, name)
    p.set_defaults(handler=handler or name)
    return p


def _verbose(p: argparse.ArgumentParser) -> None:
    p.add_argument("-v", "--verbose", action="store_true",
                   help="print every red cell's whole diagnosis (default: a headline and at most two lines)")


def _add_matrix(sub) -> None:
    p = _command(sub, "matrix")
    runner_options(p, f"default: the default columns, here {', '.join(default_columns())}")
    p.add_argument("--scenarios", metavar="GLOB", action="append",
                   help="scenario id or glob, e.g. 'orca/*circle*' (repeatable; default: all non-slow)")
    p.add_argument("--all", action="store_true", help="include the slow scenarios and every framed variant")
    p.add_argument("--frames", action="store_true",
                   help="include every framed variant (ID~FRAME, scenarios/frames.json), not only the default matrix's")
    p.add_argument("--no-vectors", action="store_true", help="skip the primitive-vector row")
    p.add_argument("--no-protocol", action="store_true",
                   help="skip the protocol row (runs of fewer steps, dumps, two runs in one process, hello, "
                        "an unknown command: docs/protocol.md#the-protocol-row)")
    p.add_argument("--strict", action="store_true",
                   help="fail on any SKIPPED cell and NOT PROVIDED vectors row too (ERROR and DIVERGED "
                        "always fail): for gates")
    p.add_argument("--report", metavar="DIR", help=REPORT_HELP)
    p.add_argument("--jobs", metavar="N", type=positive_int, default=os.cpu_count() or 1,
                   help="columns run at once, in threads (default: the number of CPUs, here %(default)s)")
    p.add_argument("--shard", metavar="K/N", help=SHARD_HELP)
    p.add_argument("--spec", metavar="FILE",
                   help="your copy of orca-spec.txt: red cells quote each clause's own words when it is the pinned "
                        "version (default: $ORCA_SPEC; without one, each clause in short, in the suite's words)")
    _verbose(p)


def _add_controls(sub) -> None:
    """The self-checks against the text: controls, spec, clauses."""
    p = _command(sub, "controls")
    p.add_argument("--only", metavar="A,B", help="run only these controls (names or globs, comma-separated)")
    p = _command(sub, "spec", "text")
    p.add_argument("file", metavar="FILE", help="your copy of orca-spec.txt")
    p = _command(sub, "clauses", "text")
    p.add_argument("--write", action="store_true", help="also write docs/clauses.md")
    p.add_argument("--list", action="store_true", help="list the clause ids, where they stand, what they say")


def _add_build(sub) -> None:
    from .runners.port_build import KIND_NAMES, buildable_by_kind
    p = _command(sub, "build")
    kinds = "; ".join(f"{KIND_NAMES[kind]}: {', '.join(ids)}" for kind, ids in buildable_by_kind().items() if ids)
    p.add_argument("column", metavar="COLUMN", help=f"the column whose port to build: {kinds}; "
                                                    "or control:<name> (a deliberately wrong build)")
    p.add_argument("--out", required=True, metavar="PATH", help="file to write (or an existing folder)")
    p.add_argument("--sources", metavar="DIR",
                   help="build from DIR, your edited copy of runners/c (its solver/, harness/ and, for the CLI, "
                        "cli/ folders), with the column's own flags (default: runners/c)")


def _add_fuzz(sub) -> None:
    p = _command(sub, "fuzz")
    runner_options(p, "at least one")
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
    p.add_argument("--report", metavar="DIR", help=REPORT_HELP.replace("matrix reports", "matrix reports of the "
                                                                      "failing scenes and a summary row"))
    p.add_argument("--protocol", action="store_true",
                   help="also run the protocol row's scene checks on each scene that passes: runs of fewer "
                        "steps, dumps, two runs in one process (docs/fuzz.md)")
    p.add_argument("--frames", action="store_true",
                   help="run each scene that passed again in a frame of its own: rotated, translated, mirrored, "
                        "its agents reordered (docs/fuzz.md)")
    p.add_argument("--jobs", metavar="N", type=positive_int, default=os.cpu_count() or 1,
                   help="worker processes computing the reference's hashes ahead; the run is the same as with "
                        "--jobs 1 (default: the number of CPUs, here %(default)s)")
    p.add_argument("--controls", action="store_true",
                   help="run the negative controls and the misreading catalogue under fuzz instead")
    p.add_argument("--only", metavar="A,B", help="with --controls: only these controls (names or globs)")
    _verbose(p)


def _add_census(sub) -> None:
    p = _command(sub, "census")
    p.add_argument("--write", action="store_true", help="write docs/census/census.json (the committed census)")
    p.add_argument("--check", action="store_true",
                   help="only check the committed census: fresh, complete, every site covered or argued")


def _add_merge(sub) -> None:
    p = _command(sub, "merge")
    p.add_argument("reports", nargs="+", metavar="REPORT", help="report.json files from matrix --report")
    p.add_argument("--out", required=True, metavar="DIR", help="folder for matrix.json, matrix.md, matrix.html")


def _add_render(sub) -> None:
    p = _command(sub, "render")
    p.add_argument("id", metavar="ID", help="scenario id, e.g. orca/wall-gap")
    p.add_argument("--runner", default="reference", help="runner id (default: reference)")
    p.add_argument("--out", required=True, metavar="FILE", help="picture file: .svg, .png or .gif")
    p.add_argument("--every", type=int, help="sample every N steps (default: about 400 frames, 60 for GIF)")
    p.add_argument("--steps", type=int, help="stop after N steps")


def _add_mutate(sub) -> None:
    p = _command(sub, "mutate")
    p.add_argument("--jobs", type=int, help="parallel mutants (default: the number of cores)")
    p.add_argument("--sample", type=int, help="a fixed random sample of N mutants")
    p.add_argument("--evidence", action="store_true",
                   help="run the reviewed equivalent mutants (docs/mutation/equivalent.json) on fresh random "
                        "primitive inputs and record the result there")
    p.add_argument("--only", metavar="GLOB", action="append",
                   help="only the mutants whose id matches (e.g. 'neighbors.c:*'; repeatable, comma-separated)")
    p.add_argument("--seed", type=int, default=1, help="seed of the sample")
    p.add_argument("--timeout", type=float,
                   help="seconds per mutant (default 30, 60 with --sanitize address, 180 with --sanitize thread; "
                        "a surviving mutant needs about 5; hung ones are timeouts)")
    p.add_argument("--out", metavar="DIR", help="write report.json and report.md into DIR")
    p.add_argument("--sanitize", choices=("address", "thread"),
                   help="build every mutant with AddressSanitizer or ThreadSanitizer (then also on a real pool of "
                        "two threads): a memory error or a data race is a kill by sanitizer:NAME every time, not "
                        "a crash on some runs (Linux, gcc's libasan/libtsan; verdicts cached apart; default: none)")


def _add_operators(sub) -> None:
    p = _command(sub, "operators")
    p.add_argument("--jobs", type=int, help="parallel variants (default: the number of cores)")
    p.add_argument("--only", metavar="GLOB", action="append",
                   help="only the variants whose id matches (e.g. 'float32:*'; repeatable, comma-separated)")
    p.add_argument("--sample", type=int, help="a fixed random sample of N variants")
    p.add_argument("--seed", type=int, default=1, help="seed of the sample")
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


def _add_doctor(sub) -> None:
    p = _command(sub, "doctor")
    p.add_argument("columns", nargs="*", metavar="COLUMN", help="only these column ids (default: every column)")


def _add_check(sub) -> None:
    p = _command(sub, "check")
    p.add_argument("--list", action="store_true", help="print the scenario ids and stop")


def _add_expand(sub) -> None:
    p = _command(sub, "expand")
    p.add_argument("id", metavar="ID|FILE",
                   help="scenario id (orca/head-on-exact) or its file below scenarios/ "
                        "(scenarios/orca/head-on-exact.yaml)")


def _add_goldens(sub) -> None:
    goldens = _parser(sub, "goldens")
    gsub = goldens.add_subparsers(dest="goldens_command", metavar="ACTION")
    gsub.required = True
    p = _command(gsub, "goldens regen")
    p.add_argument("ids", nargs="*", metavar="ID", help="scenario ids or globs, or vectors/FAMILY (default: every "
                                                        "non-slow scenario and every vector family)")
    p.add_argument("--all", action="store_true", help="include the slow scenarios and every framed variant")
    p.add_argument("--frames", action="store_true",
                   help="include every framed variant (ID~FRAME, scenarios/frames.json), not only the default matrix's")
    p = _command(gsub, "goldens check")
    p.add_argument("ids", nargs="*", metavar="ID", help="scenario ids or globs (default: every non-slow scenario, "
                                                        "the vector files and the orphans)")
    p.add_argument("--all", action="store_true", help="include the slow scenarios and every framed variant")
    p.add_argument("--frames", action="store_true",
                   help="include every framed variant (ID~FRAME, scenarios/frames.json), not only the default matrix's")


def build_parser() -> Parser:
    """The whole command line (the ``control:`` runner family registered first, so that the
    runner ids in the help are complete)."""
    from .selftest.controls.catalogue import register_columns
    register_columns()
    parser = Parser(prog="orca-conformance", description=TEXTS["orca-conformance"].description,
                    epilog=EPILOG, formatter_class=HelpFormatter)
    parser.add_argument("--version", action="version", version=f"orca-conformance {__version__}")
    parser.add_argument("--suite", metavar="DIR", help="folder holding scenarios/ and goldens/")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for add in (_add_matrix, _add_controls, _add_build, _add_fuzz, _add_census, _add_merge,
                _add_render, _add_mutate, _add_operators, _add_doctor, _add_check, _add_expand, _add_goldens):
        add(sub)
    return parser
