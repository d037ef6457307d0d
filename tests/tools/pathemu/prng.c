// SPDX-License-Identifier: GPL-2.0-only
/*
 * prng.c - xoshiro256** (Blackman/Vigna) seeded through splitmix64. Written from the published
 * algorithm description; the constants are the algorithm's.
 */
#include "prng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void prng_seed(struct prng *g, uint64_t seed, uint64_t stream)
{
	uint64_t x = seed ^ (stream * 0xd1b54a32d192ed03ULL);
	int i;

	for (i = 0; i < 4; i++)
		g->s[i] = splitmix64(&x);
}

uint64_t prng_next(struct prng *g)
{
	uint64_t *s = g->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double prng_uniform(struct prng *g)
{
	return (double)(prng_next(g) >> 11) * 0x1.0p-53;
}

double prng_normal(struct prng *g)
{
	double u1 = 1.0 - prng_uniform(g); /* (0, 1]: log() stays finite */
	double u2 = prng_uniform(g);

	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}
