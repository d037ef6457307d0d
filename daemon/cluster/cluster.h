/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cluster.h - a gateway's membership in a group of gateways behind one
 * address (cluster.c; docs/scaling.md): its gateway id leased in etcd, the
 * lease kept alive from the event loop, and each client address it hands
 * out claimed in etcd under that lease so no two gateways give out one
 * address. The lease expires when the gateway dies: its id and addresses
 * are free again after cluster-ttl seconds.
 *
 * Keys (under cluster-prefix, default "braid/"):
 *   PREFIX gw/ID      = "HOSTNAME pid PID"     (ID 1..254)
 *   PREFIX addr/ADDR  = "gw ID"                 (ADDR the client's v4 or v6 address)
 * and, written by the operator (etcdctl put), read by every gateway:
 *   PREFIX revoked/SERIAL = any text (a reason)  (SERIAL decimal, as tls_serial_0)
 *   PREFIX ccd/CN         = a client-config-dir file's text (at most
 *                           BRAID_CLUSTER_CCD_MAX bytes)
 */
#ifndef BRAID_CLUSTER_H
#define BRAID_CLUSTER_H

#include <ev.h>
#include <stdbool.h>
#include <stdint.h>

#include "config/options.h"

#define BRAID_CLUSTER_GW_MAX 254	/* ids 1..254: peer-id 0xFFFFFF stays "none" */
#define BRAID_CLUSTER_LOCAL_BITS 16	/* peer-id = id << 16 | local index */
#define BRAID_CLUSTER_CCD_MAX 8192	/* a ccd entry's text (etcd replies are read into 16 KiB) */

struct braid_cluster;

struct braid_cluster_stats {
	unsigned long long keepalives, keepalive_fail;
	unsigned long long claims, claim_taken, claim_fail, releases;
	unsigned long long revoked, ccd_read, read_fail;	/* refusals by revoked/, ccd/ entries used */
};

/*
 * Blocking (before the loop runs): grant the lease, take the lowest free
 * gateway id, start the keepalive. lost() is called from the loop when the
 * lease is gone (expired or revoked): the gateway must stop, its id and
 * addresses may already be someone else's. -errno with a logged reason.
 */
int braid_cluster_start(struct braid_cluster **out, struct ev_loop *loop,
			const struct braid_options *o, void (*lost)(void *), void *arg);
/* Revoke the lease (the id and the addresses are free at once), free. NULL: no-op. */
void braid_cluster_stop(struct braid_cluster *c);

unsigned braid_cluster_gw_id(const struct braid_cluster *c);
/* id << BRAID_CLUSTER_LOCAL_BITS: OR it into each local peer-id. */
uint32_t braid_cluster_pid_base(const struct braid_cluster *c);

/*
 * Claim a client address (text form) under the lease: 0 (ours now),
 * -EEXIST (another gateway holds it: take the next one), -errno (etcd not
 * reachable: the caller refuses the client rather than risk a conflict).
 */
int braid_cluster_claim(struct braid_cluster *c, const char *addr);
/* Give it back (a failure is logged; the lease frees it when we die). */
void braid_cluster_release(struct braid_cluster *c, const char *addr);

/*
 * Is the certificate serial (decimal) under PREFIX revoked/? 0 no, 1 yes
 * (counted, logged with the entry's text), -errno (etcd not reachable: the
 * caller refuses the client, as a CRL it cannot read).
 */
int braid_cluster_revoked(struct braid_cluster *c, const char *serial);
/*
 * The ccd entry of a common name: 0 and *found (text NUL-terminated in
 * buf[0..cap)), -EMSGSIZE (larger than cap - 1), -errno.
 */
int braid_cluster_ccd(struct braid_cluster *c, const char *cn, char *buf, size_t cap, bool *found);

void braid_cluster_get_stats(const struct braid_cluster *c, struct braid_cluster_stats *st);

#endif /* BRAID_CLUSTER_H */
