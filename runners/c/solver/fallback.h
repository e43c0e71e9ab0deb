// SPDX-License-Identifier: MIT
// ORCA solver, C99 port of conformance/solver/fallback.py: the fallback (paper section 5.3)
// for an infeasible program.

#pragma once

#include "halfplane.h"

/// m.m at or below this means two soft constraints have the same normal: no half-plane.
#define OC_PARALLEL_NORMALS 1e-24

/// Fallback velocity after oc_SolveClosest failed at index failed: maximizes the smallest
/// signed distance over the soft planes (index >= hardCount) keeping the hard prefix; scratch
/// must hold count planes and must not overlap planes.
OC_API ocVec2 oc_Relax(const ocHalfPlane* planes, int count, int hardCount, double radius, int failed, ocHalfPlane* scratch);
