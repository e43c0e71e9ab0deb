// SPDX-License-Identifier: MIT
// ORCA solver, C99 port of conformance/solver/fallback.py.

#include "fallback.h"

#include "linear_program.h"

#include <math.h>
#include <string.h>

// Incremental max-min of g_k(v) = (v - P_k).N_k over the soft planes k >= hardCount, in list
// order exactly as the text writes it. program holds count planes.
static ocVec2 oc_MaximizeSmallestDistance(const ocHalfPlane* planes, int count, int hardCount, double radius,
										  ocHalfPlane* program)
{
	if (hardCount >= count)
	{
		// No soft constraint; unreachable from the step.
		return oc_MakeVec2(0.0, 0.0);
	}

	// First soft plane s: maximize along N_s over the hard prefix; its velocity is taken even
	// when that program fails.
	const ocHalfPlane* first = planes + hardCount;
	ocVec2 v = oc_SolveDirectionAt(planes, hardCount, radius, &first->normal).velocity;
	double level = oc_SignedDistance(first, v);

	// Every program below starts with the hard prefix, which never changes: copy it once and
	// rewrite only the tail (the reference rebuilds the same list each time).
	if (hardCount > 0)
	{
		memcpy(program, planes, (size_t)hardCount * sizeof(ocHalfPlane));
	}

	for (int j = hardCount + 1; j < count; ++j)
	{
		const ocHalfPlane* pj = planes + j;
		if (oc_SignedDistance(pj, v) >= level)
		{
			continue;
		}

		ocVec2 nj = pj->normal;
		double pjnj = oc_Dot(pj->point, nj);
		int programCount = hardCount;

		for (int k = hardCount; k < j; ++k)
		{
			const ocHalfPlane* pk = planes + k;
			ocVec2 m = oc_Sub(pk->normal, nj);
			double mm = oc_Dot(m, m);
			if (mm <= OC_PARALLEL_NORMALS)
			{
				continue;
			}

			double ml = sqrt(mm);

			// m / len component-wise (no reciprocal), then the point mh * (rhs / len).
			ocVec2 mh = oc_Divide(m, ml);
			double rhs = oc_Dot(pk->point, pk->normal) - pjnj;
			double q = rhs / ml;
			program[programCount].point = oc_Scale(mh, q);
			program[programCount].normal = mh;
			programCount += 1;
		}

		ocSolveResult r = oc_SolveDirectionAt(program, programCount, radius, &pj->normal);
		if (r.failed < 0)
		{
			v = r.velocity;
			level = oc_SignedDistance(pj, v);
		}
	}

	return v;
}

ocVec2 oc_Relax(const ocHalfPlane* planes, int count, int hardCount, double radius, int failed, ocHalfPlane* scratch)
{
	if (failed < hardCount)
	{
		// The program failed inside the hard prefix: relax the hard prefix alone, with no hard
		// constraints, and ignore the others.
		return oc_MaximizeSmallestDistance(planes, hardCount, 0, radius, scratch);
	}
	return oc_MaximizeSmallestDistance(planes, count, hardCount, radius, scratch);
}
