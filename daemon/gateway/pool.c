// SPDX-License-Identifier: GPL-2.0-only
/*
 * pool.c - client address pool (see pool.h).
 */
#include "gateway/pool.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "control/statfile.h"

#define V6_POOL_OFFSET 0x1000u
#define V6_POOL_MAX 65536u
#define CN_MAX 256

struct entry {
	bool in_use;
	char *cn;		/* remembered owner, NULL if none */
};

struct braid_pool {
	struct braid_pool_config cfg;
	uint32_t size;
	uint32_t in_use;
	struct entry *e;
};

static void v6_add(struct in6_addr *a, uint32_t n)
{
	uint64_t carry = n;

	for (int i = 15; i >= 0 && carry; i--) {
		carry += a->s6_addr[i];
		a->s6_addr[i] = (uint8_t)carry;
		carry >>= 8;
	}
}

static int v6_diff(const struct in6_addr *a, const struct in6_addr *base, uint32_t *out)
{
	/* a - base, only if it fits in 32 bits and is >= 0 */
	uint8_t d[16];
	int borrow = 0;

	for (int i = 15; i >= 0; i--) {
		int v = (int)a->s6_addr[i] - base->s6_addr[i] - borrow;

		borrow = v < 0;
		d[i] = (uint8_t)(v + (borrow ? 256 : 0));
	}
	if (borrow)
		return -ERANGE;
	for (int i = 0; i < 12; i++)
		if (d[i])
			return -ERANGE;
	*out = (uint32_t)d[12] << 24 | (uint32_t)d[13] << 16 | (uint32_t)d[14] << 8 | d[15];
	return 0;
}

static bool mask_valid(uint32_t mask)
{
	return mask != 0 && ((~mask + 1) & ~mask) == 0;
}

int braid_pool_config_server(struct braid_pool_config *cfg, bool v4, uint32_t net, uint32_t mask,
			     enum braid_pool_topo topo, bool v6, const struct in6_addr *net6,
			     uint8_t bits6, uint32_t *gw4, struct in6_addr *gw6, const char **why)
{
	memset(cfg, 0, sizeof(*cfg));
	if (v4) {
		uint32_t bcast;

		if (!mask_valid(mask)) {
			*why = "netmask is not a contiguous mask";
			return -EINVAL;
		}
		if (net & ~mask) {
			*why = "network address has host bits set";
			return -EINVAL;
		}
		if (~mask < 7) {
			*why = "network too small (needs a /29 or larger)";
			return -EINVAL;
		}
		bcast = net | ~mask;
		cfg->has_v4 = true;
		cfg->topo = topo;
		cfg->v4_netmask = mask;
		if (topo == BRAID_POOL_SUBNET) {
			cfg->v4_start = net + 2;
			cfg->v4_end = bcast - 1;
		} else {
			cfg->v4_start = net + 4;
			cfg->v4_end = bcast - 4;
		}
		if (gw4)
			*gw4 = net + 1;
	}
	if (v6) {
		if (bits6 < 64 || bits6 > 112) {
			*why = "server-ipv6 prefix length must be 64..112";
			return -EINVAL;
		}
		cfg->has_v6 = true;
		cfg->v6_base = *net6;
		cfg->v6_prefix = bits6;
		if (gw6) {
			*gw6 = *net6;
			v6_add(gw6, 1);
		}
		v6_add(&cfg->v6_base, V6_POOL_OFFSET);
	}
	if (!v4 && !v6) {
		*why = "neither an IPv4 nor an IPv6 network";
		return -EINVAL;
	}
	return 0;
}

int braid_pool_new(struct braid_pool **out, const struct braid_pool_config *cfg)
{
	struct braid_pool *p;
	uint32_t size = 0;

	if (cfg->has_v4) {
		if (cfg->v4_end < cfg->v4_start)
			return -EINVAL;
		size = cfg->topo == BRAID_POOL_NET30 ? (cfg->v4_end - cfg->v4_start + 1) / 4
						     : cfg->v4_end - cfg->v4_start + 1;
		if (cfg->topo == BRAID_POOL_NET30 && (cfg->v4_start & 3))
			return -EINVAL;
	} else if (cfg->has_v6) {
		uint32_t bits = 128u - cfg->v6_prefix;

		size = cfg->v6_size;
		if (!size)
			size = bits >= 17 ? V6_POOL_MAX
					  : ((1u << bits) > V6_POOL_OFFSET ? (1u << bits) - V6_POOL_OFFSET : 0);
		if (size > V6_POOL_MAX)
			size = V6_POOL_MAX;
	}
	if (!size)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->e = calloc(size, sizeof(*p->e));
	if (!p->e) {
		free(p);
		return -ENOMEM;
	}
	p->cfg = *cfg;
	p->size = size;
	*out = p;
	return 0;
}

void braid_pool_free(struct braid_pool *p)
{
	if (!p)
		return;
	for (uint32_t i = 0; i < p->size; i++)
		free(p->e[i].cn);
	free(p->e);
	free(p);
}

uint32_t braid_pool_size(const struct braid_pool *p)
{
	return p->size;
}

uint32_t braid_pool_in_use(const struct braid_pool *p)
{
	return p->in_use;
}

static int set_cn(struct entry *e, const char *cn)
{
	char *c = NULL;

	if (cn && *cn) {
		c = strdup(cn);
		if (!c)
			return -ENOMEM;
	}
	free(e->cn);
	e->cn = c;
	return 0;
}

int braid_pool_acquire(struct braid_pool *p, const char *cn, uint32_t *handle)
{
	uint32_t i, pick = UINT32_MAX;
	bool named = cn && *cn && !p->cfg.duplicate_cn;
	int r;

	if (named)
		for (i = 0; i < p->size; i++)
			if (!p->e[i].in_use && p->e[i].cn && !strcmp(p->e[i].cn, cn)) {
				pick = i;
				break;
			}
	if (pick == UINT32_MAX)
		for (i = 0; i < p->size; i++)
			if (!p->e[i].in_use && !p->e[i].cn) {
				pick = i;
				break;
			}
	if (pick == UINT32_MAX)
		for (i = 0; i < p->size; i++)
			if (!p->e[i].in_use) {
				pick = i;
				break;
			}
	if (pick == UINT32_MAX)
		return -ENOSPC;
	r = set_cn(&p->e[pick], named ? cn : NULL);
	if (r)
		return r;
	p->e[pick].in_use = true;
	p->in_use++;
	*handle = pick;
	return 0;
}

void braid_pool_release(struct braid_pool *p, uint32_t handle)
{
	if (handle >= p->size || !p->e[handle].in_use)
		return;
	p->e[handle].in_use = false;
	p->in_use--;
}

int braid_pool_addr4(const struct braid_pool *p, uint32_t handle, uint32_t *local,
		     uint32_t *remote_or_mask)
{
	if (!p->cfg.has_v4)
		return -ENOENT;
	if (handle >= p->size)
		return -ERANGE;
	if (p->cfg.topo == BRAID_POOL_NET30) {
		uint32_t b = p->cfg.v4_start + 4 * handle;

		*local = b + 2;
		*remote_or_mask = b + 1;
	} else {
		*local = p->cfg.v4_start + handle;
		*remote_or_mask = p->cfg.v4_netmask;
	}
	return 0;
}

int braid_pool_addr6(const struct braid_pool *p, uint32_t handle, struct in6_addr *a,
		     uint8_t *prefix)
{
	if (!p->cfg.has_v6)
		return -ENOENT;
	if (handle >= p->size)
		return -ERANGE;
	*a = p->cfg.v6_base;
	v6_add(a, handle);
	if (prefix)
		*prefix = p->cfg.v6_prefix;
	return 0;
}

int braid_pool_find4(const struct braid_pool *p, uint32_t addr, uint32_t *handle)
{
	uint32_t off;

	if (!p->cfg.has_v4 || addr < p->cfg.v4_start)
		return -ENOENT;
	off = addr - p->cfg.v4_start;
	if (p->cfg.topo == BRAID_POOL_NET30) {
		if ((off & 3) != 2)
			return -ENOENT;
		off /= 4;
	}
	if (off >= p->size)
		return -ENOENT;
	*handle = off;
	return 0;
}

static int find6(const struct braid_pool *p, const struct in6_addr *a, uint32_t *handle)
{
	uint32_t off;

	if (!p->cfg.has_v6 || v6_diff(a, &p->cfg.v6_base, &off) || off >= p->size)
		return -ENOENT;
	*handle = off;
	return 0;
}

int braid_pool_persist_load(struct braid_pool *p, const char *path, unsigned *skipped)
{
	FILE *f = fopen(path, "re");
	char line[CN_MAX + 128];
	unsigned skip = 0;
	int r = 0;

	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (fgets(line, sizeof(line), f)) {
		char *cn, *a4, *a6;
		uint32_t h = UINT32_MAX, h6;
		struct in_addr in4;
		struct in6_addr in6;

		line[strcspn(line, "\r\n")] = 0;
		if (!line[0])
			continue;
		cn = line;
		a4 = strchr(cn, ',');
		if (!a4 || a4 == cn) {
			skip++;
			continue;
		}
		*a4++ = 0;
		a6 = strchr(a4, ',');
		if (a6)
			*a6++ = 0;
		if (*a4) {
			if (inet_pton(AF_INET, a4, &in4) != 1 ||
			    braid_pool_find4(p, ntohl(in4.s_addr), &h)) {
				skip++;
				continue;
			}
		}
		if (a6 && *a6) {
			if (inet_pton(AF_INET6, a6, &in6) != 1 || find6(p, &in6, &h6) ||
			    (h != UINT32_MAX && h != h6)) {
				skip++;
				continue;
			}
			h = h6;
		}
		if (h == UINT32_MAX || p->e[h].in_use || p->e[h].cn) {
			skip++;
			continue;
		}
		r = set_cn(&p->e[h], cn);
		if (r)
			break;
	}
	if (!r && ferror(f))
		r = -EIO;
	fclose(f);
	if (skipped)
		*skipped = skip;
	return r;
}

int braid_pool_persist_save(const struct braid_pool *p, const char *path)
{
	struct braid_statfile sf;
	FILE *f;
	int r = braid_statfile_open(&sf, path);	/* FILE.tmp + rename, or in place */

	if (r)
		return r;
	f = sf.f;
	for (uint32_t i = 0; i < p->size; i++) {
		char s4[INET_ADDRSTRLEN] = "", s6[INET6_ADDRSTRLEN] = "";
		uint32_t l, m;
		struct in6_addr a6;

		if (!p->e[i].cn)
			continue;
		if (!braid_pool_addr4(p, i, &l, &m)) {
			struct in_addr in = { .s_addr = htonl(l) };

			inet_ntop(AF_INET, &in, s4, sizeof(s4));
		}
		if (!braid_pool_addr6(p, i, &a6, NULL))
			inet_ntop(AF_INET6, &a6, s6, sizeof(s6));
		fprintf(f, "%s,%s,%s\n", p->e[i].cn, s4, s6);
	}
	return braid_statfile_commit(&sf, 0);
}
