// SPDX-License-Identifier: MIT
// ORCA solver, C99 port of conformance/solver/linear_program.py: the 2D linear program of the
// text, constraints in list order inside the disc |v| <= radius.

#pragma once

#include "halfplane.h"

/// |d . N_j| at or below this counts as parallel lines.
#define OC_PARALLEL_EPSILON 1e-12

/// Result of a linear program.
typedef struct ocSolveResult
{
	/// the velocity found; when failed >= 0, the velocity reached just before that constraint
	ocVec2 velocity;
	/// -1 when every constraint held, else the index of the first constraint with no permitted point
	int failed;
} ocSolveResult;

/// Velocity in the disc and every half-plane closest to the preferred velocity.
OC_API ocSolveResult oc_SolveClosest(const ocHalfPlane* planes, int count, double radius, ocVec2 preferred);

/// oc_SolveClosest with the preferred velocity read from memory: the solver's own call (an
/// ocVec2 argument arrives in two registers, which the callee may join through the stack, a
/// store-forwarding stall on every call). Not part of the cffi API.
ocSolveResult oc_SolveClosestAt(const ocHalfPlane* planes, int count, double radius, const ocVec2* preferred);

/// Velocity in the disc and every half-plane furthest along the objective direction.
OC_API ocSolveResult oc_SolveDirection(const ocHalfPlane* planes, int count, double radius, ocVec2 direction);

/// oc_SolveDirection with the direction read from memory: the solver's own call (see
/// oc_SolveClosestAt). Not part of the cffi API.
ocSolveResult oc_SolveDirectionAt(const ocHalfPlane* planes, int count, double radius, const ocVec2* direction);
