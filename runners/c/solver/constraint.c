// SPDX-License-Identifier: MIT
// ORCA solver, C99 port of conformance/solver/constraint.py.

#include "constraint.h"

#include "obstacle.h"

#include <math.h>

ocHalfPlane oc_AgentConstraint(ocVec2 a, double radius, double tau, double dt, ocVec2 velocityA, ocVec2 velocityB)
{
	return oc_AgentConstraintInline(a, radius, tau, dt, velocityA, velocityB);
}

ocHalfPlane oc_SegmentConstraint(ocVec2 a, ocVec2 b, double radius, double tau, double dt)
{
	bool overlap = oc_SegmentDistanceSquared(a, b) <= radius * radius;

	// The optimization velocity is zero and the agent takes the whole of u.
	ocSupport support = oc_SupportDistance(a, b, radius, overlap ? dt : tau, oc_MakeVec2(0.0, 0.0), overlap);

	ocHalfPlane plane;
	plane.point = oc_Scale(support.normal, -support.distance);
	plane.normal = support.normal;
	return plane;
}

bool oc_ForBoundary(ocVec2 a, ocVec2 b, double clearance, double tau, ocHalfPlane* plane)
{
	ocVec2 e = oc_Sub(b, a);
	double ee = oc_Dot(e, e);
	if (ee == 0.0)
	{
		return false;
	}

	double s = -oc_Dot(a, e) / ee;
	double le = sqrt(ee);

	// (-e.y) / le and e.x / le: component-wise division, no reciprocal.
	ocVec2 n = { -e.y / le, e.x / le };
	double d = -oc_Dot(a, n);
	double m = (clearance + OC_BOUNDARY_EPSILON) / le;
	if (s <= m || s >= 1.0 - m || d < -OC_BOUNDARY_EPSILON)
	{
		return false;
	}

	// k = -((d - clearance) / tau), then n * k per component.
	double k = -((d - clearance) / tau);
	plane->point = oc_Scale(n, k);
	plane->normal = n;
	return true;
}
