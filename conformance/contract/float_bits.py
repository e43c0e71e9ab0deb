"""A binary64 as its bit pattern, and the distance between two in units in the last place.

Contract: ``bits(x)`` is the IEEE 754 bit pattern of a double as an unsigned 64-bit integer and
``from_bits(u)`` its inverse (``u`` taken modulo 2^64); ``hexd(x)`` / ``unhexd(text)`` the same
pattern as 16 lower-case hex digits, the form of the vectors and of the port protocol;
``ulp_distance(a, b)`` the number of representable doubles between ``a`` and ``b`` (0 for equal
values, 1 between +0.0 and the smallest subnormal, None when either is a NaN);
``to_float32(x)`` the double rounded to the nearest float32 and back (OverflowError beyond its
range), which tells whether a value is one a float32 can hold.
"""

from __future__ import annotations

import struct


def bits(value: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", value))[0]


def from_bits(pattern: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", pattern & 0xFFFF_FFFF_FFFF_FFFF))[0]


def hexd(value: float) -> str:
    """IEEE bit pattern of a double as 16 lowercase hex digits."""
    return struct.pack(">d", value).hex()


def unhexd(text: str) -> float:
    return struct.unpack(">d", bytes.fromhex(text))[0]


def ulp_distance(a: float, b: float) -> int | None:
    """Number of representable doubles between a and b (None when either is NaN)."""
    if a != a or b != b:
        return None

    def ordered(x: float) -> int:
        u = bits(x)
        return -(u & 0x7FFFFFFFFFFFFFFF) if u >> 63 else u

    return abs(ordered(a) - ordered(b))


def to_float32(value: float) -> float:
    return struct.unpack("<f", struct.pack("<f", value))[0]
