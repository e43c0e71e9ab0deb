// SPDX-License-Identifier: MIT
// ORCA solver, C99 port of conformance/solver/constraint.py: the half-plane of one neighbour
// (another agent, a static segment or a boundary stretch), relative to the steered agent.

#pragma once

#include "halfplane.h"
#include "obstacle.h"

#include <stdbool.h>

/// Share of u an agent takes against another agent (the other agent takes the other half).
#define OC_RESPONSIBILITY 0.5

/// The 1e-6 of ForBoundary: corner margin and far-side tolerance.
#define OC_BOUNDARY_EPSILON 1e-6

/// Constraint of agent A against agent B: a = pB - pA, radius = rA + rB, velocities vA, vB.
OC_API ocHalfPlane oc_AgentConstraint(ocVec2 a, double radius, double tau, double dt, ocVec2 velocityA, ocVec2 velocityB);

/// Constraint of an agent of the given radius against the static segment a-b (relative ends).
OC_API ocHalfPlane oc_SegmentConstraint(ocVec2 a, ocVec2 b, double radius, double tau, double dt);

/// One-sided constraint of the boundary stretch a -> b; returns false (plane untouched) when
/// the stretch adds no constraint.
OC_API bool oc_ForBoundary(ocVec2 a, ocVec2 b, double clearance, double tau, ocHalfPlane* plane);

// Inline kernel ------------------------------------------------------------------------------------

/// Body of oc_AgentConstraint, inline for the simulator's per-neighbour loop (speed only).
static inline ocHalfPlane oc_AgentConstraintInline(ocVec2 a, double radius, double tau, double dt, ocVec2 velocityA,
												   ocVec2 velocityB)
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
		ocCaseForm form = oc_AgentCaseFormInline(a, radius, tau, x);
		u = form.u;
		n = form.normal;
	}

	ocHalfPlane plane;

	// vA + u * 1/2: the product and the sum round separately (never fused).
	plane.point = oc_Add(velocityA, oc_Scale(u, OC_RESPONSIBILITY));
	plane.normal = n;
	return plane;
}
