"""Half-plane constraints { v : (v - P) . N >= 0 } with a unit normal N.

A constraint is the plain tuple ``(Px, Py, Nx, Ny)``; the C port's ``oc_HalfPlane`` holds the
same four doubles in the same order.
"""

from __future__ import annotations

HalfPlane = tuple[float, float, float, float]
"""(P.x, P.y, N.x, N.y): the point on the boundary line and the unit normal of the permitted side."""


def signed_distance(plane: HalfPlane, vx: float, vy: float) -> float:
    """(v - P) . N, evaluated as (vx - Px)*Nx + (vy - Py)*Ny; negative inside the forbidden side."""
    px, py, nx, ny = plane
    return (vx - px) * nx + (vy - py) * ny
