// SPDX-License-Identifier: MIT
// ORCA conformance, C99 port of conformance/contract/state_hash.py: canonical state bytes.
//
// Per agent in index order: position.x, position.y, velocity.x, velocity.y, each an IEEE
// binary64 written little-endian byte by byte (so big-endian hosts such as s390x produce the
// same bytes); 32 bytes per agent, nothing else.

#pragma once

#include "vector.h"

#include <stdint.h>

/// Bytes per agent in the canonical state.
#define OC_AGENT_BYTES 32

/// Writes one double little-endian into out[0..7].
OC_API void oc_WriteDoubleLE(double value, unsigned char* out);

/// Canonical bytes of count agents (positions and velocities) into out (count * 32 bytes).
OC_API void oc_CanonicalBytes(const ocVec2* positions, const ocVec2* velocities, int count, unsigned char* out);

/// 1 when every value is finite (no NaN, no infinity), else 0.
OC_API int oc_IsFiniteState(const ocVec2* positions, const ocVec2* velocities, int count);

/// The IEEE bit pattern of a double.
OC_API uint64_t oc_DoubleBits(double value);

/// The double with a given IEEE bit pattern.
OC_API double oc_BitsDouble(uint64_t bits);
