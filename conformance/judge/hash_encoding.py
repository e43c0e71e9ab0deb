"""Hash encodings: the canonical state hash of a dump, and the wrong encodings a port may use.

Contract: ``canonical_hash(rows)`` is the canonical state hash (contract/state_hash.py) of a
dump's positions and velocities, or None when one of them is not finite.
``wrong_encodings(rows)`` yields ``(description, hash)`` for every usual mistake, the likelier
first: another field order or layout (positions only, one field after the other, ...), each
with little- and big-endian doubles, with -0.0 kept and (when the state has one) written as
+0.0.  The canonical encoding itself is never yielded, so a hash it matches names the mistake.
"""

from __future__ import annotations

import hashlib
import itertools
import struct
from typing import Iterator, Sequence

from ..contract.float_bits import bits
from ..contract.state_hash import FIELDS as HASH_FIELDS
from ..contract.state_hash import NonFiniteState, canonical_bytes, state_hash


def canonical_hash(rows: Sequence[Sequence[float]]) -> str | None:
    """Canonical hash of a dump's px, py, vx, vy (None when a value is not finite)."""
    try:
        data = canonical_bytes([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows], [r[3] for r in rows])
    except NonFiniteState:
        return None
    return state_hash(data)


def _layouts(rows: Sequence[Sequence[float]]) -> Iterator[tuple[str, list[float]]]:
    """(description, values in writing order) of the field layouts a port may use by mistake, the
    likelier first (velocity before position, per axis, y before x)."""
    plausible = [(2, 3, 0, 1), (0, 2, 1, 3), (1, 0, 3, 2), (2, 0, 3, 1)]
    for order in [(0, 1, 2, 3)] + plausible + [o for o in itertools.permutations(range(4))
                                              if o not in plausible and o != (0, 1, 2, 3)]:
        what = "" if order == (0, 1, 2, 3) else "the fields in the order " + ", ".join(HASH_FIELDS[f] for f in order)
        yield what, [row[f] for row in rows for f in order]
    yield "positions only", [row[f] for row in rows for f in (0, 1)]
    yield ("every agent's position, then every agent's velocity",
           [row[f] for f in (0, 1) for row in rows] + [row[f] for f in (2, 3) for row in rows])
    yield "one field after the other (all position.x, then all position.y, ...)", [row[f] for f in range(4) for row in rows]


def wrong_encodings(rows: Sequence[Sequence[float]]) -> Iterator[tuple[str, str]]:
    """(description, hash) of every plausible wrong encoding of a state: the layouts above, each
    little- and big-endian, with -0.0 kept and (when the state has one) written as +0.0."""
    has_negative_zero = any(v == 0.0 and bits(v) >> 63 for row in rows for v in row[:4])
    for layout, values in _layouts(rows):
        for zero in ((False, True) if has_negative_zero else (False,)):
            data = [0.0 if zero and v == 0.0 else v for v in values]
            for order in ("<", ">"):
                parts = [p for p in ("big-endian doubles" if order == ">" else "", layout,
                                     "-0.0 written as +0.0" if zero else "") if p]
                if parts:
                    yield ", ".join(parts), hashlib.sha256(struct.pack(f"{order}{len(data)}d", *data)).hexdigest()
