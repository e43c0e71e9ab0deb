// SPDX-License-Identifier: MIT
// ORCA conformance CLI: SHA-256 (see sha256.h). Byte-oriented, so the host's endianness does
// not matter.

#include "sha256.h"

#include <string.h>

// First 32 bits of the fractional parts of the cube roots of the first 64 primes.
static const uint32_t oc_sha256K[64] = {
	0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
	0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
	0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
	0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
	0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
	0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
	0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
	0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u,
};

static uint32_t oc_Rotr(uint32_t x, int n)
{
	return (x >> n) | (x << (32 - n));
}

// One 64-byte block into the state.
static void oc_Sha256_Block(ocSha256* sha, const unsigned char* p)
{
	uint32_t w[64];
	for (int t = 0; t < 16; ++t)
	{
		w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 | (uint32_t)p[4 * t + 2] << 8 |
			   (uint32_t)p[4 * t + 3];
	}
	for (int t = 16; t < 64; ++t)
	{
		uint32_t s0 = oc_Rotr(w[t - 15], 7) ^ oc_Rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
		uint32_t s1 = oc_Rotr(w[t - 2], 17) ^ oc_Rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}

	uint32_t a = sha->state[0], b = sha->state[1], c = sha->state[2], d = sha->state[3];
	uint32_t e = sha->state[4], f = sha->state[5], g = sha->state[6], h = sha->state[7];
	for (int t = 0; t < 64; ++t)
	{
		uint32_t s1 = oc_Rotr(e, 6) ^ oc_Rotr(e, 11) ^ oc_Rotr(e, 25);
		uint32_t ch = (e & f) ^ (~e & g);
		uint32_t t1 = h + s1 + ch + oc_sha256K[t] + w[t];
		uint32_t s0 = oc_Rotr(a, 2) ^ oc_Rotr(a, 13) ^ oc_Rotr(a, 22);
		uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
		uint32_t t2 = s0 + maj;
		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	sha->state[0] += a;
	sha->state[1] += b;
	sha->state[2] += c;
	sha->state[3] += d;
	sha->state[4] += e;
	sha->state[5] += f;
	sha->state[6] += g;
	sha->state[7] += h;
}

void oc_Sha256_Init(ocSha256* sha)
{
	static const uint32_t initial[8] = {
		0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au, 0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u,
	};
	memcpy(sha->state, initial, sizeof initial);
	sha->length = 0;
	sha->used = 0;
}

void oc_Sha256_Update(ocSha256* sha, const void* data, size_t size)
{
	const unsigned char* p = (const unsigned char*)data;
	sha->length += (uint64_t)size;

	// Top up a partial block first, then whole blocks straight from the input.
	if (sha->used > 0)
	{
		size_t take = (size_t)(64 - sha->used);
		if (take > size)
		{
			take = size;
		}
		memcpy(sha->block + sha->used, p, take);
		sha->used += (int)take;
		p += take;
		size -= take;
		if (sha->used < 64)
		{
			return;
		}
		oc_Sha256_Block(sha, sha->block);
		sha->used = 0;
	}
	while (size >= 64)
	{
		oc_Sha256_Block(sha, p);
		p += 64;
		size -= 64;
	}
	if (size > 0)
	{
		memcpy(sha->block, p, size);
		sha->used = (int)size;
	}
}

void oc_Sha256_Final(ocSha256* sha, unsigned char digest[OC_SHA256_BYTES])
{
	uint64_t bits = sha->length * 8;

	// 0x80, zeros up to 56 mod 64, then the message length in bits, big-endian.
	sha->block[sha->used++] = 0x80;
	if (sha->used > 56)
	{
		memset(sha->block + sha->used, 0, (size_t)(64 - sha->used));
		oc_Sha256_Block(sha, sha->block);
		sha->used = 0;
	}
	memset(sha->block + sha->used, 0, (size_t)(56 - sha->used));
	for (int k = 0; k < 8; ++k)
	{
		sha->block[56 + k] = (unsigned char)(bits >> (56 - 8 * k));
	}
	oc_Sha256_Block(sha, sha->block);

	for (int k = 0; k < 8; ++k)
	{
		digest[4 * k] = (unsigned char)(sha->state[k] >> 24);
		digest[4 * k + 1] = (unsigned char)(sha->state[k] >> 16);
		digest[4 * k + 2] = (unsigned char)(sha->state[k] >> 8);
		digest[4 * k + 3] = (unsigned char)sha->state[k];
	}
}

void oc_Sha256_Hex(const void* data, size_t size, char hex[OC_SHA256_HEX + 1])
{
	static const char digits[] = "0123456789abcdef";
	ocSha256 sha;
	unsigned char digest[OC_SHA256_BYTES];
	oc_Sha256_Init(&sha);
	oc_Sha256_Update(&sha, data, size);
	oc_Sha256_Final(&sha, digest);
	for (int k = 0; k < OC_SHA256_BYTES; ++k)
	{
		hex[2 * k] = digits[digest[k] >> 4];
		hex[2 * k + 1] = digits[digest[k] & 15];
	}
	hex[OC_SHA256_HEX] = '\0';
}
