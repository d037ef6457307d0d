/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tunnel_int.h - the state of one point-to-point tunnel, shared by its files
 * (tunnel.c set-up, run loop, restart and teardown; tunnel_io.c the
 * single-path I/O and the multipath hooks; tunnel_keepalive.c keepalive
 * timer and signals). Includes nothing of the tunnel family.
 */
#ifndef BRAID_TUNNEL_INT_H
#define BRAID_TUNNEL_INT_H

#include <ev.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "config/options.h"
#include "dc/dc.h"
#include "dc/static_key.h"
#include "os/sock.h"
#include "os/tun.h"
#include "session/reject.h"
#include "dataplane/backend.h"
#include "dataplane/mssfix.h"
#include "dataplane/pathset.h"
#include "dataplane/tunstats.h"

#define BATCH 32
#define BUF_SIZE (BRAID_OPT_TUN_MTU_MAX + 256)
#define TICK_S 0.25
#define RX_ROUNDS 8		/* recvmmsg calls per wakeup, so the TUN side gets its turn */

enum { SIG_TERM, SIG_INT, SIG_HUP, SIG_USR1, SIG_USR2, SIG_N };

struct braid_tunnel {
	struct ev_loop *loop;
	struct braid_options *o;
	struct braid_tun tun;
	bool tun_open;
	int fd;
	int family;
	struct braid_pathset ps;
	struct braid_dc *dc;
	struct braid_key2 key;		/* kept for restarts (persist-key); wiped on free */
	struct braid_mssfix mss;
	struct braid_dp *sp;		/* single-path data path (backend_sp.c), or NULL (multipath) */
	int xmit_path;			/* the path sp_xmit sends on */
	int rx_path;			/* the path of the packet being opened */
	struct braid_dp *mpd;		/* multipath data path (backend.h), or NULL (single path) */
	ev_timer status_t;

	ev_io tun_r, sock_r, sock_w;
	ev_timer tick;
	ev_signal sig[SIG_N];

	/* set by the signal/timer callbacks, acted on by braid_tunnel_run() */
	bool exit_req, stats_req;
	bool reload_req;		/* SIGHUP: braid_tunnel_run returns BRAID_RUN_RELOAD */
	const char *restart_reason;
	int exit_code;

	ev_tstamp last_tx, last_rx;
	bool connected;			/* an authenticated packet arrived this session */
	unsigned int remote_idx;
	bool has_remote;

	struct braid_tunnel_stats st;

	/* TX batch: filled from the TUN, drained by sendmmsg (kept while the socket is full) */
	uint8_t *txbuf;
	struct mmsghdr txmsg[BATCH];
	struct iovec txiov[BATCH];
	union braid_sockaddr txaddr[BATCH];
	int txpath[BATCH];
	unsigned int tx_n, tx_sent;

	/* RX batch */
	uint8_t *rxbuf;
	struct mmsghdr rxmsg[BATCH];
	struct iovec rxiov[BATCH];
	union braid_sockaddr rxaddr[BATCH];

	ev_tstamp last_auth_log, last_txerr_log;
	uint64_t auth_since_log;
	struct braid_reject rej;	/* replays: stock's line, rate-limited */
};

#endif /* BRAID_TUNNEL_INT_H */
