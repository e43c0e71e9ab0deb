"""The mirror image of a vector case: x and y exchanged in every coordinate pair.

Contract: ``mirrored(family, args)`` returns a new argument list of ``family`` (a registered
vector family) in which every scalar pair named ``...x``/``...y`` (``ax``/``ay``, ``xx``/``xy``,
``vax``/``vay``), every list pair named ``...xs``/``...ys`` and every row of points or lines
(``d2*`` rows ``(x, y)``, ``d4*`` rows ``(x0, y0, x1, y1)``) has its x and y exchanged; every
other argument is copied.  It returns None for a family with no coordinate pair.

Why: exchanging x and y is a reflection, and every ``a.x*b.x + a.y*b.y`` or ``a.x*b.y -
a.y*b.x`` of the text becomes the same sum with its two products in the other order.  A case
that separates a port fusing the first product of a site therefore mirrors into one that
separates a port fusing the second (data/offaxis_write.py appends both).  The mirrored case is a
case like any other: the reference computes its expected result, nothing assumes the solver
reflects bit for bit.  Harness-side only.
"""

from __future__ import annotations

from .vector_family import FAMILY_BY_NAME


def _partner(name: str) -> str:
    """``name`` with its last x turned into y (``vax`` -> ``vay``, ``prefxs`` -> ``prefys``)."""
    at = name.rfind("x")
    return name[:at] + "y" + name[at + 1:] if at >= 0 else name


def pairs(family: str) -> list[tuple[int, int]]:
    """The positions (x, y) of the family's scalar and list coordinate pairs."""
    names = list(FAMILY_BY_NAME[family].arg_names)
    out = []
    for i, name in enumerate(names):
        partner = _partner(name)
        if partner != name and partner in names:
            out.append((i, names.index(partner)))
    return out


def _swap_row(row) -> tuple:
    values = list(row)
    for i in range(0, len(values) - 1, 2):
        values[i], values[i + 1] = values[i + 1], values[i]
    return tuple(values)


def mirrored(family: str, args: list) -> list | None:
    """The case with x and y exchanged (the module's contract), or None without a pair."""
    codes = FAMILY_BY_NAME[family].args
    out = [list(a) if isinstance(a, list) else a for a in args]
    touched = False
    for i, j in pairs(family):
        out[i], out[j] = args[j], args[i]
        out[i] = list(out[i]) if isinstance(out[i], list) else out[i]
        out[j] = list(out[j]) if isinstance(out[j], list) else out[j]
        touched = True
    for k, code in enumerate(codes):
        if code in ("d2*", "d4*"):
            out[k] = [_swap_row(row) for row in args[k]]
            touched = True
    return out if touched else None
