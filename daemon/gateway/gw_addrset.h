/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_addrset.h - a hash of UDP client addresses (gw_addrset.c): every
 * worker's clients by their source address and port, IPv4 or IPv6, for the
 * float check of `workers N` (gw_shared.c: is this address another worker's
 * client's?). A multimap: one address may be held by more than one entry
 * (two workers' clients for a moment); an entry is removed by its address
 * and item. Buckets are chains through a compact entry array (an index, not
 * a pointer, so growing the array moves nothing), keyed by SipHash with a
 * random key (the addresses are the senders' choice), at most one entry per
 * bucket on average (the table doubles). Not thread-safe: the caller locks.
 */
#ifndef BRAID_GATEWAY_GW_ADDRSET_H
#define BRAID_GATEWAY_GW_ADDRSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "os/sock.h"

/* An address as the hash compares it: family, port, address (v4 in ip[0..4)), v6 scope; zero padded. */
struct gw_addr_key {
	uint8_t ip[16];
	uint32_t scope;
	uint16_t port;
	uint16_t family;
};

struct gw_addrset_ent {
	struct gw_addr_key k;
	const void *item;		/* the client */
	const void *owner;		/* its worker */
	uint32_t next;			/* 1 + index of the next entry in the bucket, 0: the last */
};

struct braid_gw_addrset {
	uint32_t *head;			/* per bucket: 1 + index of its first entry, 0: empty */
	size_t n_buckets;		/* a power of two */
	struct gw_addrset_ent *ent;
	size_t n, cap;
	uint8_t key[16];		/* crypto_shorthash_KEYBYTES */
};

/* An empty set (no allocation until the first add). */
void braid_gw_addrset_init(struct braid_gw_addrset *s);
void braid_gw_addrset_free(struct braid_gw_addrset *s);
/* Add (a, item, owner). 0, -EAFNOSUPPORT (neither AF_INET nor AF_INET6), -ENOMEM, -ENOSPC (2^32 entries). */
int braid_gw_addrset_add(struct braid_gw_addrset *s, const union braid_sockaddr *a, const void *item,
			 const void *owner);
/*
 * Remove the entry of item, looked up under a (its address when added); if the address changed since,
 * found by a walk of every entry. True if one was removed.
 */
bool braid_gw_addrset_del(struct braid_gw_addrset *s, const union braid_sockaddr *a, const void *item);
/* Does an entry hold a with an owner other than owner? */
bool braid_gw_addrset_other(const struct braid_gw_addrset *s, const union braid_sockaddr *a,
			    const void *owner);
/* Entries that share their bucket with an earlier one (collisions; tests and diagnostics). */
size_t braid_gw_addrset_chained(const struct braid_gw_addrset *s);

#endif /* BRAID_GATEWAY_GW_ADDRSET_H */
