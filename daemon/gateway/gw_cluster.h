/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_cluster.h - the gateway's side of many gateways behind one address
 * (gw_cluster.c, cluster/cluster.h): start/stop of the membership, the
 * peer-ids on the wire (gateway id in the high bits), pool entries claimed
 * in etcd before they are handed out.
 */
#ifndef BRAID_GW_CLUSTER_H
#define BRAID_GW_CLUSTER_H

#include <stdint.h>

#include "gateway/gw_types.h"

/* With cluster-etcd: join (blocking, before the loop runs). 0 without. -errno. */
int braid_gw_cluster_start(struct braid_gateway *g);
/* Worker x's own handle on worker 0's (g's) membership, x's loop made (no-op without cluster-etcd). */
int braid_gw_cluster_attach(struct braid_gateway *x, const struct braid_gateway *g);
/* Cancel this worker's clients' requests, free its handle (worker 0's also revokes the lease). */
void braid_gw_cluster_stop(struct braid_gateway *g);

/* The peer-id a client gets on the wire: the gateway id << 16 | its local index. */
static inline uint32_t braid_gw_wire_pid(const struct gw_client *c)
{
	return c->g->pid_base | c->pid;
}

/* The local index of a peer-id from the wire, or UINT32_MAX if it is not one of ours. */
static inline uint32_t braid_gw_local_pid(const struct braid_gateway *g, uint32_t wire)
{
	if ((wire & ~(uint32_t)0xffff) != g->pid_base && g->pid_base)
		return UINT32_MAX;
	return wire - g->pid_base;
}

/*
 * The continuation of a client's connect after a request to etcd: r 0 (go on) or -errno with why (a reason
 * for auth_fail). While one is under way c->cop is set (braid_gw_cluster_cancel stops it).
 */
typedef void (*braid_gw_cluster_k)(struct gw_client *c, int r, const char *why);

/*
 * braid_pool_acquire into c->pool_h (c->has_pool) with, when clustered, the
 * entry's address claimed in etcd first: an entry another gateway holds is
 * kept aside (tried again when the pool runs out) and the next one taken.
 * 0 (taken now: not clustered), -EINPROGRESS (clustered: k() comes from the
 * loop), -ENOSPC, -errno.
 */
int braid_gw_pool_take(struct gw_client *c, braid_gw_cluster_k k);
/*
 * At a client's connect, when clustered: its certificate serial checked
 * against PREFIX revoked/, then PREFIX ccd/CN read into c->ccd when the
 * entry exists (it takes the place of a client-config-dir file). 0 (not
 * clustered: nothing to ask), -EINPROGRESS (k() comes from the loop with
 * -EACCES if revoked, -errno if etcd is not reachable or the entry does not
 * parse), -errno at once with *why.
 */
int braid_gw_cluster_client(struct gw_client *c, braid_gw_cluster_k k, const char **why);
/* The client goes: stop its request under way (an entry being claimed goes back to the pool). */
void braid_gw_cluster_cancel(struct gw_client *c);

/* SIGUSR2 and exit: the cluster counters (nothing when not clustered). */
void braid_gw_cluster_log(const struct braid_gateway *g);

/* braid_pool_release, and the claim given back. */
void braid_gw_pool_give(struct braid_gateway *g, uint32_t handle);

#endif /* BRAID_GW_CLUSTER_H */
