/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pool.h - the gateway's client address pool (`server`, `server-ipv6`,
 * `ifconfig-pool`, `ifconfig-pool-persist`), as OpenVPN 2.6 hands it out.
 *
 * `server NET MASK` (helper.c), tun device:
 *   topology subnet: gateway NET+1/MASK, pool NET+2 .. BROADCAST-1, one
 *                    address per client; pushed `ifconfig ADDR MASK`.
 *                    (/24: base NET+2, size 253)
 *   topology net30:  gateway NET+1 (peer NET+2), pool NET+4 .. BROADCAST-4
 *                    in /30 blocks B: client B+2, its peer B+1; pushed
 *                    `ifconfig B+2 B+1`. (/24: base NET+4, size 62)
 * `server-ipv6 NET/BITS`: gateway NET+1, pool base NET+0x1000; entry i has
 *   v6 base+i. With a v4 pool the v6 pool has the v4 pool's size (entries
 *   are pairs), else min(2^(128-BITS) - 0x1000, 65536).
 *
 * Entries are numbered 0..size-1 (handles). acquire() prefers the entry this
 * common name had before (persist file or an earlier connection), then the
 * lowest entry no name has used, then the lowest free one. With
 * duplicate-cn the name is not remembered (OpenVPN: no per-CN reuse).
 *
 * Persist file (2.6 format): one line per remembered entry,
 *   "CN,IPv4,IPv6" (either address may be empty), written atomically.
 */
#ifndef BRAID_POOL_H
#define BRAID_POOL_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum braid_pool_topo { BRAID_POOL_SUBNET, BRAID_POOL_NET30 };

struct braid_pool_config {
	bool has_v4;
	enum braid_pool_topo topo;
	uint32_t v4_start, v4_end;	/* host byte order, inclusive */
	uint32_t v4_netmask;		/* subnet: pushed with ifconfig */
	bool has_v6;
	struct in6_addr v6_base;
	uint8_t v6_prefix;		/* pushed with ifconfig-ipv6 */
	uint32_t v6_size;		/* only without v4 (0: derived from prefix) */
	bool duplicate_cn;
};

/*
 * Fill cfg from `server NET MASK` / `server-ipv6 NET/BITS` as 2.6's helper
 * does (either part may be absent: has_v4/has_v6 false). gw4/gw6 get the
 * gateway's own tunnel addresses. -EINVAL with why (bad mask, too small).
 */
int braid_pool_config_server(struct braid_pool_config *cfg, bool v4, uint32_t net, uint32_t mask,
			     enum braid_pool_topo topo, bool v6, const struct in6_addr *net6,
			     uint8_t bits6, uint32_t *gw4, struct in6_addr *gw6, const char **why);

struct braid_pool;

/* -EINVAL (empty or reversed range, nothing to hand out), -ENOMEM. */
int braid_pool_new(struct braid_pool **out, const struct braid_pool_config *cfg);
void braid_pool_free(struct braid_pool *p);

uint32_t braid_pool_size(const struct braid_pool *p);
uint32_t braid_pool_in_use(const struct braid_pool *p);

/* Take an entry for common name cn (may be NULL/""). *handle = index. -ENOSPC (pool full). */
int braid_pool_acquire(struct braid_pool *p, const char *cn, uint32_t *handle);
/* Give it back (the name stays remembered unless duplicate-cn). Unknown/free handle: no-op. */
void braid_pool_release(struct braid_pool *p, uint32_t handle);

/*
 * Addresses of an entry (host byte order for v4):
 *   subnet: *local = client address, *remote_or_mask = netmask
 *   net30:  *local = client address (B+2), *remote_or_mask = its peer (B+1)
 * -ENOENT (no v4/v6 pool), -ERANGE (bad handle).
 */
int braid_pool_addr4(const struct braid_pool *p, uint32_t handle, uint32_t *local,
		     uint32_t *remote_or_mask);
int braid_pool_addr6(const struct braid_pool *p, uint32_t handle, struct in6_addr *a,
		     uint8_t *prefix);
/* Handle of the entry containing this client v4 address, -ENOENT. */
int braid_pool_find4(const struct braid_pool *p, uint32_t addr, uint32_t *handle);

/*
 * Load a persist file: each "CN,IPv4[,IPv6]" line whose address lies in the
 * pool reserves that entry for CN (free, remembered). Unparsable lines and
 * addresses outside the pool are skipped and counted in *skipped.
 * A missing file is not an error (0). -errno on read errors.
 */
int braid_pool_persist_load(struct braid_pool *p, const char *path, unsigned *skipped);
/* Write every remembered entry (in use or not), atomically (path.tmp + rename). */
int braid_pool_persist_save(const struct braid_pool *p, const char *path);

#endif /* BRAID_POOL_H */
