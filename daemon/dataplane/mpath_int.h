/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mpath_int.h - the state of the multipath data plane, shared by its files
 * (mpath.c set-up and accessors, mpath_sock.c sockets and paths,
 * mpath_engine.c the engine pump, mpath_tx.c TUN reads, mpath_rx.c socket
 * reads, mpath_link.c link events and timers): the struct, its buffers and
 * pools, the engine's clock. Includes nothing of the mpath family but
 * mpath_types.h. Not for users of the data plane (they include mpath.h).
 */
#ifndef BRAID_MPATH_INT_H
#define BRAID_MPATH_INT_H

#include <ev.h>
#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>

#include "config/options.h"
#include "dc/dc.h"
#include "mp/mp.h"
#include "mp/mp_wnames.h"
#include "os/sock.h"
#include "os/tun.h"
#include "dataplane/mpath_types.h"
#include "dataplane/mssfix.h"
#include "dataplane/tunstats.h"

#define MAX_SOCKS BRAID_OPT_MAX_MP_PATHS
#define MAX_EPS BRAID_MP_MAX_PATHS
#define RX_BATCH 32
#define RX_ROUNDS 8
#define RX_REORDER_MAX 4096	/* packets the engine may hold for reordering */
#define RX_REORDER_WINDOW 8192
#define RX_BATCH_GRO 8		/* messages per read with GRO (each up to 64 KiB) */
#define TUN_BATCH 64
#define SHARED_QUEUE 2048	/* engine tx pool of a shared-socket session (gateway client) */
#define SHARED_REORDER 2048	/* and its reorder bound */
#define HOUSEKEEP_S 1.0
#define SCAN_DEBOUNCE_S 0.05	/* rtnetlink burst -> one scan of the paths' addresses */
#define RX_EXTRA 256		/* rx buffers beyond the reorder bound */
#define TX_EXTRA 256		/* tx buffers beyond the engine's pool */
#define RX_BUF_GRO 65536	/* an rx buffer with UDP GRO: up to 64 KiB of coalesced datagrams */
#define CTL_WIRE_MAX (BRAID_MP_CTL_MAX + 64)	/* MTU probes are up to the link MTU */

/* A TX packet: plaintext at d + ov, sealed in place into d (kept for re-sends). */
struct tbuf {
	struct tbuf *next;
	uint32_t len;		/* plaintext length */
	uint32_t wlen;		/* sealed length, 0 until sealed */
	uint8_t key_id;
	uint8_t d[];
};

/* An RX payload held by the engine's reorder buffer. */
struct rbuf {
	struct rbuf *next;
	uint32_t len;
	uint8_t d[];
};

struct msock {
	struct braid_mpath *m;
	int fd;			/* -1 while its address or interface is missing (mpath_bind.c) */
	union braid_sockaddr local;	/* as bound (the kernel's port with nobind) */
	const char *cfg_local;		/* the mp-path text, NULL = wildcard or auto */
	bool wildcard;
	bool in_use;		/* slot taken (auto slots are given back when their interface goes) */
	int kind;		/* BRAID_MP_LOCAL_ADDR / _IF / _AUTO (wildcard: _ADDR) */
	char ifname[IF_NAMESIZE];	/* the interface: named, found by auto, or holding the address */
	int ifindex;		/* its index when bound; 0 unknown */
	int family;		/* the family the socket needs */
	uint16_t port;		/* the port to bind (0: the kernel's) */
	bool sends_first;	/* has configured peers: bound to its device (SO_BINDTODEVICE) */
	bool devbound;		/* SO_BINDTODEVICE in effect on fd */
	unsigned int rebinds;	/* sockets re-opened on address/interface changes */
	int bind_err;		/* the last re-bind's error (logged once per change), 0 none */
	unsigned int bind_failures;	/* re-binds that failed (retried) */
	unsigned int route_warnings;	/* a path of it found not to leave through ifname (logged) */
	bool backup;
	uint64_t cap_bps;
	int up;			/* last linkmon answer (1 up, 0 down, -1 unknown) */
	bool gso;		/* UDP GSO accepted (cleared if a send is refused) */
	bool gro;		/* UDP GRO on: a read may hold several datagrams */
	bool shared;		/* the caller's socket (braid_mpath_new_shared): not read, not closed */
	bool disabled;		/* its paths are taken out of use (braid_mpath_path_enable) */
	char *own_local;	/* cfg_local of a path added at run time (malloc'ed), or NULL */
	ev_io r;
};

/* A path's counters that outlive it (mpath_stats.c): totals and interval snapshots. */
struct mpath_ctr {
	uint64_t tx_pkts, tx_bytes, rx_pkts, rx_bytes;	/* engine data (mp stats) */
	uint64_t lost_pkts;
	uint64_t wire_tx_pkts, wire_tx_bytes, wire_rx_pkts, wire_rx_bytes, tx_errors;
};

/* The totals of a path gone (removed, or its engine restarted), for its successor. */
struct mpath_retired {
	bool used;
	int sock;
	char ifname[IF_NAMESIZE];	/* an auto socket's interface (its slot may go to another one) */
	int peer_slot;			/* the peer's slot, -1 unknown */
	union braid_sockaddr peer;
	uint64_t seq;			/* age, for eviction */
	struct mpath_ctr c;
};

struct ep {
	bool used;
	int sock;
	union braid_sockaddr peer;
	bool learned;
	bool configured;
	bool disabled;		/* taken out of use by the operator: held down (braid_mpath_path_enable) */
	uint64_t failed_since_us;
	uint64_t tx_pkts, tx_bytes, rx_pkts, rx_bytes, tx_errors;
	uint32_t mtu_logged;	/* the engine's path MTU last logged */
	char route[72];		/* the kernel's route for this path (mpath_bind.c), "" unchecked */
	bool route_bad;		/* its packets would not leave through the path's interface */
	struct braid_pktinfo local;	/* shared socket: the address its packets come to (or 0) */
	/* mpath_stats.c: carried totals, the interval */
	struct mpath_ctr base;	/* totals of its predecessors (added to the live counters) */
	struct mpath_ctr iv_prev, iv;	/* totals at the interval's start; the last interval */
	uint64_t iv_t0, iv_dt;	/* the current interval's start; the last one's length (us) */
	uint64_t last_rx_us;	/* last authenticated datagram, 0 none */
	bool adopted_slot;	/* a predecessor by peer slot was looked for */
	bool weight_set;	/* mpath_weight.c gave the engine path its own ratio weight */
};

/* A configured (socket, remote) pair, re-added at each restart. */
struct cfgpath {
	int sock;
	union braid_sockaddr peer;
};

struct braid_mpath {
	struct ev_loop *loop;
	const struct braid_options *o;
	struct braid_dc *dc;
	const struct braid_mssfix *mss;
	struct braid_tunnel_stats *tst;
	struct braid_mpath_hooks h;
	const struct braid_pktinfo *shared_local;	/* the shared socket's current rx local address */

	struct braid_mp_config cfg;
	struct braid_mp *mp;
	enum braid_mp_sched sched;
	char sched_name[BRAID_OPT_MP_SCHED_LEN];	/* in use: config, then `set scheduler` */
	struct braid_mp_wnames wn;	/* ratio weights by path name (mpath_weight.c) */
	bool wn_named;			/* the named form: paths not in wn get 0 */

	struct msock sock[MAX_SOCKS];
	int n_sock;
	struct ep ep[MAX_EPS];
	struct cfgpath cfgp[MAX_EPS];
	int n_cfgp;
	uint64_t next_key;
	char name[64];			/* log prefix ("" or "client/addr: ") */
	bool shared;			/* braid_mpath_new_shared: the caller's socket */

	/* key generations (engine packet-id = generation << 32 | dc packet-id) */
	uint32_t gen_cur;		/* newest generation seen on tx or rx */

	int nl_fd;
	ev_io nl_r;
	ev_timer scan_t;		/* debounce of rtnetlink messages (mpath_link.c) */
	bool io_on;			/* socket watchers started (later sockets start their own) */
	int auto_line;			/* index of the `mp-path auto` line, -1 none */
	int auto_family;
	union braid_sockaddr auto_peer[BRAID_OPT_MAX_MP_PATHS];	/* its remotes, resolved at start */
	int n_auto_peer;
	bool bind_retry;		/* a socket could not be bound: scan again at housekeeping */
	ev_timer engine_t, housekeep_t;

	/* pools */
	size_t tsize, rsize, ov;
	uint8_t *tmem, *rmem;	/* reserved, touched on demand (mpath_pool.c) */
	uint32_t tcount, rcount;
	uint32_t tcarved, rcarved;	/* buffers ever handed out since the last trim */
	uint32_t tfree_n, rfree_n;	/* of them on the free lists */
	unsigned trim_tick;		/* housekeeping ticks since the engine's last trim */
	struct tbuf *tfree;
	struct rbuf *rfree;
	bool have_spare;	/* a reserved packet-id the engine refused, used next */
	uint8_t spare_kid;
	uint32_t spare_pid;

	/* RX batch */
	uint8_t *rxbuf;
	size_t rxbs;		/* bytes per rx buffer */
	struct mmsghdr rxmsg[RX_BATCH];
	struct iovec rxiov[RX_BATCH];
	union braid_sockaddr rxaddr[RX_BATCH];
	union {
		struct cmsghdr align;
		uint8_t b[CMSG_SPACE(sizeof(struct timespec)) + BRAID_SOCK_GRO_CMSG];
	} rxctl[RX_BATCH];

	/* TX batch: datagrams of one pump, sent together (sendmmsg, UDP GSO) */
	struct braid_txbatch txb;
	int txb_path[BRAID_TXB_MAX];
	uint8_t *txctl;		/* sealed control packets of the batch, CTL_WIRE_MAX each (mpath_pool.c) */
	unsigned int txctl_n;

	/* TUN with offloads (braid_mpath_attach_tun): super-packet reads, coalesced writes */
	int tun_fd;
	bool tun_vnet;
	uint8_t *tunrd;			/* one read: vnet header + up to 64 KiB */
	struct braid_tun_gro *gro;	/* IP payloads delivered in one pump */

	bool sent_any;
	uint32_t tunnel_mtu_logged;
	uint64_t last_now;	/* latest time given to the engine: it never goes back */
	struct braid_mpath_stats st;
	ev_tstamp last_err_log;
	struct mpath_retired retired[MAX_EPS];	/* mpath_stats.c */
	uint64_t retired_seq;
};

/* ---- the engine's clock ---- */

static inline uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static inline uint64_t mnow(struct braid_mpath *m)
{
	uint64_t t = now_us();

	if (t > m->last_now)
		m->last_now = t;
	return m->last_now;
}

/* An arrival time for the engine: not before the last time it was given. */
static inline uint64_t rx_clamp(struct braid_mpath *m, uint64_t t)
{
	if (t < m->last_now)
		return m->last_now;
	m->last_now = t;
	return t;
}

/* ---- pools (mpath_pool.c): the free list first, else the next buffer never used ---- */

static inline struct tbuf *tget(struct braid_mpath *m)
{
	struct tbuf *b = m->tfree;

	if (b) {
		m->tfree = b->next;
		m->tfree_n--;
	} else if (m->tcarved < m->tcount) {
		b = (struct tbuf *)(m->tmem + (size_t)m->tcarved++ * m->tsize);
	}
	return b;
}

static inline void tput(struct braid_mpath *m, struct tbuf *b)
{
	b->next = m->tfree;
	m->tfree = b;
	m->tfree_n++;
}

static inline struct rbuf *rget(struct braid_mpath *m)
{
	struct rbuf *b = m->rfree;

	if (b) {
		m->rfree = b->next;
		m->rfree_n--;
	} else if (m->rcarved < m->rcount) {
		b = (struct rbuf *)(m->rmem + (size_t)m->rcarved++ * m->rsize);
	}
	return b;
}

static inline void rput(struct braid_mpath *m, struct rbuf *b)
{
	b->next = m->rfree;
	m->rfree = b;
	m->rfree_n++;
}

#endif /* BRAID_MPATH_INT_H */
