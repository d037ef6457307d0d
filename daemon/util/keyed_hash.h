/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * keyed_hash.h - the bucket of bytes an attacker may choose (client source addresses, tunnel addresses)
 * in a table of a power-of-two number of buckets: SipHash-2-4 (libsodium's crypto_shorthash) under the
 * table's own random key, so that whoever picks the inputs cannot aim them at one bucket.
 */
#ifndef BRAID_KEYED_HASH_H
#define BRAID_KEYED_HASH_H

#include <sodium.h>
#include <stddef.h>
#include <stdint.h>

/* in[0..len) under key, folded to 64 bits, masked to n_buckets (a power of two, > 0) */
static inline size_t braid_keyed_bucket(const void *in, size_t len,
					const uint8_t key[crypto_shorthash_KEYBYTES], size_t n_buckets)
{
	uint8_t out[crypto_shorthash_BYTES];
	uint64_t v = 0;

	crypto_shorthash(out, in, len, key);
	for (int i = 0; i < 8; i++)
		v = v << 8 | out[i];
	return (size_t)v & (n_buckets - 1);
}

#endif /* BRAID_KEYED_HASH_H */
