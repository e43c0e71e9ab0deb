"""An exact fused multiply-add on binary64, for every Python version (``math.fma`` is 3.13+).

Contract: ``fma(x, y, z)`` is the IEEE 754 fusedMultiplyAdd of three doubles: the exact value of
``x * y + z`` rounded once to binary64, to nearest with ties to even, exactly what C's ``fma``,
Rust's ``mul_add`` and a contracting compiler compute.  Special cases follow IEEE 754:
a NaN operand, ``inf * 0`` and ``inf - inf`` give a NaN; an infinite product or ``z`` gives that
infinity; a finite result that rounds past the largest double gives an infinity of its sign; an
exact zero result is ``-0.0`` only when the product and ``z`` are both zeros of negative sign
(``(-0) + (-0)``), ``+0.0`` otherwise (a cancellation of non-zero terms included).  It works on
``fractions.Fraction`` values of the operands (every double is one exactly) and rounds with
``round_to_double``, which rounds any rational to binary64 the same way (subnormals included).

This is harness-side arithmetic (vectors that tell fused ports apart, the fused rewrite
operator's checks); the reference solver never calls it and stays unfused.
"""

from __future__ import annotations

import math
from fractions import Fraction

_MANTISSA = 53
_MIN_EXPONENT = -1022
"""Exponent of the smallest normal double; below it the quantum stays 2**-1074 (subnormals)."""
_MAX_EXPONENT = 1023


def _round_half_even(q: Fraction) -> int:
    """The integer nearest to a non-negative rational, ties to the even one."""
    floor = q.numerator // q.denominator
    rest = q - floor
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and floor % 2 == 1):
        return floor + 1
    return floor


def round_to_double(value: Fraction, negative_zero: bool = False) -> float:
    """``value`` rounded once to binary64 (nearest, ties to even); an infinity past the range.
    A zero ``value`` gives ``-0.0`` when ``negative_zero``, else ``+0.0``."""
    if value == 0:
        return -0.0 if negative_zero else 0.0
    sign = -1.0 if value < 0 else 1.0
    magnitude = abs(value)
    # 2**e <= magnitude < 2**(e + 1): start from the bit lengths, then correct by one.
    e = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if Fraction(2) ** e > magnitude:
        e -= 1
    elif Fraction(2) ** (e + 1) <= magnitude:
        e += 1
    e = max(e, _MIN_EXPONENT)
    quantum_exponent = e - (_MANTISSA - 1)
    n = _round_half_even(magnitude / Fraction(2) ** quantum_exponent)
    # n <= 2**53 (a carry may reach it); the value n * 2**q overflows past the largest double.
    if n.bit_length() + quantum_exponent > _MAX_EXPONENT + 1:
        return sign * math.inf
    return sign * math.ldexp(float(n), quantum_exponent)


def _special(x: float, y: float, z: float) -> float | None:
    """The result when an operand is a NaN or an infinity (None when all three are finite)."""
    if math.isnan(x) or math.isnan(y) or math.isnan(z):
        return math.nan
    if math.isinf(x) or math.isinf(y):
        if x == 0.0 or y == 0.0:
            return math.nan
        product = math.copysign(math.inf, x) * math.copysign(1.0, y)
        if math.isinf(z) and z != product:
            return math.nan
        return product
    if math.isinf(z):
        return z
    return None


def fma(x: float, y: float, z: float) -> float:
    """``x * y + z`` with one rounding (IEEE 754 fusedMultiplyAdd, binary64, nearest-even)."""
    special = _special(x, y, z)
    if special is not None:
        return special
    exact = Fraction(x) * Fraction(y) + Fraction(z)
    if exact != 0:
        return round_to_double(exact)
    product_negative = (math.copysign(1.0, x) < 0) != (math.copysign(1.0, y) < 0)
    product_zero = x == 0.0 or y == 0.0
    both_negative_zeros = product_zero and product_negative and z == 0.0 and math.copysign(1.0, z) < 0
    return -0.0 if both_negative_zeros else 0.0
