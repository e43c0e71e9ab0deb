"""Vector failures: a runner's first failing primitive case, readable, and whether only rounding differs.

Contract: ``describe_case(family, args, expected, got)`` names one failing case with its
decoded arguments, expected and actual results (named by ``ARG_NAMES`` and ``RESULT_NAMES``;
a malformed value is shown raw); ``result_pieces(family, expected, got)`` are the expected and
actual results alone, as pieces of a line that drop decimals and list contents before any bit
pattern (line_fit.py).  ``rounding_only(family, expected, got)`` is the largest ulp
distance of one case when every integer and list shape agrees and every double is as close as
rounding makes it (``ROUNDING_ULPS``, ``ROUNDING_SCALE``), else None.  ``VectorFailure`` is the
``(family, case)`` pair with that detail, as the vectors row hands it to a scenario cell's
diagnosis.
"""

from __future__ import annotations

from typing import Sequence

from ..data import vectors
from ..contract.float_bits import ulp_distance
from .line_fit import Piece
from .state_difference import hex_bits, hex_value


ROUNDING_ULPS = 4
ROUNDING_SCALE = 2.0 ** -30
"""A primitive result within ROUNDING_ULPS of the expected one, or within ROUNDING_SCALE of the
larger of 1 and its size (where a subtraction cancelled, a last-bit difference of the operands
is many ulps of the result), from the same arguments, differs by the rounding of its
arithmetic, not by a branch or a formula: those move results by far more."""


def rounding_only(family: str, expected: list, got) -> int | None:
    """The largest ulp distance between the expected and the actual result of one case when
    every integer and list shape agrees and every double is as close as rounding makes it
    (ROUNDING_ULPS, ROUNDING_SCALE): the same decisions, other rounding; None otherwise."""
    fam = vectors.FAMILY_BY_NAME.get(family)
    if fam is None or not isinstance(got, list) or len(got) != len(expected):
        return None
    worst = 0
    try:
        for code, want, have in zip(fam.result, expected, got):
            a, b = vectors.decode_value(code, want), vectors.decode_value(code, have)
            if code in ("i", "s", "i*"):
                if a != b:
                    return None
                continue
            flat_a = [a] if code == "d" else [x for row in a for x in (row if isinstance(row, tuple) else (row,))]
            flat_b = [b] if code == "d" else [x for row in b for x in (row if isinstance(row, tuple) else (row,))]
            if len(flat_a) != len(flat_b):
                return None
            for x, y in zip(flat_a, flat_b):
                distance = ulp_distance(x, y)
                if distance is None:
                    return None
                if distance > ROUNDING_ULPS and abs(x - y) > ROUNDING_SCALE * max(1.0, abs(x), abs(y)):
                    return None
                worst = max(worst, distance)
    except (TypeError, ValueError, IndexError):
        return None
    return worst


class VectorFailure(tuple):
    """``(family, case)`` of the first failing primitive case (it unpacks as that pair), with
    ``detail``: the case's decoded arguments, expected and actual results, and ``rounding``:
    set by the vectors row when the port's arithmetic itself differs (matrix.ROUNDING_SHARE),
    e.g. "2276 of the 2352 bad cases of the formula primitives (...)"."""

    detail: str
    rounding: str
    citation: "Citation | None" = None
    """The clause the failing cases break (judge/citation.py), set by the vectors row."""
    where: str = ""
    """"family, case i of n (k bad)", set by the vectors row."""
    results: "list[Piece]"
    """The case's expected and actual results (``result_pieces``), set by the vectors row."""
    fingerprint: "Fingerprint | None" = None
    """The evaluation model that reproduces the port's rounding, and its fix (judge/fingerprint.py),
    set by the vectors row when formula primitives differ by rounding."""

    def __new__(cls, family: str, case: int, detail: str = "", rounding: str = "") -> "VectorFailure":
        self = super().__new__(cls, (family, case))
        self.detail = detail
        self.rounding = rounding
        self.citation = None
        self.where = family
        self.results = []
        self.fingerprint = None
        return self

    @property
    def family(self) -> str:
        return self[0]

    @property
    def arithmetic(self) -> str:
        """What the vectors row found of the port's arithmetic when that alone is the cell's cause
        to fix (``attach_vector_failure`` then leads every rounding cell with it): the decisive
        fingerprint's model, else the rounding-only share; "" when it found neither."""
        found = self.fingerprint
        if found is not None and (found.decisive or self.rounding):
            return found.model.what
        return f"{self.rounding} differ by rounding only" if self.rounding else ""

    @property
    def case(self) -> int:
        return self[1]


ARG_NAMES = vectors.FAMILIES.view(lambda f: f.arg_names, lambda f: bool(f.arg_names))
RESULT_NAMES = vectors.FAMILIES.view(lambda f: f.result_names, lambda f: bool(f.result_names))
"""family name -> the names of its arguments, of its results (live views of the records)."""
LIST_ITEMS = 8
"""Items of a list argument shown before "..."."""


def _readable(code: str, value) -> str:
    """A decoded value: a double as repr and hex bits, a list as reprs (shortened)."""
    if code == "d":
        return hex_value(value)
    if code in ("i", "s"):
        return repr(value)
    items = [repr(tuple(v)) if isinstance(v, (tuple, list)) else repr(v) for v in value]
    more = f", ... ({len(items)} items)" if len(items) > LIST_ITEMS else ""
    return "[" + ", ".join(items[:LIST_ITEMS]) + more + "]"


def _readable_values(codes: Sequence[str], names: Sequence[str], encoded) -> str:
    """name=value for each entry of an encoded argument or result list (raw when malformed)."""
    try:
        if not isinstance(encoded, list) or len(encoded) != len(codes):
            raise ValueError("shape")
        values = [vectors.decode_value(c, v) for c, v in zip(codes, encoded)]
    except (TypeError, ValueError, IndexError):
        return repr(encoded)[:300]
    return ", ".join(f"{n}={_readable(c, v)}" for n, c, v in zip(names, codes, values))


def describe_case(family: str, args: list, expected: list, got) -> str:
    """One failing case, readable: its decoded arguments, the expected and the actual result."""
    fam = vectors.FAMILY_BY_NAME.get(family)
    if fam is None:
        return f"args {args!r}; expected {expected!r}, got {got!r}"
    arg_names = ARG_NAMES.get(family, tuple(f"arg{k}" for k in range(len(fam.args))))
    result_names = RESULT_NAMES.get(family, tuple(f"result{k}" for k in range(len(fam.result))))
    return (f"args {_readable_values(fam.args, arg_names, args)}; "
            f"expected {_readable_values(fam.result, result_names, expected)}; "
            f"got {_readable_values(fam.result, result_names, got)}")


def _value_pieces(codes: Sequence[str], names: Sequence[str], encoded) -> list[Piece]:
    """``name=value, ...`` of one result as pieces: a double's bits kept and its decimal droppable,
    a list's items droppable for their count; a malformed result droppable for a word."""
    try:
        if not isinstance(encoded, list) or len(encoded) != len(codes):
            raise ValueError("shape")
        values = [vectors.decode_value(c, v) for c, v in zip(codes, encoded)]
    except (TypeError, ValueError, IndexError):
        return [Piece(repr(encoded)[:300], 2, "(malformed)")]
    out: list[Piece] = []
    for k, (name, code, value) in enumerate(zip(names, codes, values)):
        out.append(Piece(f"{', ' if k else ''}{name}="))
        if code == "d":
            out += [Piece(hex_bits(value)), Piece(f" ({value!r})", 3)]
        elif code in ("i", "s"):
            out.append(Piece(repr(value)))
        else:
            out.append(Piece(_readable(code, value), 2, f"[{len(value)} item{'' if len(value) == 1 else 's'}]"))
    return out


def result_pieces(family: str, expected: list, got) -> list[Piece]:
    """``expected <result>; got <result>`` of one failing case, as pieces (``_value_pieces``)."""
    fam = vectors.FAMILY_BY_NAME.get(family)
    if fam is None:
        return [Piece("expected "), Piece(repr(expected), 2, "(a result)"), Piece(", got "), Piece(repr(got), 2, "(another)")]
    names = RESULT_NAMES.get(family, tuple(f"result{k}" for k in range(len(fam.result))))
    return ([Piece("expected ")] + _value_pieces(fam.result, names, expected) + [Piece("; got ")]
            + _value_pieces(fam.result, names, got))
