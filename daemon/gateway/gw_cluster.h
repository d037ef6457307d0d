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
 * braid_pool_acquire with, when clustered, the entry's address claimed in
 * etcd: an entry another gateway holds is kept aside (tried again when the
 * pool runs out) and the next one taken. -ENOSPC, -errno (etcd unreachable).
 */
int braid_gw_pool_take(struct braid_gateway *g, const char *cn, uint32_t *handle);
/*
 * At a client's connect, when clustered: its certificate serial checked
 * against PREFIX revoked/ (-EACCES if revoked), then PREFIX ccd/CN read into
 * c->ccd when the entry exists (it takes the place of a client-config-dir
 * file). 0; -errno with *why set for auth_fail (etcd not reachable, a ccd
 * entry that does not parse: logged with its line).
 */
int braid_gw_cluster_client(struct gw_client *c, const char **why);

/* SIGUSR2 and exit: the cluster counters (nothing when not clustered). */
void braid_gw_cluster_log(const struct braid_gateway *g);

/* braid_pool_release, and the claim given back. */
void braid_gw_pool_give(struct braid_gateway *g, uint32_t handle);

#endif /* BRAID_GW_CLUSTER_H */
