// SPDX-License-Identifier: MIT
// ORCA solver, C99 port of conformance/solver/halfplane.py.

#pragma once

#include "vector.h"

/// Half-plane { v : (v - point) . normal >= 0 } with a unit normal; the four doubles are in
/// the order of the reference tuple (P.x, P.y, N.x, N.y).
typedef struct ocHalfPlane
{
	/// a point on the boundary line
	ocVec2 point;
	/// unit normal pointing into the permitted side
	ocVec2 normal;
} ocHalfPlane;

/// (v - P) . N, evaluated as (v.x - P.x)*N.x + (v.y - P.y)*N.y; negative on the forbidden side.
static inline double oc_SignedDistance(const ocHalfPlane* plane, ocVec2 v)
{
	return oc_Dot(oc_Sub(v, plane->point), plane->normal);
}
