// SPDX-License-Identifier: MIT
// ORCA solver, C99 port of conformance/solver/obstacle.py: velocity-obstacle geometry.
// Everything is relative to the steered agent, which sits at the origin. The obstacle is the
// segment a-b (a point when a == b) grown by a radius.

#pragma once

#include "vector.h"

#include <stdbool.h>

/// Relative tolerance of the domain test of the support form: tol = 1e-9 * (|p| + r).
#define OC_TOLERANCE 1e-9

/// Result of the support form: signed distance of x from the velocity obstacle and the normal.
typedef struct ocSupport
{
	/// signed distance d(x): positive outside the velocity obstacle, negative inside
	double distance;
	/// maximizing unit normal n* (outward normal at the closest boundary point)
	ocVec2 normal;
} ocSupport;

/// Result of the agent case form: u (closest boundary point minus x) and the normal.
typedef struct ocCaseForm
{
	/// u = c - x
	ocVec2 u;
	/// unit normal of the boundary at c
	ocVec2 normal;
} ocCaseForm;

/// Squared distance from the origin to the segment a-b (clamped projection; a.a when a == b).
OC_API double oc_SegmentDistanceSquared(ocVec2 a, ocVec2 b);

/// Support form: signed distance of x from the obstacle a-b grown by radius, horizon tau
/// (pass tau = dt and overlap = true for the one-step cutoff capsule).
OC_API ocSupport oc_SupportDistance(ocVec2 a, ocVec2 b, double radius, double tau, ocVec2 x, bool overlap);

/// Closed cutoff/leg case form for another agent at a (requires a.a > radius*radius).
OC_API ocCaseForm oc_AgentCaseForm(ocVec2 a, double radius, double tau, ocVec2 x);

// Inline kernel ------------------------------------------------------------------------------------

/// Body of oc_AgentCaseForm, inline for the simulator's per-neighbour loop (speed only: a call
/// boundary passing vectors by value costs about as much as this arithmetic).
static inline ocCaseForm oc_AgentCaseFormInline(ocVec2 a, double radius, double tau, ocVec2 x)
{
	double r = radius;
	ocVec2 w = oc_Sub(x, oc_Divide(a, tau));
	double dot1 = oc_Dot(w, a);
	double ww = oc_Dot(w, w);
	ocCaseForm result;

	// (r*r)*ww: left to right as the reference writes r * r * ww.
	if (dot1 < 0.0 && dot1 * dot1 > r * r * ww)
	{
		// Cutoff case: x projects onto the arc of the cut-off disc.
		double wl = sqrt(ww);
		ocVec2 n = oc_Divide(w, wl);
		double s = r / tau - wl;
		result.u = oc_Scale(n, s);
		result.normal = n;
		return result;
	}

	// Leg case. aa > r*r (the caller's overlap test uses the same expressions), so
	// aa - r*r > 0 exactly and the square root is real.
	double aa = oc_Dot(a, a);
	double leg = sqrt(aa - r * r);
	ocVec2 dir;
	ocVec2 n;

	// cross(a, w) > 0 takes the left leg; the tie cross == 0 takes the right leg, so both
	// agents of an exactly symmetric pair turn the same way.
	if (oc_Cross(a, w) > 0.0)
	{
		dir.x = (a.x * leg - a.y * r) / aa;
		dir.y = (a.x * r + a.y * leg) / aa;
		n = oc_MakeVec2(-dir.y, dir.x);
	}
	else
	{
		dir.x = (a.x * leg + a.y * r) / aa;
		dir.y = (a.y * leg - a.x * r) / aa;
		n = oc_MakeVec2(dir.y, -dir.x);
	}

	double along = oc_Dot(x, dir);

	// dir * along - x: a product then a difference per component (never fused).
	result.u = oc_Sub(oc_Scale(dir, along), x);
	result.normal = n;
	return result;
}
