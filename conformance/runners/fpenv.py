"""The harness process's floating-point environment: round to nearest, subnormals kept.

Contract: the Python reference, every in-process port (shared libraries loaded through cffi)
and the in-process wasm engine compute on this process's FPU control state.  A library built
with -ffast-math changes that state as it is loaded (GCC links crtfastmath.o, which turns on
flush-to-zero and denormals-are-zero for the whole process), and any library may change it
in a call.  Every later subnormal would then read as zero, in the reference as much as in the
next port.  ``restore()`` puts the default environment back (C's fesetenv(FE_DFL_ENV));
``is_default()`` checks it by computing with a subnormal.  The in-process C runner restores
after loading a library and checks before it trusts a result.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import struct
import sys

_SMALLEST = struct.unpack("<d", struct.pack("<Q", 1))[0]
"""The smallest positive subnormal double, from its bits (parsing or scaling would itself be
flushed under flush-to-zero)."""


def is_default() -> bool:
    """True when subnormals survive arithmetic (no flush-to-zero, no denormals-are-zero) and
    rounding is to nearest."""
    half_ulp = 2.0 ** -53
    nearest = (1.0 + half_ulp) == 1.0 and (1.0 + 3 * half_ulp) == 1.0 + 4 * half_ulp
    return _SMALLEST * 1.0 == _SMALLEST and _SMALLEST + _SMALLEST > _SMALLEST and nearest


def _libm():
    name = ctypes.util.find_library("m") or ("libm.so.6" if sys.platform.startswith("linux") else None)
    return ctypes.CDLL(name) if name else ctypes.CDLL(None)


def restore() -> bool:
    """Sets the default floating-point environment; True when it is default afterwards."""
    if is_default():
        return True
    try:
        libm = _libm()
        if sys.platform == "darwin":
            default = ctypes.c_void_p.in_dll(libm, "_FE_DFL_ENV")
            libm.fesetenv(ctypes.byref(default))
        else:
            libm.fesetenv(ctypes.c_void_p(-1))  # glibc and musl: FE_DFL_ENV is (const fenv_t *) -1
    except (OSError, AttributeError, ValueError):
        return False
    return is_default()
