// SPDX-License-Identifier: MIT
// ORCA solver, C99 port of conformance/solver/constraint.py.

#include "constraint.h"

#include "obstacle.h"

#include <math.h>

ocHalfPlane oc_AgentConstraint(ocVec2 a, double radius, double tau, double dt, ocVec2 velocityA, ocVec2 velocityB)
{
	ocVec2 x = oc_Sub(velocityA, velocityB);
	ocVec2 u, n;

	if (oc_Dot(a, a) <= radius * radius)
	{
		// Overlap: the support form on the capsule cut off at one time step (tau -> dt).
		ocSupport support = oc_SupportDistance(a, a, radius, dt, x, true);
		n = support.normal;

		// u = -d n formed component-wise as n * (-d), like the reference.
		u = oc_Scale(n, -support.distance);
	}
	else
	{
		ocCaseForm form = oc_AgentCaseForm(a, radius, tau, x);
		u = form.u;
		n = form.normal;
	}

	ocHalfPlane plane;

	// vA + u * 1/2: the product and the sum round separately (never fused).
	plane.point = oc_Add(velocityA, oc_Scale(u, OC_RESPONSIBILITY));
	plane.normal = n;
	return plane;
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
