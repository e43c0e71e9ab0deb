// SPDX-License-Identifier: MIT
// ORCA solver, C99 port of conformance/solver/vector.py.

#pragma once

#include <float.h>
#include <math.h>

// Determinism guards. The port must repeat the reference's IEEE binary64 operations one by one:
// every + - * / and sqrt rounded once, to double, in the written order.

// Fast math reorders sums, assumes no NaN/inf and may replace x / s by x * (1 / s).
#if defined(__FAST_MATH__)
#error "orca: compile without -ffast-math (fast math changes the bits)"
#endif

// x87 arithmetic (FLT_EVAL_METHOD 2) keeps intermediates in 80 bits and rounds twice.
#if defined(FLT_EVAL_METHOD) && FLT_EVAL_METHOD != 0
#error "orca: intermediates must be evaluated in double (FLT_EVAL_METHOD 0, e.g. SSE2)"
#endif

// a*b + c must stay two roundings (the Python reference cannot fuse). GCC ignores this
// pragma, hence the required -ffp-contract=off; Clang and MSVC honour it.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(_MSC_VER)
#pragma fp_contract(off)
#endif

// Symbol export for shared-library builds (define OC_BUILD_DLL when building a Windows DLL).
#if defined(_WIN32) && defined(OC_BUILD_DLL)
#define OC_API __declspec(dllexport)
#elif defined(__GNUC__) && defined(OC_BUILD_DLL)
#define OC_API __attribute__((visibility("default")))
#else
#define OC_API
#endif

/// A 2D vector of IEEE binary64 components.
typedef struct ocVec2
{
	double x, y;
} ocVec2;

/// Makes a vector.
static inline ocVec2 oc_MakeVec2(double x, double y)
{
	ocVec2 v = { x, y };
	return v;
}

/// a.x*b.x + a.y*b.y: two products, then one sum (never fused: an FMA rounds once and the
/// reference rounds twice).
static inline double oc_Dot(ocVec2 a, ocVec2 b)
{
	return a.x * b.x + a.y * b.y;
}

/// a.x*b.y - a.y*b.x, products first (never fused).
static inline double oc_Cross(ocVec2 a, ocVec2 b)
{
	return a.x * b.y - a.y * b.x;
}

/// sqrt(Dot(a, a)); never hypot, which scales and rounds differently.
static inline double oc_Length(ocVec2 a)
{
	return sqrt(a.x * a.x + a.y * a.y);
}

/// a + b component-wise.
static inline ocVec2 oc_Add(ocVec2 a, ocVec2 b)
{
	ocVec2 v = { a.x + b.x, a.y + b.y };
	return v;
}

/// a - b component-wise.
static inline ocVec2 oc_Sub(ocVec2 a, ocVec2 b)
{
	ocVec2 v = { a.x - b.x, a.y - b.y };
	return v;
}

/// -a component-wise (exact).
static inline ocVec2 oc_Neg(ocVec2 a)
{
	ocVec2 v = { -a.x, -a.y };
	return v;
}

/// v * s: each component multiplied by s.
static inline ocVec2 oc_Scale(ocVec2 a, double s)
{
	ocVec2 v = { a.x * s, a.y * s };
	return v;
}

/// v / s: each component divided by s. Not a * (1 / s): the reciprocal is itself rounded, so
/// the product can differ from the quotient in the last bit.
static inline ocVec2 oc_Divide(ocVec2 a, double s)
{
	ocVec2 v = { a.x / s, a.y / s };
	return v;
}
