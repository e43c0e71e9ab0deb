"""The harness's exact fused multiply-add (conformance/contract/fused.py) against an independent
fused multiply-add: ``math.fma`` where Python has it (3.13+), else the C library's ``fma``
through ctypes (glibc's is correctly rounded), on random, edge and hand-checked cases."""

from __future__ import annotations

import ctypes
import ctypes.util
import math
import random
import struct
from fractions import Fraction

import pytest

from conformance.contract.fused import fma, round_to_double


def _libm_fma():
    if hasattr(math, "fma"):
        return math.fma
    name = ctypes.util.find_library("m")
    if name is None:
        return None
    f = ctypes.CDLL(name).fma
    f.restype = ctypes.c_double
    f.argtypes = [ctypes.c_double] * 3
    return f


ORACLE = _libm_fma()
needs_oracle = pytest.mark.skipif(ORACLE is None, reason="neither math.fma nor a C library fma here")


def _bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def _same(a: float, b: float) -> bool:
    """The same bits, or both NaN (a NaN's payload is not compared)."""
    return (math.isnan(a) and math.isnan(b)) or _bits(a) == _bits(b)


def _from_bits(u: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", u))[0]


EDGES = [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 2.225073858507201e-308, 1.0, -1.0,
         1.0000000000000002, 0.9999999999999999, 1.7976931348623157e308, -1.7976931348623157e308,
         math.inf, -math.inf, math.nan, 0.5, 3.0, 1e-300, 1e300, 2.0 ** -537, 2.0 ** 512, 0.1, -0.3]


@needs_oracle
def test_edge_operands_agree_with_the_oracle_bit_for_bit():
    bad = [(x, y, z) for x in EDGES for y in EDGES for z in EDGES if not _same(fma(x, y, z), ORACLE(x, y, z))]
    assert bad == []


@needs_oracle
def test_random_bit_patterns_and_near_cancellations_agree_with_the_oracle():
    rng = random.Random(43)
    bad = []
    for _ in range(4000):
        x, y, z = (_from_bits(rng.getrandbits(64)) for _ in range(3))
        if not _same(fma(x, y, z), ORACLE(x, y, z)):
            bad.append((x, y, z))
        # z = -(x*y) rounded: the fused result is the product's rounding error, often subnormal
        a, b = rng.uniform(-4, 4) * 2.0 ** rng.randint(-540, 500), rng.uniform(-4, 4) * 2.0 ** rng.randint(-540, 500)
        for c in (-(a * b), -(a * b) * (1 + 2 ** -52), math.nextafter(-(a * b), 0.0)):
            if not _same(fma(a, b, c), ORACLE(a, b, c)):
                bad.append((a, b, c))
    assert bad == []


def test_one_rounding_where_two_roundings_differ():
    x = 1.0 + 2.0 ** -27
    # x*x = 1 + 2^-26 + 2^-54 exactly; rounded first, the 2^-54 is lost
    assert x * x - 1.0 == 2.0 ** -26
    assert fma(x, x, -1.0) == 2.0 ** -26 + 2.0 ** -54


def test_ties_go_to_even():
    # 1 + 2^-53 is halfway between 1 and its successor: the even one, 1, wins
    assert fma(2.0 ** -53, 1.0, 1.0) == 1.0
    # 1 + 3 * 2^-53 is halfway between 1 + 2^-52 and 1 + 2^-51: the even one is 1 + 2^-51
    assert fma(3.0, 2.0 ** -53, 1.0) == 1.0 + 2.0 ** -51
    # a tie among subnormals: 1.5 * 2^-1074 lies halfway between 1 and 2 quanta, 2 is even
    assert fma(1.5, 5e-324, 0.0) == 1e-323
    assert fma(0.5, 5e-324, 0.0) == 0.0


def test_signed_zeros_of_exact_zero_results():
    assert _bits(fma(-0.0, 1.0, -0.0)) == _bits(-0.0)
    assert _bits(fma(0.0, -1.0, -0.0)) == _bits(-0.0)
    assert _bits(fma(-0.0, -1.0, -0.0)) == _bits(0.0)
    assert _bits(fma(-0.0, 1.0, 0.0)) == _bits(0.0)
    assert _bits(fma(2.0, 3.0, -6.0)) == _bits(0.0)
    assert _bits(fma(-2.0, 3.0, 6.0)) == _bits(0.0)
    # a non-zero product that underflows is not a zero: its sign survives the rounding
    assert _bits(fma(-5e-324, 0.5, -0.0)) == _bits(-0.0)
    assert _bits(fma(5e-324, 0.25, 0.0)) == _bits(0.0)


def test_overflow_and_infinities():
    big = 1.7976931348623157e308
    assert fma(big, 2.0, -big) == big
    assert fma(big, 1.0, big) == math.inf
    assert fma(-big, 1.0, -big) == -math.inf
    # the largest double plus half its quantum is the midpoint to 2^1024: ties to even overflow
    assert fma(2.0 ** 970, 1.0, big) == math.inf
    assert fma(2.0 ** 969, 1.0, big) == big
    assert math.isnan(fma(math.inf, 0.0, 1.0))
    assert math.isnan(fma(math.inf, 1.0, -math.inf))
    assert fma(math.inf, -2.0, -math.inf) == -math.inf
    assert fma(1.0, 2.0, math.inf) == math.inf
    assert math.isnan(fma(1.0, math.nan, 0.0))


def test_round_to_double_matches_pythons_correctly_rounded_division_inside_the_range():
    rng = random.Random(7)
    for _ in range(2000):
        n, d = rng.getrandbits(rng.randint(1, 200)) + 1, rng.getrandbits(rng.randint(1, 200)) + 1
        sign = rng.choice((1, -1))
        assert _same(round_to_double(Fraction(sign * n, d)), sign * n / d)
    assert round_to_double(Fraction(0), negative_zero=True) == 0.0
    assert math.copysign(1.0, round_to_double(Fraction(0), negative_zero=True)) == -1.0
