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
