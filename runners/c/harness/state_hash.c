// SPDX-License-Identifier: MIT
// ORCA conformance, canonical state bytes (see state_hash.h).

#include "state_hash.h"

#include <string.h>

uint64_t oc_DoubleBits(double value)
{
	uint64_t bits;
	memcpy(&bits, &value, sizeof bits);
	return bits;
}

double oc_BitsDouble(uint64_t bits)
{
	double value;
	memcpy(&value, &bits, sizeof value);
	return value;
}

void oc_WriteDoubleLE(double value, unsigned char* out)
{
	// Shifts on the integer bit pattern, not a memcpy of the double: the byte order of the
	// canonical form is fixed, whatever the host's.
	uint64_t bits = oc_DoubleBits(value);
	for (int k = 0; k < 8; ++k)
	{
		out[k] = (unsigned char)(bits >> (8 * k));
	}
}

void oc_CanonicalBytes(const ocVec2* positions, const ocVec2* velocities, int count, unsigned char* out)
{
	for (int i = 0; i < count; ++i)
	{
		unsigned char* agent = out + (size_t)i * OC_AGENT_BYTES;
		oc_WriteDoubleLE(positions[i].x, agent);
		oc_WriteDoubleLE(positions[i].y, agent + 8);
		oc_WriteDoubleLE(velocities[i].x, agent + 16);
		oc_WriteDoubleLE(velocities[i].y, agent + 24);
	}
}

static int oc_IsFinite(double value)
{
	// exponent all ones means NaN or infinity; no libm isfinite needed
	return ((oc_DoubleBits(value) >> 52) & 0x7ff) != 0x7ff;
}

int oc_IsFiniteState(const ocVec2* positions, const ocVec2* velocities, int count)
{
	for (int i = 0; i < count; ++i)
	{
		if (!oc_IsFinite(positions[i].x) || !oc_IsFinite(positions[i].y) || !oc_IsFinite(velocities[i].x) ||
			!oc_IsFinite(velocities[i].y))
		{
			return 0;
		}
	}
	return 1;
}
