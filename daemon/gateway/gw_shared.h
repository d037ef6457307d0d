/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_shared.h - what the gateway's worker threads share (`workers N`, issue
 * 16 item 1, docs/scaling.md "Workers") and the few locks around it; the
 * threads' set-up is gw_workers.h.
 *
 * Each worker is a struct braid_gateway of its own (its libev loop, its UDP
 * socket from the SO_REUSEPORT group that bpf/reuseport_peerid.bpf.c steers
 * by peer-id, its TUN queue, its source-address table, buffers, counters,
 * scripts). Worker 0 is the gateway set up by braid_gateway_new(): it also
 * owns the signals, management, the status files and the pool's persistence.
 * Worker w creates its sessions with peer-ids i, i % N == w
 * (braid_gw_worker_of), so every path of a session reaches it.
 *
 * Shared, read on the data path: the inner routing table (g->routes of worker
 * 0), under a reader-writer lock taken around each lookup (writes at
 * connect/disconnect only). Shared off it: the address pool (a mutex), the
 * client ids (an atomic), the peer-id table (each slot written by its owner).
 * An inner packet or a client-to-client packet for a session of another
 * worker is handed over through a gw_xq ring (one per ordered pair of workers).
 *
 * Worker 0 reads or acts on another worker's clients (status, management,
 * SIGUSR2) only while it holds that worker's loop lock: each worker holds
 * its own lock except while it waits in epoll (libev's release / acquire
 * callbacks), so the lock is free within one loop iteration. Only worker 0
 * takes other workers' locks, and nothing is held while taking one: no
 * deadlock.
 *
 * With one worker (the default) g->wk is NULL and every helper here is a no-op.
 */
#ifndef BRAID_GATEWAY_GW_SHARED_H
#define BRAID_GATEWAY_GW_SHARED_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>

#include "gateway/gw_addrset.h"
#include "gateway/gw_reuseport.h"
#include "gateway/gw_types.h"
#include "gateway/gw_xq.h"

#define GW_XQ_SLOTS 512	/* per ordered pair of workers, each slot tun-mtu + 1 bytes */
/* a ring message: one type byte, then the payload */
enum { GW_XQ_INNER = 1,		/* an inner IP packet for a client of the consumer (route again there) */
       GW_XQ_DROP_CN = 2,	/* drop the consumer's clients with this common name (no duplicate-cn) */
       GW_XQ_LINK = 3 };	/* a datagram from an address this worker has no client for (sockaddr, packet) */
#define GW_XQ_LINK_PER_S 1000	/* datagrams a worker hands over per second (the rest: rejected as before) */

struct gw_worker {
	struct braid_gateway *g;
	pthread_t th;
	bool started;
	pthread_mutex_t lk;		/* held by the worker except while it polls */
	ev_async wake;			/* another thread changed its loop, or stop */
	ev_io *q_r;			/* one watcher per incoming ring (n of them; [self] unused) */
};

struct gw_workers {
	unsigned n;
	struct gw_worker w[BRAID_GW_MAX_WORKERS];
	struct braid_gw_xq *q;		/* n * n rings: q[from * n + to] */
	int sock_fd[BRAID_GW_MAX_WORKERS], tun_fd[BRAID_GW_MAX_WORKERS];
	struct braid_gw_reuseport *rp;
	bool keep;			/* SIGHUP: the socket group outlives this gateway (gw_workers.c) */
	pthread_rwlock_t rt_lk;		/* worker 0's g->routes */
	pthread_mutex_t pool_lk;	/* worker 0's g->pool (and the persisted file) */
	_Atomic unsigned long next_cid;
	_Atomic unsigned long clients;	/* every worker's clients: max-clients is one limit for all */
	pthread_mutex_t cf_lk;		/* worker 0's connect-freq(-initial) windows, one for all */
	pthread_mutex_t rej_lk;		/* worker 0's rejection log windows (g->rej.share), one for all */
	ev_async w0_a;			/* worker 0: log lines and management events from the others */
	pthread_mutex_t ev_lk;		/* ev_head: management events of other workers' clients */
	struct gw_mgmt_msg *ev_head, **ev_tail;
	pthread_mutex_t addr_lk;	/* addrs: every worker's UDP client addresses (the float check) */
	struct braid_gw_addrset addrs;	/* address -> (client, its worker) */
	_Atomic bool stop;
	unsigned all_depth;		/* worker 0: nested braid_gw_lock_all */
	bool held_iter;			/* worker 0 holds the others until its loop iteration ends */
	ev_prepare held_p;		/* ... released here (before worker 0 polls again) */
};

/* The routing table every worker reads (worker 0's). */
static inline struct braid_vroute *braid_gw_routes(struct braid_gateway *g)
{
	return g->wk ? &g->wk->w[0].g->routes : &g->routes;
}

static inline void braid_gw_rt_rd(struct braid_gateway *g)
{
	if (g->wk)
		pthread_rwlock_rdlock(&g->wk->rt_lk);
}

static inline void braid_gw_rt_wr(struct braid_gateway *g)
{
	if (g->wk)
		pthread_rwlock_wrlock(&g->wk->rt_lk);
}

static inline void braid_gw_rt_unlock(struct braid_gateway *g)
{
	if (g->wk)
		pthread_rwlock_unlock(&g->wk->rt_lk);
}

static inline void braid_gw_pool_lock(struct braid_gateway *g)
{
	if (g->wk)
		pthread_mutex_lock(&g->wk->pool_lk);
}

static inline void braid_gw_pool_unlock(struct braid_gateway *g)
{
	if (g->wk)
		pthread_mutex_unlock(&g->wk->pool_lk);
}

/* Number of workers (1 without threads) and this worker's index. */
static inline unsigned braid_gw_nw(const struct braid_gateway *g)
{
	return g->wk ? g->wk->n : 1;
}

/* Does this worker own local peer-id index pid? */
static inline bool braid_gw_mine(const struct braid_gateway *g, uint32_t pid)
{
	return !g->wk || pid % g->wk->n == g->widx;
}

/*
 * Worker 0 only: take every other worker's loop lock (nests: only the outermost call locks)
 * before walking or touching all clients; unlock wakes them so they see timers started or
 * watchers stopped meanwhile.
 */
void braid_gw_lock_all(const struct braid_gateway *g);
void braid_gw_unlock_all(const struct braid_gateway *g);
/*
 * Worker 0 only: take the other workers' loop locks until the end of this loop iteration (for
 * results that point into their clients and are used after the callback that asked for them:
 * the management's `braid clients` rows, the multipath data path a `braid` command acts on).
 */
void braid_gw_hold_iteration(const struct braid_gateway *g);
/* Gives back what braid_gw_hold_iteration took (its prepare watcher; the workers' stop). */
void braid_gw_hold_release(const struct braid_gateway *g);

/* Hands a message (type, payload) to worker `to` (kicked at once). 0 or -errno (counted). */
int braid_gw_xq_send(struct braid_gateway *g, unsigned to, uint8_t type, const void *p, size_t len);
/*
 * A control or DATA_V1 datagram from an address without a client here: after a float (or from a
 * multipath client's other path) the 4-tuple hash may bring it to a worker other than the session's.
 * Offered to every other worker, which takes it if the address is one of its clients'. At most
 * GW_XQ_LINK_PER_S per second. True when handed over.
 */
bool braid_gw_link_handover(struct braid_gateway *g, const uint8_t *pkt, size_t len,
			    const union braid_sockaddr *from);

/*
 * connect-freq-initial N S: may a stateless reply to a first packet go out now? One window for
 * all workers (worker 0's g->cfi_*, under a mutex); counted and logged (once per window) if not.
 */
bool braid_gw_cfi_allow(struct braid_gateway *g);
/*
 * connect-freq N S: take one of the window's new sessions (one window for all workers, worker 0's
 * g->cf_*), false when none is left (counted); braid_gw_cf_give returns one a refused session took.
 */
bool braid_gw_cf_take(struct braid_gateway *g);
void braid_gw_cf_give(struct braid_gateway *g);
/*
 * Worker 0 only: every worker's socket read (on) or not (management-hold, a restart pending), as
 * ev_io_start / ev_io_stop of g->sock_r do with one worker.
 */
void braid_gw_sock_all(struct braid_gateway *g, bool on);
/*
 * Worker 0 only: the other workers see worker 0's management interface (g->mg) or none. They
 * only read its settings (client-auth); their client events go to worker 0 (gw_mgmt_ev.c).
 */
void braid_gw_share_mg(struct braid_gateway *g);

/*
 * Every worker's UDP client addresses (`workers N`; no-ops with one worker): a float onto an address
 * a client of another worker holds is refused (braid_gw_addr_elsewhere), as onto a client's of this
 * worker with another certificate (2.6). Kept by braid_gw_addr_insert / _remove (gw_table.c).
 */
void braid_gw_addr_share(struct braid_gateway *g, const struct gw_client *c, bool add);
bool braid_gw_addr_elsewhere(struct braid_gateway *g, const union braid_sockaddr *a);

/* All workers' counters summed (rj: BRAID_REJ__COUNT). */
void braid_gw_workers_sum(const struct braid_gateway *g, struct braid_gateway_stats *st, uint64_t *rj);
/* `"workers":[{...},...],` in the status JSON (nothing with one worker). */
void braid_gw_workers_json(const struct braid_gateway *g, FILE *f);
/* One log line per worker (sessions, packets, steering, hand-overs). */
void braid_gw_workers_log(const struct braid_gateway *g);

#endif /* BRAID_GATEWAY_GW_SHARED_H */
