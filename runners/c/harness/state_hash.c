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

// The exponent field of value's bit pattern, all ones (0x7ff) for NaN and infinity. A memcpy
// of its own, not oc_DoubleBits: that one is exported, so a call to it from the shared library
// goes through the PLT (four calls per agent and step in oc_IsFiniteState).
static inline unsigned oc_Exponent(double value)
{
	uint64_t bits;
	memcpy(&bits, &value, sizeof bits);
	return (unsigned)(bits >> 52) & 0x7ff;
}

int oc_IsFiniteState(const ocVec2* positions, const ocVec2* velocities, int count)
{
	for (int i = 0; i < count; ++i)
	{
		// exponent all ones means NaN or infinity; no libm isfinite needed. One branch per
		// agent: the four tests are combined without short-circuit.
		if ((oc_Exponent(positions[i].x) == 0x7ff) | (oc_Exponent(positions[i].y) == 0x7ff) |
			(oc_Exponent(velocities[i].x) == 0x7ff) | (oc_Exponent(velocities[i].y) == 0x7ff))
		{
			return 0;
		}
	}
	return 1;
}
