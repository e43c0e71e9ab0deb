// SPDX-License-Identifier: MIT
// ORCA solver, C99 port of conformance/solver/obstacle.py.

#include "obstacle.h"

#include <math.h>

double oc_SegmentDistanceSquared(ocVec2 a, ocVec2 b)
{
	ocVec2 e = oc_Sub(b, a);
	double ee = oc_Dot(e, e);
	if (ee == 0.0)
	{
		return oc_Dot(a, a);
	}

	// -(a.e) / (e.e): negate the dot product, then divide (the reference's order).
	double t = -oc_Dot(a, e) / ee;

	// Clamp as the reference does: t < 0 first, then t > 1 (a -0.0 stays -0.0).
	if (t < 0.0)
	{
		t = 0.0;
	}
	else if (t > 1.0)
	{
		t = 1.0;
	}

	// a + e*t: a product then a sum per component, two roundings (never fused).
	ocVec2 c = oc_Add(a, oc_Scale(e, t));
	return oc_Dot(c, c);
}

// Running maximum of the candidate values of the support form.
typedef struct ocSupportSearch
{
	ocVec2 a, b, wa, wb;
	double radius;
	double tolA, tolB;
	double best;
	ocVec2 bestNormal;
	bool overlap;
	bool found;
} ocSupportSearch;

static inline void oc_TryCandidate(ocSupportSearch* s, ocVec2 n)
{
	if (s->overlap == false)
	{
		// Domain test n.a + r <= tolA and n.b + r <= tolB, written as !(A && B) so that a NaN
		// skips the candidate exactly like the reference's `not (... and ...)`.
		if (!(oc_Dot(n, s->a) + s->radius <= s->tolA && oc_Dot(n, s->b) + s->radius <= s->tolB))
		{
			return;
		}
	}

	double va = oc_Dot(n, s->wa);
	double vb = oc_Dot(n, s->wb);

	// min(va, vb) as the reference writes it: vb only when strictly smaller.
	double value = vb < va ? vb : va;

	// Ties keep the first candidate: a candidate replaces the best only when strictly greater,
	// so the text's candidate order decides between equal values (e.g. the two legs of a
	// point when x is on the axis).
	if (s->found == false || value > s->best)
	{
		s->best = value;
		s->bestNormal = n;
		s->found = true;
	}
}

// The two leg normals of the point p: ((c + q) / rho2) then ((c - q) / rho2), with
// rho2 = p.p, l = sqrt(rho2 - r*r), c = -r*p and q = (-p.y*l, p.x*l).
static inline void oc_TryLegs(ocSupportSearch* s, ocVec2 p)
{
	double r = s->radius;
	double rho2 = oc_Dot(p, p);
	double ll = rho2 - r * r;

	// rho2 - r*r < 0 happens only through rounding on a touching segment (the caller found
	// no overlap from the clamped projection, but the end point itself rounds inside r).
	// Both legs are skipped then, as the reference does, instead of taking sqrt of a negative
	// number (NaN here, an exception in Python).
	if (ll < 0.0)
	{
		return;
	}

	double l = sqrt(ll);

	// (-r)*p.x: Python's -r * px negates r first; the negation is exact, the product rounds.
	ocVec2 c = { -r * p.x, -r * p.y };
	ocVec2 q = { -p.y * l, p.x * l };

	// Divide each component by rho2 (no reciprocal; see oc_Divide).
	oc_TryCandidate(s, oc_Divide(oc_Add(c, q), rho2));
	oc_TryCandidate(s, oc_Divide(oc_Sub(c, q), rho2));
}

ocSupport oc_SupportDistance(ocVec2 a, ocVec2 b, double radius, double tau, ocVec2 x, bool overlap)
{
	ocSupportSearch s;
	s.a = a;
	s.b = b;

	// x - a/tau with each component divided by tau (not multiplied by 1/tau).
	s.wa = oc_Sub(x, oc_Divide(a, tau));
	s.wb = oc_Sub(x, oc_Divide(b, tau));
	s.radius = radius;
	s.overlap = overlap;
	s.found = false;
	s.best = 0.0;
	s.bestNormal = oc_MakeVec2(0.0, 0.0);

	bool segment = a.x != b.x || a.y != b.y;
	if (overlap)
	{
		s.tolA = 0.0;
		s.tolB = 0.0;
	}
	else
	{
		s.tolA = OC_TOLERANCE * (oc_Length(a) + radius);
		s.tolB = OC_TOLERANCE * (oc_Length(b) + radius);
	}

	// Candidates in the text's order: radial a, radial b, +nn, -nn, legs of a, legs of b.
	// Each is evaluated as soon as it is formed; the values are independent of each other, so
	// this equals building the list first.

	// "wa = 0" is tested as |wa| == 0 (a NaN length is != 0 and goes on, like the reference).
	double la = oc_Length(s.wa);
	if (la != 0.0)
	{
		oc_TryCandidate(&s, oc_Divide(s.wa, la));
	}

	if (segment)
	{
		double lb = oc_Length(s.wb);
		if (lb != 0.0)
		{
			oc_TryCandidate(&s, oc_Divide(s.wb, lb));
		}

		ocVec2 e = oc_Sub(b, a);
		double le = oc_Length(e);
		if (le > 0.0)
		{
			// (-e.y) / le and e.x / le; the negation is exact.
			ocVec2 nn = { -e.y / le, e.x / le };
			oc_TryCandidate(&s, nn);
			oc_TryCandidate(&s, oc_Neg(nn));
		}
	}

	// In the overlap case the obstacle is bounded: no domain, no legs.
	if (overlap == false)
	{
		oc_TryLegs(&s, a);
		if (segment)
		{
			oc_TryLegs(&s, b);
		}
	}

	if (s.found == false)
	{
		// No candidate survived: the unit vector toward the centre, -(a + b)/|a + b|, or
		// (1, 0) when a + b = 0; its value is computed the same way.
		ocVec2 sum = oc_Add(a, b);
		double ls = oc_Length(sum);
		ocVec2 n;
		if (ls == 0.0)
		{
			n = oc_MakeVec2(1.0, 0.0);
		}
		else
		{
			// (-s.x) / ls: negate, then divide.
			n = oc_MakeVec2(-sum.x / ls, -sum.y / ls);
		}
		double va = oc_Dot(n, s.wa);
		double vb = oc_Dot(n, s.wb);
		s.best = vb < va ? vb : va;
		s.bestNormal = n;
	}

	ocSupport result;
	result.distance = s.best - radius / tau;
	result.normal = s.bestNormal;
	return result;
}

ocCaseForm oc_AgentCaseForm(ocVec2 a, double radius, double tau, ocVec2 x)
{
	return oc_AgentCaseFormInline(a, radius, tau, x);
}
