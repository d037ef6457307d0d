// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_addrset.c - a hash of UDP client addresses (gw_addrset.h).
 */
#include "gateway/gw_addrset.h"

#include <errno.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "util/keyed_hash.h"

_Static_assert(sizeof(((struct braid_gw_addrset *)0)->key) == crypto_shorthash_KEYBYTES,
	       "the SipHash key");

#define BUCKETS_MIN 64

static int key_of(const union braid_sockaddr *a, struct gw_addr_key *k)
{
	memset(k, 0, sizeof(*k));
	k->family = a->sa.sa_family;
	if (a->sa.sa_family == AF_INET) {
		memcpy(k->ip, &a->in.sin_addr, 4);
		k->port = a->in.sin_port;
		return 0;
	}
	if (a->sa.sa_family == AF_INET6) {
		memcpy(k->ip, &a->in6.sin6_addr, 16);
		k->port = a->in6.sin6_port;
		k->scope = a->in6.sin6_scope_id;
		return 0;
	}
	return -EAFNOSUPPORT;
}

static size_t bucket(const struct braid_gw_addrset *s, const struct gw_addr_key *k)
{
	return braid_keyed_bucket(k, sizeof(*k), s->key, s->n_buckets);
}

void braid_gw_addrset_init(struct braid_gw_addrset *s)
{
	memset(s, 0, sizeof(*s));
	randombytes_buf(s->key, sizeof(s->key));
}

void braid_gw_addrset_free(struct braid_gw_addrset *s)
{
	free(s->head);
	free(s->ent);
	s->head = NULL;
	s->ent = NULL;
	s->n = s->cap = s->n_buckets = 0;
}

/* Every entry into its bucket again (n_buckets changed). */
static void relink(struct braid_gw_addrset *s)
{
	memset(s->head, 0, s->n_buckets * sizeof(*s->head));
	for (size_t i = 0; i < s->n; i++) {
		size_t b = bucket(s, &s->ent[i].k);

		s->ent[i].next = s->head[b];
		s->head[b] = (uint32_t)(i + 1);
	}
}

/* Room for one more entry, at most one entry per bucket on average. */
static int grow(struct braid_gw_addrset *s)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : BUCKETS_MIN;
		struct gw_addrset_ent *e;

		if (cap > UINT32_MAX - 1)
			return -ENOSPC;
		e = realloc(s->ent, cap * sizeof(*e));
		if (!e)
			return -ENOMEM;
		s->ent = e;
		s->cap = cap;
	}
	if (s->n + 1 > s->n_buckets) {
		size_t nb = s->n_buckets ? 2 * s->n_buckets : BUCKETS_MIN;
		uint32_t *h = calloc(nb, sizeof(*h));

		if (!h)
			return -ENOMEM;
		free(s->head);
		s->head = h;
		s->n_buckets = nb;
		relink(s);
	}
	return 0;
}

int braid_gw_addrset_add(struct braid_gw_addrset *s, const union braid_sockaddr *a, const void *item,
			 const void *owner)
{
	struct gw_addrset_ent *e;
	struct gw_addr_key k;
	size_t b;
	int r = key_of(a, &k);

	r = r ?: grow(s);
	if (r)
		return r;
	e = &s->ent[s->n];
	e->k = k;
	e->item = item;
	e->owner = owner;
	b = bucket(s, &e->k);
	e->next = s->head[b];
	s->head[b] = (uint32_t)(++s->n);
	return 0;
}

/* The link that holds 1 + i (a bucket head or an entry's next). */
static uint32_t *link_to(struct braid_gw_addrset *s, size_t i)
{
	uint32_t *p = &s->head[bucket(s, &s->ent[i].k)];

	while (*p && *p != i + 1)
		p = &s->ent[*p - 1].next;
	return p;
}

/* Unlink entry i, move the last entry into its place. */
static void remove_at(struct braid_gw_addrset *s, size_t i)
{
	size_t last = s->n - 1;

	*link_to(s, i) = s->ent[i].next;
	if (i != last) {
		*link_to(s, last) = (uint32_t)(i + 1);
		s->ent[i] = s->ent[last];
	}
	s->n--;
}

bool braid_gw_addrset_del(struct braid_gw_addrset *s, const union braid_sockaddr *a, const void *item)
{
	struct gw_addr_key k;

	if (!s->n)
		return false;
	if (!key_of(a, &k))
		for (uint32_t p = s->head[bucket(s, &k)]; p; p = s->ent[p - 1].next)
			if (s->ent[p - 1].item == item && !memcmp(&s->ent[p - 1].k, &k, sizeof(k))) {
				remove_at(s, p - 1);
				return true;
			}
	for (size_t i = 0; i < s->n; i++)	/* its address changed since it was added */
		if (s->ent[i].item == item) {
			remove_at(s, i);
			return true;
		}
	return false;
}

bool braid_gw_addrset_other(const struct braid_gw_addrset *s, const union braid_sockaddr *a,
			    const void *owner)
{
	struct gw_addr_key k;

	if (!s->n || key_of(a, &k))
		return false;
	for (uint32_t p = s->head[bucket(s, &k)]; p; p = s->ent[p - 1].next)
		if (s->ent[p - 1].owner != owner && !memcmp(&s->ent[p - 1].k, &k, sizeof(k)))
			return true;
	return false;
}

size_t braid_gw_addrset_chained(const struct braid_gw_addrset *s)
{
	size_t n = 0;

	for (size_t b = 0; b < s->n_buckets; b++)
		for (uint32_t p = s->head[b]; p; p = s->ent[p - 1].next)
			n += p != s->head[b];
	return n;
}
