"""The outcomes of judging, as values (their strings are the reports'): how a cell ended, and
what kind of mistake a diagnosis names.

Contract: ``Status`` and ``CauseKind`` are string-valued enums: each member compares equal to,
hashes as, formats as and serialises to JSON as its string (``"PASS"``, ``"NOT PROVIDED"``,
``"hash-encoding"``...), so reports read the same as when they were plain strings, and a value
read back from a report (a string) compares equal to its member.  Code decides on members,
never on the words of a reason or a cause.
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


class CauseKind(str, Enum):
    """What kind of mistake a diagnosis names, as ``Diagnosis.kind`` (the cause text says the same
    in words); a string-valued enum, so that reports keep the strings (``"hash-encoding"``...)."""

    UNKNOWN = ""
    """Nothing could be said."""
    ENCODING = "hash-encoding"
    LOAD = "load"
    DRIVER = "driver"
    POSITION_UPDATE = "position-update"
    CONSTRAINTS = "constraints"
    VELOCITY = "velocity"
    COMPOSITION = "composition"
    SOLVER = "solver"
    PROTOCOL = "protocol"
    """The protocol row found the slip first (judge/protocol_finding.py)."""

    __str__ = str.__str__
    __format__ = str.__format__
