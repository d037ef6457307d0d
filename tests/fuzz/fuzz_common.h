/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_common.h - what every libFuzzer harness in tests/fuzz/ shares: a
 * reader that cuts the fuzzer's input into flag bytes and length-prefixed
 * chunks, the fixed test keys, and the invariant check.
 *
 * Chunk format (make-corpus writes seeds the same way): u16 BE length, then
 * that many bytes; a length past the end takes what is left. So one input
 * can carry a sequence of packets, segments or messages.
 */
#ifndef BRAID_FUZZ_COMMON_H
#define BRAID_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct fz {
	const uint8_t *p;
	size_t n;
};

static inline uint8_t fz_u8(struct fz *f)
{
	uint8_t v;

	if (!f->n)
		return 0;
	v = f->p[0];
	f->p++;
	f->n--;
	return v;
}

static inline uint16_t fz_u16(struct fz *f)
{
	uint16_t hi = fz_u8(f);

	return (uint16_t)(hi << 8 | fz_u8(f));
}

/* Next chunk: 1 and (*c, *len), or 0 when the input is used up. */
static inline int fz_chunk(struct fz *f, const uint8_t **c, size_t *len)
{
	size_t l;

	if (f->n < 2)
		return 0;
	l = fz_u16(f);
	if (l > f->n)
		l = f->n;
	*c = f->p;
	*len = l;
	f->p += l;
	f->n -= l;
	return 1;
}

/* The harnesses' fixed test keys (never a real one): k[i] = i * 13 + seed. */
static inline void fz_fill(uint8_t *k, size_t n, uint8_t seed)
{
	for (size_t i = 0; i < n; i++)
		k[i] = (uint8_t)(i * 13 + seed);
}
#define fz_key2(k2, seed) fz_fill((k2)->k, sizeof((k2)->k), (seed))

/* A broken invariant: say which and abort, so libFuzzer keeps the input. */
#define FZ_ASSERT(cond)                                                                    \
	do {                                                                               \
		if (!(cond)) {                                                             \
			fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, \
				#cond);                                                    \
			abort();                                                           \
		}                                                                          \
	} while (0)

/* Fixed clocks, so that seeds with replay ids and cookies stay valid. */
#define FZ_NOW_S 1764000000	/* unix seconds (2025-11-24) */
#define FZ_NOW_MS 1000000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif /* BRAID_FUZZ_COMMON_H */
