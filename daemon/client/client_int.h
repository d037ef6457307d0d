/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client_int.h - the TLS client's state (struct braid_client), shared by
 * client.c and the client_*.c files; not part of the client.h API.
 */
#ifndef BRAID_CLIENT_INT_H
#define BRAID_CLIENT_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <ev.h>
#include <openssl/ssl.h>

#include "client/client.h"
#include "ctl/km2.h"
#include "ctl/session.h"
#include "dc/dc.h"
#include "dc/payload.h"
#include "dc/static_key.h"
#include "dataplane/mssfix.h"
#include "config/options.h"
#include "session/push.h"
#include "session/reject.h"
#include "os/sock.h"
#include "os/tcplink.h"
#include "os/tun.h"

#define BUF_SIZE (BRAID_OPT_TUN_MTU_MAX + 256)

enum { SIG_TERM, SIG_INT, SIG_HUP, SIG_USR1, SIG_USR2, SIG_N };

enum cstate {
	CS_IDLE,		/* waiting for the connect-retry timer */
	CS_TCP_CONNECTING,
	CS_TLS,			/* control channel up to KEYS_READY */
	CS_PUSH,		/* keys ready, waiting for PUSH_REPLY */
	CS_UP,			/* data channel running */
};

struct client_stats {
	uint64_t tun_read_pkts, tun_read_bytes, tun_write_pkts, tun_write_bytes;
	uint64_t link_tx_pkts, link_tx_bytes, link_rx_pkts, link_rx_bytes;
	uint64_t rx_auth_failures, rx_replays, rx_malformed, rx_ctl_dropped;
	uint64_t pings_tx, pings_rx, restarts, renegotiations, keys_removed;
	uint64_t tx_dropped;
	uint64_t auth_read_bytes;	/* data packets that authenticated (OpenVPN's "Auth read bytes") */
};

struct client_mp;

struct braid_client {
	struct ev_loop *loop;
	struct braid_options *o;
	SSL_CTX *ssl;
	struct braid_key2 wrap_key;
	int wrap, wrap_dir;
	char *user, *pass;
	char *token;			/* pushed auth-token: the password of later authentications */
	char peer_info[1024];
	char occ[BRAID_KM2_OPTIONS_MAX];
	bool prf_only;

	struct braid_tun tun;
	bool tun_open;

	unsigned int order[BRAID_OPT_MAX_REMOTES];
	unsigned int cur;		/* index into order[] */
	unsigned int failures;		/* attempts without success since the last good one */
	bool tcp;
	int ufd;
	struct braid_tcplink tl;
	union braid_sockaddr remote;
	ev_tstamp connect_start;

	struct braid_ctls *s;
	struct braid_dc *dc;
	struct client_mp *mp;		/* multipath data plane (client_mp.c), or NULL */
	struct braid_push_list pl;
	struct braid_pushed pushed;
	bool have_push;
	struct braid_push_net pnet;
	bool up_ran;
	bool ever_up;
	enum braid_comp_framing framing;
	bool use_ekm;
	char cipher[32];
	int ping, ping_restart, tun_mtu;
	struct braid_mssfix mss;

	enum cstate st;
	ev_tstamp t_keys, last_push_req, last_rx, last_tx;
	ev_tstamp exit_deadline;
	bool exit_notify_sent;
	ev_tstamp occ_exit_next;	/* OCC EXIT: repeated once a second until exit_deadline */

	ev_io tun_r, sock_r, sock_w;
	ev_timer ctl_t, tick, retry_t;
	ev_signal sig[SIG_N];

	double next_pause;		/* >= 0: the server's AUTH_FAILED,TEMP backoff for the next pause */
	ev_tstamp pending_until;	/* AUTH_PENDING,timeout N: the push may take that long */
	ev_timer status_t;

	bool exit_req, stats_req;
	int exit_code;
	const char *restart_reason;
	bool advance;			/* the restart moves to the next remote */

	struct client_stats stt;
	uint64_t rx_at_start, ctl_ok, ctl_ok_at_start;	/* for the hand-window hint */
	ev_tstamp last_auth_log;
	struct braid_reject rej;	/* refused packets: counters and rate-limited log lines */
	uint8_t *pkt, *plain, *framed;
};

/* Monotonic clock in milliseconds (the control session's time base). */
int64_t client_now_ms(void);
/* Monotonic clock in seconds (the data channel's replay-time base). */
int64_t client_mono_sec(void);
/*
 * Leave the event loop for a restart (reason logged as OpenVPN's
 * "SIGUSR1[soft,why]"); advance: then try the next remote. The first request
 * wins; none after an exit request.
 */
void client_request_restart(struct braid_client *c, const char *why, bool advance);
/* Leave the event loop and end the process with this exit code. */
void client_request_exit(struct braid_client *c, int code);

#endif /* BRAID_CLIENT_INT_H */
