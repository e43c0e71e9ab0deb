"""How long a port's reply line may be, per request (docs/protocol.md#limits), and the bounded read.

Contract: every reply line has a limit in bytes (the ``\\n`` not counted) that follows from its
request: ``hello_limit()``, ``run_limit()`` and ``error_limit()`` (a request only an error
answers, such as an unknown command) are fixed, ``dump_limit(agents)`` grows with the
scene's agent count, ``vectors_limit(family, cases)`` with the cases and the family's result
layout (conformance/data/vectors.py), list-valued results bounded by the lists in each case's
arguments.  Each limit is generous (at least twice a correct reply written with a space after
every separator) and never below ``ERROR_ROOM``, so that an error reply fits in place of any
line.  ``read_line`` reads one line holding at most the limit plus one byte (and the pipe's
read buffer): a longer line is ``Overlong`` with its first bytes, and the rest is never read.
``cap_text`` cuts the free text of a hello (port name, version) for the reports, saying how
much it cut.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import BinaryIO

from ..data import vectors

DOC = "docs/protocol.md#limits"
ERROR_ROOM = 1024
"""Bytes every line may have, whatever its request: an ``{"error": ...}`` reply may stand in for any."""
VALUE = 40
"""Bytes per scalar of a reply: twice a hex double with its quotes and a ``", "`` separator (20);
an integer below 2^53 takes at most 19 with its sign and separator."""
HELLO_LINE = 4096
INT_DIGITS = 16
"""Digits of the largest integer the protocol carries (below 2^53)."""
HASH_LINE = len(json.dumps({"step": 0, "hash": ""}, separators=(",", ":"))) - 1 + INT_DIGITS + 64
"""The longest compact step line of a run: keys and punctuation, 16 step digits, 64 hex digits (99)."""
DUMP_OVERHEAD = 256
VECTORS_OVERHEAD = 256
UNKNOWN_CASE = 256
MIN_LIST = 4
"""Entries every list-valued result may have, even with no list argument (for_boundary's line)."""
REPORT_TEXT = 200
"""Characters of a hello's free text (port name, version, ...) that go into the reports."""


@dataclass(frozen=True)
class LineLimit:
    """The longest reply line (in bytes, without its newline) a request may get; ``request`` names
    the request and what the limit was computed from, for the reason of a cell."""

    bytes: int
    request: str

    def capped(self, ceiling: int) -> LineLimit:
        """The same limit, never above ``ceiling`` (the runner's absolute ``line_bytes``)."""
        return replace(self, bytes=min(self.bytes, ceiling))

    def reason(self, what: str, head: bytes) -> str:
        """The ERROR reason of a line past the limit: the limit, the request, the line's first bytes."""
        return (f"reply to {what} longer than {self.bytes} bytes (the limit for {self.request}; {DOC}); "
                f"the port was stopped once the line exceeded it; the line begins {head[:60]!r}")


@dataclass(frozen=True)
class Overlong:
    """A line longer than its limit: only its first bytes were read."""

    head: bytes


def hello_limit() -> LineLimit:
    """The hello reply: six short free-text fields of the port and, in protocol 2, the families it
    provides (every family's name is about 300 bytes)."""
    return LineLimit(max(ERROR_ROOM, HELLO_LINE), "hello")


def run_limit() -> LineLimit:
    """Each line of a run reply (a step line, ``done``, or an error in place of either): a step
    line has a fixed size, at most ``HASH_LINE`` bytes; the error room dominates."""
    return LineLimit(max(ERROR_ROOM, 2 * HASH_LINE), "run lines")


def error_limit() -> LineLimit:
    """The reply to a request that only an error answers (an unknown command): the error room."""
    return LineLimit(ERROR_ROOM, "an error reply")


def dump_limit(agents: int) -> LineLimit:
    """A dump of ``agents`` agents: ``DUMP_OVERHEAD`` + 7 × ``VALUE`` per agent (six hex doubles and
    the row's brackets)."""
    return LineLimit(max(ERROR_ROOM, DUMP_OVERHEAD + 7 * VALUE * agents), f"a dump of {agents} agents")


def list_entries(family: vectors.Family, case: list) -> int:
    """How many entries a list-valued result of ``case`` may have: the longest plain list argument
    (the agent count of xs, ys, ...) plus the rows of the row-list arguments (segments, lines,
    waypoints), at least ``MIN_LIST``."""
    plain = rows = 0
    for code, value in zip(family.args, case):
        if not isinstance(value, list):
            continue
        if code in ("d*", "i*"):
            plain = max(plain, len(value))
        elif code in ("d2*", "d4*"):
            rows += len(value)
    return max(MIN_LIST, plain + rows)


def value_bound(code: str, entries: int) -> int:
    """Bytes of one result value of type ``code`` (vectors.py's codes): a scalar ``VALUE``; a list
    ``VALUE`` + per entry ``VALUE`` (plain) or ``(width + 1) × VALUE`` (rows of 2 or 4)."""
    if code in ("d", "i", "s"):
        return VALUE
    width = {"d*": 0, "i*": 0, "d2*": 2, "d4*": 4}[code]
    return VALUE + entries * VALUE * (width + 1 if width else 1)


def case_bound(family: vectors.Family | None, case) -> int:
    """Bytes of one case's result: ``VALUE`` + the sum of its values' bounds.  A family the suite
    does not know gets ``UNKNOWN_CASE`` + 4 × the case's compact JSON size."""
    if family is None or not isinstance(case, list):
        return UNKNOWN_CASE + 4 * len(json.dumps(case, separators=(",", ":")))
    entries = list_entries(family, case)
    return VALUE + sum(value_bound(code, entries) for code in family.result)


def vectors_limit(family: str, cases: list) -> LineLimit:
    """A vectors reply: ``VECTORS_OVERHEAD`` + the sum of the cases' bounds."""
    known = vectors.FAMILY_BY_NAME.get(family)
    total = VECTORS_OVERHEAD + sum(case_bound(known, case) for case in cases)
    return LineLimit(max(ERROR_ROOM, total), f"vectors {family[:60]} with {len(cases)} cases")


def read_line(stream: BinaryIO, limit: int) -> bytes | Overlong | None:
    """The next line of a buffered binary ``stream`` without its newline, or the last bytes before
    end of file; None at end of file; ``Overlong`` when the line has more than ``limit`` bytes.
    Reads at most ``limit + 1`` bytes (plus the stream's buffer): never the rest of a long line."""
    try:
        line = stream.readline(limit + 1)
    except (OSError, ValueError):
        return None
    if not line:
        return None
    if line.endswith(b"\n"):
        return line[:-1]
    if len(line) > limit:
        return Overlong(line[:120])
    return line  # the last line, cut by the end of the file


def cap_text(text: str, limit: int = REPORT_TEXT) -> str:
    """``text`` cut to ``limit`` characters for a report, saying how many were cut."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... [{len(text) - limit} more characters cut]"
