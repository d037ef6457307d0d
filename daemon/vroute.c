// SPDX-License-Identifier: GPL-2.0-only
/*
 * vroute.c - inner routing table (see vroute.h).
 */
#include "vroute.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

static int alen(int family)
{
	return family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0;
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

void braid_vroute_init(struct braid_vroute *t)
{
	memset(t, 0, sizeof(*t));
}

void braid_vroute_free(struct braid_vroute *t)
{
	free(t->e);
	memset(t, 0, sizeof(*t));
}

int braid_vroute_add(struct braid_vroute *t, int family, const void *addr, uint8_t prefix,
		     bool iroute, uint32_t owner)
{
	struct braid_vroute_entry ne = { .family = family, .prefix = prefix, .iroute = iroute,
					 .owner = owner };
	int len = alen(family);
	size_t i;

	if (!len || prefix > 8 * len)
		return -EINVAL;
	mask_copy(ne.addr, addr, len, prefix);
	for (i = 0; i < t->n; i++)
		if (t->e[i].family == family && t->e[i].prefix == prefix &&
		    !memcmp(t->e[i].addr, ne.addr, (size_t)len)) {
			t->e[i] = ne;
			return 0;
		}
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		struct braid_vroute_entry *e = realloc(t->e, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		t->e = e;
		t->cap = cap;
	}
	/* keep longest prefixes first (v4 /32 and v6 /128 compare by bits from the top) */
	for (i = 0; i < t->n; i++)
		if (t->e[i].prefix < prefix)
			break;
	memmove(&t->e[i + 1], &t->e[i], (t->n - i) * sizeof(*t->e));
	t->e[i] = ne;
	t->n++;
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
	return removed;
}

int braid_vroute_lookup(const struct braid_vroute *t, int family, const void *addr,
			uint32_t *owner)
{
	if (!alen(family))
		return -EINVAL;
	for (size_t i = 0; i < t->n; i++)
		if (match(&t->e[i], family, addr)) {
			*owner = t->e[i].owner;
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
