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

#define BATCH BRAID_TXB_MAX	/* datagrams per send batch and per plain recvmmsg */
#define BUF_SIZE (BRAID_OPT_TUN_MTU_MAX + 256)
#define TICK_S 0.25
#define RX_ROUNDS 8		/* recvmmsg calls per wakeup, so the TUN side gets its turn */
#define RX_BATCH_GRO 8		/* messages per recvmmsg with UDP GRO (each up to 64 KiB) */
#define RX_BUF_GRO 65536	/* an rx buffer with UDP GRO: coalesced datagrams of one sender */
#define TUN_READS_VNET 8	/* vnet TUN reads per wakeup (each up to 64 KiB) */
#define TXBUF_BYTES ((size_t)BATCH * BUF_SIZE)
#define RXBUF_BYTES ((size_t)BATCH * BUF_SIZE > (size_t)RX_BATCH_GRO * RX_BUF_GRO ? \
		     (size_t)BATCH * BUF_SIZE : (size_t)RX_BATCH_GRO * RX_BUF_GRO)

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

	/*
	 * TX batch: filled from the TUN (one sealed datagram per txbuf slot),
	 * sent by sendmmsg with UDP GSO runs (os/sock.h braid_txbatch); what
	 * the full socket refused stays in txb until it drains. txpath and
	 * txaddr are per entry of txb (peer addresses copied at add time).
	 */
	uint8_t *txbuf;
	struct braid_txbatch txb;
	union braid_sockaddr txaddr[BATCH];
	int txpath[BATCH];
	bool gso;			/* UDP GSO accepted on fd (cleared if the route refuses it) */

	/* RX batch: plain datagrams of BUF_SIZE, or with UDP GRO coalesced runs of up to 64 KiB */
	uint8_t *rxbuf;
	bool gro;			/* UDP GRO on fd */
	struct mmsghdr rxmsg[BATCH];
	struct iovec rxiov[BATCH];
	union braid_sockaddr rxaddr[BATCH];
	union {
		struct cmsghdr align;
		uint8_t b[BRAID_SOCK_GRO_CMSG];
	} rxctl[RX_BATCH_GRO];

	/* TUN offloads (tun.vnet): super-packet reads split, in-order TCP segments coalesced on write */
	uint8_t *tunrd;			/* one vnet read: header + up to 64 KiB */
	struct braid_tun_gro *tungro;

	ev_tstamp last_auth_log, last_txerr_log;
	uint64_t auth_since_log;
	struct braid_reject rej;	/* replays: stock's line, rate-limited */
};

#endif /* BRAID_TUNNEL_INT_H */
