/* SPDX-License-Identifier: GPL-2.0-only */
/* prng.h - seeded xoshiro256** generator (splitmix64 seeding) for reproducible emulation. */
#ifndef PATHEMU_PRNG_H
#define PATHEMU_PRNG_H

#include <stdint.h>

struct prng {
	uint64_t s[4];
};

/* Seed from a 64-bit value; different streams of one seed differ by `stream`. */
void prng_seed(struct prng *g, uint64_t seed, uint64_t stream);
uint64_t prng_next(struct prng *g);
/* Uniform double in [0, 1). */
double prng_uniform(struct prng *g);
/* Standard normal deviate (Box-Muller, one draw pair per call). */
double prng_normal(struct prng *g);

#endif
