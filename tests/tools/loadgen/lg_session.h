/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lg_session.h - one load-generator session: a UDP socket, an OpenVPN 2.6
 * control-channel session (daemon/ctl) driven by libev, PUSH_REQUEST /
 * PUSH_REPLY, the pushed data keys in a braid_dc, ICMP echo probes through the
 * tunnel to the gateway's tunnel address, keepalive pings while it idles.
 * A multipath session (lg_mp.h) also announces IV_BRAID_MP, takes up the
 * gateway's braid-mp offer and spreads its data over two paths.
 */
#ifndef BRAID_LG_SESSION_H
#define BRAID_LG_SESSION_H

#include <ev.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include "lg_mp.h"
#include "lg_push.h"
#include "session.h"

#define LG_PINGS_MAX 4096
#define LG_RTT_BUCKETS 10001 /* 1 ms buckets, the last one is ">= 10 s" */

enum lg_state { LG_CONNECTING, LG_ESTABLISHED, LG_FAILED, LG_CLOSED };

/* Why sessions failed (counted per kind in the report). */
enum lg_fail { LG_F_TIMEOUT, LG_F_FATAL, LG_F_AUTH, LG_F_PUSH, LG_F_KEYS, LG_F_SOCKET, LG_F_N };

/* What all sessions share: configuration, counters, the RTT histogram. */
struct lg_ctx {
	struct ev_loop *loop;
	struct braid_ctls_config cc;    /* template (ssl_ctx, wrap, peer_info) */
	struct sockaddr_in remote;
	struct sockaddr_in binds[16];   /* source addresses, round robin (port 0) */
	unsigned n_binds;
	struct sockaddr_in mp_binds[16]; /* a multipath session's second path: source addresses */
	unsigned n_mp_binds;
	unsigned mp_share_pm;           /* sessions in 1000 that announce multipath (lg_mp_wanted) */
	const char *peer_info_mp;       /* cc.peer_info plus IV_BRAID_MP */
	const char *cipher_default;     /* if the server pushes no cipher */
	unsigned pings, ping_interval_ms, ping_size, ping_wait_ms;
	unsigned keepalive_s;           /* 0: the pushed `ping`, else 10 */
	unsigned hs_timeout_ms;
	bool probes_held;               /* no echoes yet (--ping-after-all: until every handshake ended) */
	unsigned retries;                /* a failed handshake starts again (new port) this often */
	void (*on_change)(struct lg_ctx *ctx); /* a session finished its handshake or its probes, or failed */

	/* counters */
	unsigned established;           /* handshakes finished (PUSH_REPLY applied, keys installed) */
	unsigned failed;                /* handshakes that failed */
	unsigned dropped;               /* established sessions that failed later */
	unsigned probes_done, fail[LG_F_N];
	uint64_t pings_sent, pings_replied, pings_dup, pings_late;
	uint64_t sessions_all_replies, sessions_some_lost;
	uint64_t tun_bytes_tx, tun_bytes_rx, keepalives_tx, keepalives_rx;
	uint64_t retried;               /* handshakes started again after a failure */
	uint64_t rx_before_keys;        /* data packets before our keys (not counted as dropped) */
	uint64_t rx_ctl_dropped, rx_data_dropped, rx_not_ours, rx_truncated;
	uint64_t hs_ms_sum;
	int64_t t0_ms, last_est_ms;     /* the run's start; the newest handshake's end (CLOCK_MONOTONIC ms) */
	/* multipath (lg_mp.c) */
	unsigned mp_announced, mp_accepted, mp_not_offered, established_mp;
	uint64_t mp_sessions_validated; /* sessions whose both paths the gateway probed (= validated) */
	uint64_t mp_reports_tx, mp_rx_dups; /* REPORTs sent; the gateway's re-sent packets (replay window) */
	uint64_t mp_ctl_rx;             /* engine control messages received */
	struct braid_dco_mpctl_stats mpst; /* answered by kind, other, malformed */
	uint64_t mp_pings_sent, mp_pings_replied; /* the echoes of multipath sessions */
	uint64_t mp_tx_path[2], mp_rx_path[2]; /* data-channel datagrams per path of multipath sessions */
	/* per session, tallied when its echoes are over (lg_session.c tally_bytes) */
	uint64_t min_bytes;             /* --min-bytes: a session "carried" it when echoed both ways */
	uint64_t sessions_min_bytes;    /* sessions whose echoes and replies each reached min_bytes */
	uint64_t session_bytes_min;     /* the fewest echo-reply bytes of one session (UINT64_MAX: none) */
	uint64_t mp_sessions_both_paths; /* multipath sessions with echoes sent and replies received on both paths */
	uint32_t hs_hist[LG_RTT_BUCKETS], rtt_hist[LG_RTT_BUCKETS];
	unsigned log_budget;            /* rejections logged (then silent) */
};

struct lg_session {
	struct lg_ctx *ctx;
	unsigned idx;
	int fd;                         /* control channel; path 0 of a multipath session */
	ev_io io;
	int fd2;                        /* a multipath session's path 1, else -1 */
	ev_io io2;
	bool mp;                        /* announces IV_BRAID_MP */
	bool mp_on;                     /* took up the gateway's offer */
	uint8_t mp_seen;                /* paths the gateway probed (bit per path) */
	struct lg_mp_rx mprx;
	unsigned tx_rr;                 /* round robin of data over the paths */
	ev_timer tm;
	enum lg_state state;
	struct braid_ctls *s;
	struct braid_dc *dc;
	struct lg_push push;
	bool probes_done;
	int64_t t_start, t_est, t_last_tx, t_next_ping, t_probe_end;
	unsigned seq_next, replies;
	unsigned echo_tx_path[2], echo_rx_path[2]; /* its echoes and replies per path */
	unsigned tries;                 /* handshakes started again */
	uint8_t got[LG_PINGS_MAX / 8];
};

/* CLOCK_MONOTONIC in milliseconds. */
int64_t lg_now_ms(void);
/* Open the socket and send the first reset. 0 or -errno (the session is then FAILED). */
int lg_session_start(struct lg_session *ls, struct lg_ctx *ctx, unsigned idx);
/* Run its timers now (e.g. the echoes were held back). */
void lg_session_kick(struct lg_session *ls);
/* Tell the gateway we leave (OCC EXIT), stop the watchers, free everything. */
void lg_session_close(struct lg_session *ls, bool notify);

#endif /* BRAID_LG_SESSION_H */
