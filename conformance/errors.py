"""The one error type of bad input (file, key path and reason, printed as a single line), the
one wording of a file that cannot be read, and the one way to suggest a near name.

Contract: every stage raises ``InputError`` for bad input and ``CannotRead`` (an
``InputError``) for a file it cannot read; every "did you mean" in the suite comes from
``did_you_mean``, so that a suggestion is always near the word typed, never a far-away one.
"""

from __future__ import annotations

import re
from difflib import get_close_matches

CLOSE_ENOUGH = 0.6
"""difflib's similarity ratio (0 to 1) a name must reach to be suggested."""


class InputError(Exception):
    """Bad input (scenario, golden, report, protocol message): where it is and what is wrong.

    ``str(err)`` is ``"<file>: <key path>: <reason>"``; the CLI prints it and exits with 2.
    """

    def __init__(self, file: str, key_path: str, reason: str):
        self.file = file
        self.key_path = key_path
        self.reason = reason
        super().__init__(f"{file}: {key_path or '(document)'}: {reason}")


class CannotRead(InputError):
    """A file that could not be read at all (missing, a folder, no permission, not UTF-8).

    ``str(err)`` and ``reason`` are ``"cannot read <file>: <why>"``, the only wording of this
    error anywhere in the suite; ``why`` is the operating system's reason alone.
    """

    def __init__(self, file: str, why: str):
        super().__init__(file, "", f"cannot read {file}: {why}")
        self.why = why
        self.args = (self.reason,)


def cannot_read(file: object, err: BaseException) -> CannotRead:
    """The ``CannotRead`` of ``file`` for an ``OSError`` or ``UnicodeDecodeError``: the OS's
    words (``No such file or directory``), never Python's repr of the exception."""
    if isinstance(err, UnicodeDecodeError):
        return CannotRead(str(file), f"not UTF-8: byte 0x{err.object[err.start]:02X} at offset {err.start}")
    why = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
    return CannotRead(str(file), why)


def format_path(parts: list[str | int] | tuple[str | int, ...]) -> str:
    """Key path in the form ``agents[2].circle.count``."""
    out = ""
    for part in parts:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


_GLOB_SYNTAX = re.compile(r"\[[^\]]*\]|[*?]")


def did_you_mean(word: str, candidates: list[str] | tuple[str, ...], prefix: str = "") -> str:
    """``"; did you mean '<prefix><nearest>'?"`` for the candidate nearest to ``word``, or
    ``""`` when none is close (difflib's ratio below ``CLOSE_ENOUGH``): never a far-away name.

    Names are compared below their folder (``orca/nosuch`` as ``nosuch``, so that a shared
    ``orca/`` never makes two ids look alike), and a glob by its literal part (its wildcards
    and brackets left out: ``orca/hed-on*`` as ``hed-on``).  ``prefix`` goes before the
    suggestion, as the user would type it (``control:``, ``goldens ``)."""
    literal = _GLOB_SYNTAX.sub("", word.rpartition("/")[2])
    if not literal:
        return ""
    names: dict[str, str] = {}
    for candidate in candidates:
        names.setdefault(candidate.rpartition("/")[2], candidate)
    near = get_close_matches(literal, list(names), n=1, cutoff=CLOSE_ENOUGH)
    return f"; did you mean {prefix + names[near[0]]!r}?" if near else ""
