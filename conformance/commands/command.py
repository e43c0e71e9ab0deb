"""One ``orca-conformance`` command as one object: its help, its options and its run.

Contract: a ``Command`` holds everything that differs from one command to the next: the name
typed after ``orca-conformance`` (or after its group: ``regen`` of ``goldens``), the one-line
``summary`` of the list of commands, the ``about`` text and the exit codes that make its
``--help`` description, the ``examples`` of its epilog, ``add_arguments(parser)`` and
``run(args) -> exit code``.  A group (``goldens``) has ``actions`` instead of a ``run``: the
commands typed after its name.  Nothing else names a command: ``cli`` builds the parser from
the registry (``commands.COMMANDS``) and calls the ``run`` of the command it parsed.

A ``run`` prints through ``say`` (above any progress bar, never over it), raises
``errors.InputError`` for bad input (the CLI's one ``error:`` line and exit 2) and returns
``EXIT_OK`` or ``EXIT_FAILED`` (``exit_code(failed)``).
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from dataclasses import dataclass, field
from typing import Callable

from ..progress import Progress

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_BAD_INPUT = 2
"""The exit codes of every command: 0 success; 1 the suite ran and found a failure (mismatch,
divergence, lint problem); 2 bad input or usage (one line naming the file, key path and reason)."""


def say(*args: object) -> None:
    """A line on stdout; above the progress bar while one is drawn (never over it)."""
    if Progress.active is not None:
        Progress.active.note(" ".join(str(a) for a in args), sys.stdout)
    else:
        print(*args, flush=True)


def exit_code(failed: bool) -> int:
    """``EXIT_FAILED`` when ``failed``, else ``EXIT_OK``."""
    return EXIT_FAILED if failed else EXIT_OK


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    """A command without options or arguments of its own."""


@dataclass(frozen=True)
class Command:
    """One command of ``orca-conformance``: a leaf (``run``) or a group of actions (``actions``).

    A leaf has ``ok`` (when it exits 0) and ``failed`` (when it exits 1; None: it never does);
    its ``--help`` description is ``about`` followed by the exit codes, in the same words for
    every command.  A group's description is ``about`` alone."""

    name: str
    """The word typed after ``orca-conformance`` (or after the group's name)."""
    summary: str
    """One line, in the list of commands of the parent's ``--help``."""
    about: str
    """What it does, wrapped by hand (shown as written) at the top of its ``--help``."""
    examples: tuple[str, ...]
    """Whole command lines, shown at the end of its ``--help``; at least one."""
    ok: str | None = None
    """``Exit 0 when ...``: what success means (a leaf's; None for a group)."""
    failed: str | None = None
    """``1 when ...``: what failure means; None when the command never exits 1."""
    add_arguments: Callable[[argparse.ArgumentParser], None] = _no_arguments
    """Adds the command's own options and arguments to its parser."""
    run: Callable[[argparse.Namespace], int] | None = None
    """Runs the parsed command line; returns its exit code.  None for a group."""
    actions: tuple[Command, ...] = field(default=())
    """A group's commands, in the order of its ``--help``; empty for a leaf."""

    def __post_init__(self) -> None:
        if not self.examples:
            raise ValueError(f"command {self.name!r}: no example")
        if self.actions and self.run is not None:
            raise ValueError(f"command {self.name!r}: a group runs its actions, not a run of its own")
        if not self.actions and (self.run is None or self.ok is None):
            raise ValueError(f"command {self.name!r}: a command needs a run and its exit-0 text (ok)")

    @property
    def description(self) -> str:
        """The top of its ``--help``: ``about`` and, for a leaf, what it exits with."""
        if self.ok is None:
            return self.about.strip("\n")
        exits = f"Exit 0 when {self.ok}; " + (f"1 when {self.failed}; " if self.failed else "")
        exits += "2 on bad input or usage (one error: line on stderr)."
        return self.about.strip() + "\n\n" + textwrap.fill(exits, 80)

    @property
    def epilog(self) -> str:
        """The end of its ``--help``: the examples, one command line each."""
        return "examples:\n" + "\n".join(f"  {line}" for line in self.examples)
