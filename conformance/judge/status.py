"""The statuses a cell of the hash matrix ends with, as values (their strings are the reports').

Contract: ``Status`` is a string-valued enum: each member compares equal to, hashes as, formats as
and serialises to JSON as its string (``"PASS"``, ``"DIVERGED"``, ``"ERROR"``, ``"NOT PROVIDED"``,
``"SKIPPED"``), so reports read the same as when statuses were plain strings, and a status read
back from a report (a string) compares equal to its member.  Code decides on members, never on
words of a reason.
"""

from __future__ import annotations

from enum import Enum


class Status(str, Enum):
    """How a cell ended (judge/cell.py says what each carries)."""

    PASS = "PASS"
    DIVERGED = "DIVERGED"
    ERROR = "ERROR"
    NOT_PROVIDED = "NOT PROVIDED"
    SKIPPED = "SKIPPED"

    __str__ = str.__str__
    __format__ = str.__format__
