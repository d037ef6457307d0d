// SPDX-License-Identifier: GPL-2.0-only
/*
 * vroute.c - inner routing table (see vroute.h).
 */
#include "gateway/vroute.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <sodium.h>

#include "util/keyed_hash.h"

static int alen(int family)
{
	return family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0;
}

static bool is_host(int family, uint8_t prefix)
{
	return prefix == 8 * alen(family);
}

static void mask_copy(uint8_t *dst, const uint8_t *src, int len, uint8_t prefix)
{
	for (int i = 0; i < len; i++) {
		int bits = (int)prefix - 8 * i;
		uint8_t m = bits >= 8 ? 0xff : bits <= 0 ? 0 : (uint8_t)(0xff << (8 - bits));

		dst[i] = src[i] & m;
	}
}

static bool match(const struct braid_vroute_entry *e, int family, const uint8_t *a)
{
	uint8_t m[16];
	int len = alen(family);

	if (e->family != family)
		return false;
	mask_copy(m, a, len, e->prefix);
	return memcmp(m, e->addr, (size_t)len) == 0;
}

static size_t hslot(const struct braid_vroute *t, int family, const uint8_t *a)
{
	uint8_t in[17];

	in[0] = (uint8_t)family;
	memset(in + 1, 0, 16);
	memcpy(in + 1, a, (size_t)alen(family));
	return braid_keyed_bucket(in, sizeof(in), t->hkey, t->h_cap);
}

/* Slot of the host route (family, a), or of the empty slot where it would go. */
static size_t hprobe(const struct braid_vroute *t, int family, const uint8_t *a)
{
	size_t i;

	for (i = hslot(t, family, a);; i = (i + 1) & (t->h_cap - 1)) {
		const struct braid_vroute_entry *x = &t->h[i];

		if (!x->family || (x->family == family && !memcmp(x->addr, a, (size_t)alen(family))))
			return i;
	}
}

static const struct braid_vroute_entry *hfind(const struct braid_vroute *t, int family,
					      const uint8_t *a)
{
	size_t i;

	if (!t->h_cap)
		return NULL;
	i = hprobe(t, family, a);
	return t->h[i].family ? &t->h[i] : NULL;
}

/* Put every host route of e into the index (which must be empty and big enough). */
static void hfill(struct braid_vroute *t)
{
	t->n_hosts = 0;
	for (size_t i = 0; i < t->n; i++)
		if (is_host(t->e[i].family, t->e[i].prefix)) {
			t->h[hprobe(t, t->e[i].family, t->e[i].addr)] = t->e[i];
			t->n_hosts++;
		}
}

/* Room for `hosts` host routes at load <= 1/2: a bigger index, refilled from e. */
static int hreserve(struct braid_vroute *t, size_t hosts)
{
	size_t cap = 16;
	struct braid_vroute_entry *h;

	while (cap < 2 * hosts + 2)
		cap *= 2;
	if (cap <= t->h_cap)
		return 0;
	h = calloc(cap, sizeof(*h));
	if (!h)
		return -ENOMEM;
	free(t->h);
	t->h = h;
	t->h_cap = cap;
	hfill(t);
	return 0;
}

/* The non-host routes of e, same order. */
static void nets_rebuild(struct braid_vroute *t)
{
	t->n_nets = 0;
	for (size_t i = 0; i < t->n; i++)
		if (!is_host(t->e[i].family, t->e[i].prefix))
			t->nets[t->n_nets++] = t->e[i];
}

void braid_vroute_init(struct braid_vroute *t)
{
	memset(t, 0, sizeof(*t));
	randombytes_buf(t->hkey, sizeof(t->hkey));
}

void braid_vroute_free(struct braid_vroute *t)
{
	free(t->e);
	free(t->nets);
	free(t->h);
	memset(t, 0, sizeof(*t));
}

int braid_vroute_add(struct braid_vroute *t, int family, const void *addr, uint8_t prefix,
		     bool iroute, uint32_t owner)
{
	struct braid_vroute_entry ne = { .family = family, .prefix = prefix, .iroute = iroute,
					 .owner = owner };
	bool host;
	int len = alen(family);
	size_t i;

	if (!len || prefix > 8 * len)
		return -EINVAL;
	host = is_host(family, prefix);
	mask_copy(ne.addr, addr, len, prefix);
	/* the same prefix again: the newer owner takes it over */
	if (!host || hfind(t, family, ne.addr))
		for (i = 0; i < t->n; i++)
			if (t->e[i].family == family && t->e[i].prefix == prefix &&
			    !memcmp(t->e[i].addr, ne.addr, (size_t)len)) {
				t->e[i] = ne;
				if (host)
					t->h[hprobe(t, family, ne.addr)] = ne;
				else
					nets_rebuild(t);
				return 0;
			}
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct braid_vroute_entry *e = realloc(t->e, cap * sizeof(*e)), *n;

		if (!e)
			return -ENOMEM;
		t->e = e;
		n = realloc(t->nets, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		t->nets = n;
		t->cap = cap;
	}
	if (host && hreserve(t, t->n_hosts + 1))
		return -ENOMEM;
	/* keep longest prefixes first */
	for (i = 0; i < t->n; i++)
		if (t->e[i].prefix < prefix)
			break;
	memmove(&t->e[i + 1], &t->e[i], (t->n - i) * sizeof(*t->e));
	t->e[i] = ne;
	t->n++;
	if (host) {
		t->h[hprobe(t, family, ne.addr)] = ne;
		t->n_hosts++;
	} else {
		nets_rebuild(t);
	}
	return 0;
}

size_t braid_vroute_del_owner(struct braid_vroute *t, uint32_t owner)
{
	size_t i, j = 0, removed = 0;

	for (i = 0; i < t->n; i++) {
		if (t->e[i].owner == owner) {
			removed++;
			continue;
		}
		t->e[j++] = t->e[i];
	}
	t->n = j;
	if (removed) {
		/* open addressing cannot just empty a slot: refill the index */
		if (t->h_cap) {
			memset(t->h, 0, t->h_cap * sizeof(*t->h));
			hfill(t);
		}
		nets_rebuild(t);
	}
	return removed;
}

int braid_vroute_lookup(const struct braid_vroute *t, int family, const void *addr,
			uint32_t *owner)
{
	const struct braid_vroute_entry *x;

	if (!alen(family))
		return -EINVAL;
	x = hfind(t, family, addr);
	if (x) {
		*owner = x->owner;
		return 0;
	}
	for (size_t i = 0; i < t->n_nets; i++)
		if (match(&t->nets[i], family, addr)) {
			*owner = t->nets[i].owner;
			return 0;
		}
	return -ENOENT;
}

int braid_vroute_lookup_packet(const struct braid_vroute *t, const uint8_t *pkt, size_t len,
			       uint32_t *owner)
{
	if (len >= 20 && pkt[0] >> 4 == 4)
		return braid_vroute_lookup(t, AF_INET, pkt + 16, owner);
	if (len >= 40 && pkt[0] >> 4 == 6)
		return braid_vroute_lookup(t, AF_INET6, pkt + 24, owner);
	return -EINVAL;
}

int braid_vroute_packet_src(const uint8_t *pkt, size_t len, int *family, uint8_t addr[16])
{
	memset(addr, 0, 16);
	if (len >= 20 && pkt[0] >> 4 == 4) {
		*family = AF_INET;
		memcpy(addr, pkt + 12, 4);
		return 0;
	}
	if (len >= 40 && pkt[0] >> 4 == 6) {
		*family = AF_INET6;
		memcpy(addr, pkt + 8, 16);
		return 0;
	}
	return -EINVAL;
}
