"""The band search's inputs: primitive cases aimed at the rounding bands random inputs miss.

Contract: ``band_cases()`` returns, per vector family, the arguments of cases built on purpose
inside the bands a reviewed survivor of the operator run may hide in: zeros of both signs in
every slot that feeds a clamp, a selection or a sum (``signed_zero_*``), subnormal and huge
values (a product that underflows or overflows, a NaN or infinite parameter out of finite
inputs), segments and radii an ulp either side of touching (points on the radius), tiny and
short boundary stretches with clearances down to minus the corner margin, neighbour counts on
either side of the cap, and every candidate of the off-axis search (data/offaxis_search.py:
decisions within ulps of their boundary).  The list is fixed (no randomness), so a search
result names exactly what it covered (``generator_digest()``); ``with_results`` evaluates the reference on each and drops
the inputs it refuses (a Python division by zero, where C would give an infinity).
"""

from __future__ import annotations

import hashlib
import itertools
import math

from ... import shipped
from ...data import vectors
from ...data.offaxis_search import TARGETS
from ...data.offaxis_targets import MORE_TARGETS

Z = (0.0, -0.0)
TINY = (5e-324, -5e-324, 1.5e-323, 2.2250738585072014e-308, 1e-300, 1e-100, 1e-50)
HUGE = (1e200, -1e200, 1.7976931348623157e308, 1e154)


def _segment_cases() -> list[list]:
    """segment_distance_squared: signed zeros, a t far below binary32's range (|e| >> |a|), huge
    ends whose squares overflow."""
    out = [[ax, ay, bx, by] for ax, ay, bx, by in itertools.product(Z, Z, (0.0, -0.0, 1.0, -1.0), Z)]
    for s in (1e-100, 1e-120, 1e-80):
        out.append([s, s, s + s * 1e50, s])               # t = -1e-50: binary32 rounds it to -0
        out.append([s, s, s - s * 1e50, s])
        out.append([-s, s, -s - s * 1e50, s])
        out.append([s, s, -s * 1e50, s])                   # t just past 1 on the far side
    for h in HUGE:
        out += [[h, h, -h, h], [h, 1.0, h, -1.0], [1.0, h, -1.0, -h], [h, h, h, -h]]
    for t in TINY:
        out += [[t, 0.0, -t, 0.0], [t, t, t, -t], [-t, -0.0, t, 0.0]]
    return out


def _support_cases() -> list[list]:
    """support_distance: every sign of zero in a, b and x with radius 0 and 1 and both overlap
    flags; ends an ulp inside and outside the radius with the overlap flag clear; tiny and huge."""
    out = []
    for ax, ay, bx, by, xx, xy in itertools.product(Z, Z, Z, Z, Z, Z):
        for r, ov in ((0.0, 1), (0.0, 0), (1.0, 1)):
            out.append([ax, ay, bx, by, r, 1.0, xx, xy, ov])
    for k in (0.6, 0.8, 0.28, 0.96):
        c, s = k, math.sqrt(1.0 - k * k)
        for r in (1.0, 0.5, 2.5):
            for n in (-3, -2, -1, 0, 1, 2, 3):
                scale = r
                for _ in range(abs(n)):
                    scale = math.nextafter(scale, math.inf if n > 0 else 0.0)
                ax, ay = c * scale, s * scale
                for x in ((0.1, -0.2), (ax / 2.0, ay / 2.0), (-ay, ax), (0.0, 0.0)):
                    out.append([ax, ay, ax, ay, r, 2.0, *x, 0])
                    out.append([ax, ay, -ay * 0.5, ax * 0.5, r, 2.0, *x, 0])
    for t in TINY + HUGE:
        out += [[t, t, t, t, 1.0, 1.0, 0.0, 0.0, 0], [t, -t, -t, t, 0.5, 1.0, t, t, 1], [t, 0.0, t, 0.0, t, 1.0, 0.0, t, 0]]
    return out


def _boundary_cases() -> list[list]:
    """for_boundary: short stretches (e.e from 1e-14 to 1e-4) with clearances 0, a little and
    minus the corner margin (m = 0), and the off-axis corner candidates."""
    out = []
    for ee in (1e-14, 1e-12, 9e-13, 1e-10, 1e-9, 9e-10, 1e-7, 1e-6, 9e-7, 1e-5, 9e-6, 1e-4):
        le = math.sqrt(ee)
        for ux, uy in ((0.6, 0.8), (1.0, 0.0), (-0.28, 0.96)):
            ex, ey = ux * le, uy * le
            for s, off in ((0.5, 0.0), (0.3, -1e-7), (0.5, 1e-3)):
                ax, ay = -s * ex - off * uy, -s * ey + off * ux
                for clearance in (0.0, 1e-7, -1e-6, -5e-7):
                    out.append([ax, ay, ax + ex, ay + ey, clearance, 1.0])
    for z in itertools.product(Z, Z, Z, Z):
        out.append([*z, 0.0, 1.0])
    return out


def _program_cases() -> dict[str, list[list]]:
    """The programs with zeros of both signs where a clamp meets its bound: lines on the axes
    through (+-0, +-1) with normals (+-0, +-1) (and turned a quarter), radius 1 (disc = 0: lower
    = upper = a zero), preferred velocities and directions of signed zeros."""
    closest, direction, relax = [], [], []
    for px, nx, qx, qy, sy in itertools.product(Z, Z, Z, Z, (1.0, -1.0)):
        for turn in (False, True):
            line = (sy, px, sy, nx) if turn else (px, sy, nx, sy)
            pref = (qy, qx) if turn else (qx, qy)
            closest.append([[line], 1.0, *pref])
            closest.append([[line, (-line[0], -line[1], -line[2], -line[3])], 1.0, *pref])
            for dx, dy in ((qx, sy), (sy, qx), (-sy, qy)):
                direction.append([[line], 1.0, dx, dy])
            relax.append([[line, (line[0], line[1], -line[2], -line[3])], 0, 1.0, 0])
    return {"solve_closest": closest, "solve_direction": direction, "relax": relax}


def _neighbor_cases() -> list[list]:
    """agent_neighbors: one to four agents with the cap below, at and above count - 1."""
    out = []
    for n in range(1, 5):
        xs, ys = [0.3 * k for k in range(n)], [0.1 * k * k for k in range(n)]
        for cap in range(0, n + 2):
            for i in range(n):
                out.append([i, xs, ys, 10.0, cap])
    return out


def band_cases() -> dict[str, list[list]]:
    """Family -> the band search's argument lists (fixed, in this order)."""
    out: dict[str, list[list]] = {"segment_distance_squared": _segment_cases(), "support_distance": _support_cases(),
                                  "for_boundary": _boundary_cases(), "agent_neighbors": _neighbor_cases(),
                                  **_program_cases()}
    for target in TARGETS + MORE_TARGETS:
        out.setdefault(target.family, []).extend(args for _, args in zip(range(3000), target.candidates()))
    return out


def with_results(cases: dict[str, list[list]]) -> dict[str, list[dict]]:
    """The cases encoded as vector cases with the reference's result (inputs it refuses dropped)."""
    out: dict[str, list[dict]] = {}
    for name, raws in cases.items():
        family = vectors.FAMILY_BY_NAME[name]
        kept = []
        for raw in raws:
            args = [vectors.encode_value(c, v) for c, v in zip(family.args, raw)]
            try:
                kept.append({"args": args, "result": vectors.evaluate_reference(family, args)})
            except (ArithmeticError, ValueError):
                continue
        out[name] = kept
    return out


def generator_digest() -> str:
    """SHA-256 of what the band cases are made of: their generators and the reference."""
    package = shipped.PACKAGE
    digest = hashlib.sha256()
    paths = [package / "selftest" / "variants" / "band_cases.py", *(package / "data").glob("offaxis_*.py"),
             package / "contract" / "fused.py", *(package / "solver").glob("*.py")]
    for path in sorted(paths):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()
