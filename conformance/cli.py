"""The ``orca-conformance`` command: the parser built from the registry, and the dispatch.

Contract: ``build_parser()`` makes one subcommand per ``commands.COMMANDS`` entry (a group's
actions below it), each with its command's help line, description (what it does and exits
with) and examples, and stores the ``Command`` parsed in ``args.chosen``; ``main(argv)``
parses, calls that command's ``run`` and returns its exit code.  Nothing here names a command.

Exit codes: 0 success; 1 the suite ran and found a failure (mismatch, divergence, lint
problem); 2 bad input or usage: one ``error:`` line on stderr, for an ``InputError`` (naming
the file, key path and reason) and for every usage error (``UsageError``): an unknown command
(``unknown command 'matrx'; did you mean 'matrix'?``), an unknown option of any command
(``orca-conformance matrix: unknown option '--runnres'; did you mean '--runners'?``) and every
other argparse error, never argparse's usage text.  Options are never abbreviated.  Ctrl-C
is ``interrupted`` and 130.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import NoReturn

from . import __version__
from .commands import COMMANDS
from .commands.command import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, Command
from .errors import InputError, did_you_mean

__all__ = ["EXIT_BAD_INPUT", "EXIT_FAILED", "EXIT_OK", "UsageError", "build_parser", "main"]

DESCRIPTION = ("Bit-for-bit conformance suite for ports of the ORCA crowd solver: every\n"
               "scenario's state hashes on every runner, compared with the goldens.")
"""The top of ``orca-conformance --help``."""

EPILOG = """\
examples:
  orca-conformance matrix                    # every scenario on the default columns
  orca-conformance matrix --runner 'exec:./my-port' --report r/
  orca-conformance doctor                    # what each column needs, what is here
  orca-conformance COMMAND --help            # what a command does and exits with

Exit codes: 0 success; 1 the suite ran and found a failure; 2 bad input or usage
(one line on stderr: error: <file>: <key path>: <reason>)."""
"""The end of ``orca-conformance --help``."""


class UsageError(Exception):
    """A command line argparse refuses (an unknown command or option, a missing or malformed
    value); ``str`` is the whole one-line message."""


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
        """An unknown command (at any level: ``goldens regn``) names the nearest known one."""
        if isinstance(action, argparse._SubParsersAction) and value not in action.choices:
            names = list(action.choices)
            prefix = " ".join(self.prog.split()[1:] + [""])  # "goldens " below the goldens command
            hint = did_you_mean(str(value), names, prefix) or f"; known: {', '.join(prefix + n for n in names)}"
            raise UsageError(f"unknown command {prefix + str(value)!r}{hint}")
        super()._check_value(action, value)


def _add(sub: argparse._SubParsersAction, command: Command) -> None:
    """``command``'s parser below ``sub``: its help line, description, examples and options; a
    group's actions below it (``dest``: ``<group>_command``), a leaf's ``Command`` stored in
    ``args.chosen``."""
    p = sub.add_parser(command.name, help=command.summary, description=command.description,
                       epilog=command.epilog, formatter_class=HelpFormatter)
    command.add_arguments(p)
    if command.actions:
        actions = p.add_subparsers(dest=f"{command.name}_command", metavar="ACTION")
        actions.required = True
        for action in command.actions:
            _add(actions, action)
    else:
        p.set_defaults(chosen=command)


def build_parser() -> Parser:
    """The whole command line, one subcommand per registered command (the ``control:`` runner
    family registered first, so that the runner ids in the help are complete)."""
    from .selftest.controls.catalogue import register_columns
    register_columns()
    parser = Parser(prog="orca-conformance", description=DESCRIPTION, epilog=EPILOG, formatter_class=HelpFormatter)
    parser.add_argument("--version", action="version", version=f"orca-conformance {__version__}")
    parser.add_argument("--suite", metavar="DIR", help="folder holding scenarios/ and goldens/")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for command in COMMANDS:
        _add(sub, command)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv`` (default: the process's arguments) and run the command; its exit code."""
    try:
        args = build_parser().parse_args(argv)
    except (UsageError, InputError) as err:  # InputError: an installed suite missing files (shipped.py)
        print(f"error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        return args.chosen.run(args)
    except InputError as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
