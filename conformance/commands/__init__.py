"""The commands of ``orca-conformance``: one module per command, one ``Command`` object each.

Contract: ``COMMANDS`` is the only list of commands, in the order of ``orca-conformance
--help``; ``cli`` builds the parser from it and runs what it parsed, so that adding a command
is one module (its ``COMMAND``: help, examples, exit codes, options and run, ``command.Command``)
plus its line here.  Options several commands share are ``options``'s.  ``register`` and
``unregister`` add and drop one at run time (a plug-in, a test); a name is never taken twice.
"""

from __future__ import annotations

from . import (build, census, check, clauses, controls, doctor, expand, fuzz, goldens, matrix, merge, mutate,
               operators, render, spec)
from .command import Command

COMMANDS: list[Command] = [
    matrix.COMMAND,
    controls.COMMAND,
    spec.COMMAND,
    clauses.COMMAND,
    build.COMMAND,
    fuzz.COMMAND,
    census.COMMAND,
    merge.COMMAND,
    render.COMMAND,
    mutate.COMMAND,
    operators.COMMAND,
    doctor.COMMAND,
    check.COMMAND,
    expand.COMMAND,
    goldens.COMMAND,
]
"""Every command, in the order of ``orca-conformance --help``."""


def register(command: Command) -> Command:
    """Add ``command`` at the end of ``COMMANDS`` (and so of ``--help``); returns it.  A name
    already taken is a ``ValueError``."""
    if any(c.name == command.name for c in COMMANDS):
        raise ValueError(f"a command named {command.name!r} is already registered")
    COMMANDS.append(command)
    return command


def unregister(name: str) -> Command:
    """Drop the command named ``name`` from ``COMMANDS``; returns it (``KeyError`` if none is)."""
    for i, command in enumerate(COMMANDS):
        if command.name == name:
            return COMMANDS.pop(i)
    raise KeyError(name)

