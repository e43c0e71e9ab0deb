// SPDX-License-Identifier: MIT
// ORCA conformance CLI: a small self-contained SHA-256 (FIPS 180-4) for the state hash.

#pragma once

#include <stddef.h>
#include <stdint.h>

/// Bytes in a SHA-256 digest.
#define OC_SHA256_BYTES 32

/// Characters of a digest in hex, without the terminating NUL.
#define OC_SHA256_HEX 64

/// Running SHA-256 state (feed any number of bytes, then finish once).
typedef struct ocSha256
{
	/// the eight working words H0..H7
	uint32_t state[8];
	/// message bytes hashed so far
	uint64_t length;
	/// pending bytes of the current 64-byte block
	unsigned char block[64];
	/// number of pending bytes in block
	int used;
} ocSha256;

/// Starts a digest.
void oc_Sha256_Init(ocSha256* sha);

/// Feeds size bytes (data may be NULL when size is 0).
void oc_Sha256_Update(ocSha256* sha, const void* data, size_t size);

/// Pads, finishes and writes the 32-byte digest; the state must be re-initialised after.
void oc_Sha256_Final(ocSha256* sha, unsigned char digest[OC_SHA256_BYTES]);

/// Lowercase hex digest of size bytes into hex (OC_SHA256_HEX characters plus a NUL).
void oc_Sha256_Hex(const void* data, size_t size, char hex[OC_SHA256_HEX + 1]);
