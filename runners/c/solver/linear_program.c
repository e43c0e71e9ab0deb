// SPDX-License-Identifier: MIT
// ORCA solver, C99 port of conformance/solver/linear_program.py.

#include "linear_program.h"

#include <math.h>
#include <stdbool.h>

// Interval [lower, upper] of t for which P_i + t d_i lies in the disc and in planes 0..i-1,
// d = (-N.y, N.x). Returns false when it is empty.
// Inlined into both programs (speed only): as a call, its results went through memory and the
// callers' vectors were saved on the stack around it.
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline bool oc_LineInterval(const ocHalfPlane* planes, int i, double radius, double* lowerOut, double* upperOut)
{
	ocVec2 p = planes[i].point;
	ocVec2 d = { -planes[i].normal.y, planes[i].normal.x };
	double pd = oc_Dot(p, d);

	// (pd*pd + R*R) - P.P, left to right as the reference writes it.
	double disc = pd * pd + radius * radius - oc_Dot(p, p);

	// disc == 0 is a single point, not a failure; a NaN disc goes on like the reference.
	if (disc < 0.0)
	{
		return false;
	}

	double s = sqrt(disc);
	double lower = -pd - s;
	double upper = -pd + s;

	for (int j = 0; j < i; ++j)
	{
		ocVec2 q = planes[j].point;
		ocVec2 m = planes[j].normal;
		double denom = oc_Dot(d, m);
		double num = oc_Dot(oc_Sub(p, q), m);

		// Written as the reference's chained comparison so a NaN denom is not "parallel".
		if (-OC_PARALLEL_EPSILON <= denom && denom <= OC_PARALLEL_EPSILON)
		{
			if (num < 0.0)
			{
				return false;
			}
			continue;
		}

		// (-num) / denom: the negation is exact, one division.
		double t = -num / denom;
		if (denom > 0.0)
		{
			if (t > lower)
			{
				lower = t;
			}
		}
		else if (t < upper)
		{
			upper = t;
		}

		if (lower > upper)
		{
			return false;
		}
	}

	*lowerOut = lower;
	*upperOut = upper;
	return true;
}

ocSolveResult oc_SolveClosestAt(const ocHalfPlane* planes, int count, double radius, const ocVec2* preferredAt)
{
	ocSolveResult result;
	ocVec2 v, preferred = *preferredAt;

	double plen = oc_Length(preferred);
	if (plen <= radius)
	{
		v = preferred;
	}
	else
	{
		// (p / |p|) * R: divide each component, then scale (two roundings, in this order).
		v = oc_Scale(oc_Divide(preferred, plen), radius);
	}

	for (int i = 0; i < count; ++i)
	{
		const ocHalfPlane* plane = planes + i;
		if (oc_SignedDistance(plane, v) >= 0.0)
		{
			continue;
		}

		double lower, upper;
		if (oc_LineInterval(planes, i, radius, &lower, &upper) == false)
		{
			result.velocity = v;
			result.failed = i;
			return result;
		}

		ocVec2 p = plane->point;
		ocVec2 d = { -plane->normal.y, plane->normal.x };

		// Projection of the preferred velocity: d . (pref - P), clamped lower first.
		double t = oc_Dot(d, oc_Sub(preferred, p));
		if (t < lower)
		{
			t = lower;
		}
		else if (t > upper)
		{
			t = upper;
		}

		// P + d*t: product, then sum (never fused).
		v = oc_Add(p, oc_Scale(d, t));
	}

	result.velocity = v;
	result.failed = -1;
	return result;
}

ocSolveResult oc_SolveDirectionAt(const ocHalfPlane* planes, int count, double radius, const ocVec2* directionAt)
{
	ocSolveResult result;
	ocVec2 direction = *directionAt;
	// (N / |N|) * R: divide each component, then scale.
	double olen = oc_Length(direction);
	ocVec2 v = oc_Scale(oc_Divide(direction, olen), radius);

	for (int i = 0; i < count; ++i)
	{
		const ocHalfPlane* plane = planes + i;
		if (oc_SignedDistance(plane, v) >= 0.0)
		{
			continue;
		}

		double lower, upper;
		if (oc_LineInterval(planes, i, radius, &lower, &upper) == false)
		{
			result.velocity = v;
			result.failed = i;
			return result;
		}

		ocVec2 p = plane->point;
		ocVec2 d = { -plane->normal.y, plane->normal.x };
		double dn = oc_Dot(d, direction);
		double t;
		if (dn > 0.0)
		{
			t = upper;
		}
		else if (dn < 0.0)
		{
			t = lower;
		}
		else
		{
			// d . N == 0 (or NaN): the projection of the current v, clamped lower first.
			t = oc_Dot(d, oc_Sub(v, p));
			if (t < lower)
			{
				t = lower;
			}
			else if (t > upper)
			{
				t = upper;
			}
		}

		v = oc_Add(p, oc_Scale(d, t));
	}

	result.velocity = v;
	result.failed = -1;
	return result;
}

ocSolveResult oc_SolveClosest(const ocHalfPlane* planes, int count, double radius, ocVec2 preferred)
{
	return oc_SolveClosestAt(planes, count, radius, &preferred);
}

ocSolveResult oc_SolveDirection(const ocHalfPlane* planes, int count, double radius, ocVec2 direction)
{
	return oc_SolveDirectionAt(planes, count, radius, &direction);
}
