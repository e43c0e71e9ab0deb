// SPDX-License-Identifier: MIT
// ORCA solver, C99 port of conformance/solver/constraint.py: the half-plane of one neighbour
// (another agent, a static segment or a boundary stretch), relative to the steered agent.

#pragma once

#include "halfplane.h"

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
