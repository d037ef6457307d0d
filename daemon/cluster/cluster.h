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
/*
 * Another worker thread's handle on the same membership (same lease and id):
 * its requests run on loop, its counters are its own; the only state it
 * shares with home is the "lease gone" flag (atomic). home must outlive it.
 * 0 or -ENOMEM.
 */
int braid_cluster_attach(struct braid_cluster *home, struct ev_loop *loop,
			 struct braid_cluster **out);
/*
 * Cancel the requests under way and free. The home handle (braid_cluster_start's)
 * also revokes the lease (the id and the addresses are free at once). NULL: no-op.
 */
void braid_cluster_stop(struct braid_cluster *c);

unsigned braid_cluster_gw_id(const struct braid_cluster *c);
/* id << BRAID_CLUSTER_LOCAL_BITS: OR it into each local peer-id. */
uint32_t braid_cluster_pid_base(const struct braid_cluster *c);

/*
 * The requests of a client's connect and disconnect do not block: each runs
 * from the loop (at most CALL_MS, 1 s) and ends in one call of its done()
 * (unless cancelled). A struct braid_cluster_op is one such request under
 * way; its owner cancels it when the client goes first.
 */
struct braid_cluster_op;

/* What a connecting client's entries say (valid during the callback only). */
struct braid_cluster_entries {
	bool revoked;		/* PREFIX revoked/SERIAL exists (counted, logged with its text) */
	const char *ccd;	/* PREFIX ccd/CN's text, NUL-terminated; NULL: no entry */
};
/* r: 0 (e says what was found), -EMSGSIZE (the ccd entry is too large), -errno (etcd not reachable). */
typedef void (*braid_cluster_lookup_done)(void *arg, int r, const struct braid_cluster_entries *e);
/*
 * PREFIX revoked/SERIAL (serial decimal, as tls_serial_0; NULL or "": not
 * asked), then, unless revoked, PREFIX ccd/CN (cn NULL or "": not asked).
 * A connect asks both; a live reload asks each connected client's serial.
 * 0 and *op (done() comes later), -ENODATA (nothing to ask), -errno at once.
 */
int braid_cluster_lookup(struct braid_cluster *c, const char *serial, const char *cn,
			 braid_cluster_lookup_done done, void *arg, struct braid_cluster_op **op);

/* r: 0 (the address is ours now), -EEXIST (another gateway holds it: take the next one), -errno. */
typedef void (*braid_cluster_claim_done)(void *arg, int r);
/* Claim a client address (text form) under the lease. 0 and *op, or -errno at once. */
int braid_cluster_claim(struct braid_cluster *c, const char *addr, braid_cluster_claim_done done,
			void *arg, struct braid_cluster_op **op);
/* Stop a request under way; done() is not called. NULL: no-op. */
void braid_cluster_op_cancel(struct braid_cluster_op *op);

/* Give an address back, in the background (a failure is logged; the lease frees it when we die). */
void braid_cluster_release(struct braid_cluster *c, const char *addr);

/* Add c's counters to *st (a gateway with workers sums its handles'). */
void braid_cluster_add_stats(const struct braid_cluster *c, struct braid_cluster_stats *st);

#endif /* BRAID_CLUSTER_H */
