/* SPDX-License-Identifier: MIT */
/*
 * Content hash for code objects: identifies a code object across runs so its
 * profile can be cached.  Four independent 64-bit lanes keep the multiplier
 * pipelines busy (several GB/s); a final avalanche mixes them.  Not
 * cryptographic: the cache trusts nothing it reads anyway.
 */
#include "co_int.h"

#define P1 0x9e3779b97f4a7c15ull
#define P2 0xc2b2ae3d27d4eb4full
#define P3 0x165667b19e3779f9ull

static inline uint64_t rotl(uint64_t x, unsigned r)
{
	return x << r | x >> (64 - r);
}

static inline uint64_t lane(uint64_t h, uint64_t w)
{
	return rotl(h + w * P2, 31) * P1;
}

static uint64_t avalanche(uint64_t h)
{
	h ^= h >> 33;
	h *= P2;
	h ^= h >> 29;
	h *= P3;
	h ^= h >> 32;
	return h;
}

uint64_t co_hash(const void *data, size_t size)
{
	const uint8_t *p = data;
	uint64_t v[4] = {P1 + P2, P2, 0, -P1};
	size_t i = 0;
	for (; i + 32 <= size; i += 32)
		for (int k = 0; k < 4; k++)
			v[k] = lane(v[k], hg_load64(p + i + 8 * k));
	uint64_t h = rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) +
		     rotl(v[3], 18) + (uint64_t)size * P3;
	for (; i + 8 <= size; i += 8)
		h = rotl(h ^ lane(0, hg_load64(p + i)), 27) * P1 + P3;
	for (; i < size; i++)
		h = rotl(h ^ (p[i] * P3), 11) * P1;
	return avalanche(h);
}
