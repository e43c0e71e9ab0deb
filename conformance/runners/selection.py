"""How a command line names runners: ``--runners A,B`` and ``--runner ID``.

Contract: ``commands.options.runners(parser, default)`` adds both options to a command,
repeatable and both into ``runner_ids`` in the order given: ``--runners`` splits on commas
(``split_runner_list``, blanks dropped), ``--runner`` takes one id whole (``one_runner_id``),
commas included, so that an ``exec:`` command may hold one (an empty id is a usage error).
``chosen_runners(given)`` is that list without duplicates; it raises ``InputError`` (bad
input) when it names no runner or an unknown one, or an ``exec:`` command whose program cannot
be started (``command_problem``), before anything runs or is built (with the nearest known
id, ``errors.did_you_mean``, when one is near).  A program that starts but then fails (dies
at its hello, answers nonsense) is no bad input: its column runs, and is red.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
from pathlib import Path

from ..errors import InputError
from . import DEFAULT_COLUMNS, known_ids, resolve


def split_runner_list(text: str) -> list[str]:
    """``--runners A,B``: the ids between commas, stripped, blanks dropped."""
    return [r.strip() for r in text.split(",") if r.strip()]


def one_runner_id(text: str) -> str:
    """``--runner ID``: one id taken whole (commas included), stripped; never empty."""
    if not text.strip():
        raise argparse.ArgumentTypeError("empty runner id")
    return text.strip()


def runner_ids_text() -> str:
    """Every runner id a user can type, from the registry: the default columns first, then the
    others (``reference``, every ``<arch>:qemu``, ``c:windows``, ``exec:<command>``, the
    families such as ``control:<name>``)."""
    return ", ".join(dict.fromkeys(DEFAULT_COLUMNS + known_ids()))


def chosen_runners(given: list[str]) -> list[str]:
    """The runner ids as given (in order, duplicates dropped), each one known."""
    ids = list(dict.fromkeys(given))
    if not ids:
        raise InputError("command line", "runners", "names no runner (--runners A,B or --runner ID)")
    for runner_id in ids:
        resolve(runner_id)  # unknown ids are bad input, before anything runs
    for runner_id in ids:
        if runner_id.startswith("exec:"):  # resolve made sure that there is a command
            problem = command_problem(runner_id[len("exec:"):])
            if problem:
                raise InputError(runner_id, problem[0], problem[1])
    return ids


def command_problem(command: str) -> tuple[str, str] | None:
    """Why an ``exec:`` command's program cannot be started, as (program, reason), or None when
    it can: a command that does not split as a shell would, a path (one with a ``/``) that is
    missing, a folder or not executable, a bare name that is not on PATH."""
    try:
        argv = shlex.split(command)
    except ValueError as err:
        return command.strip(), f"cannot split the command as a shell would: {err}"
    program = argv[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        path = Path(program)
        if not path.exists():
            return program, "no such file"
        if path.is_dir():
            return program, "is a folder, not a program"
        if not os.access(path, os.X_OK):
            return program, f"not executable (chmod +x {program})"
        return None
    if shutil.which(program) is None:
        here = Path(program)
        hint = f"; did you mean './{program}'?" if here.is_file() else ""
        return program, f"not found on PATH{hint}"
    return None
