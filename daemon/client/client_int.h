/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client_int.h - the TLS client's state (struct braid_client), shared by
 * client.c and the client_*.c files; not part of the client.h API. It
 * includes no header of the client family.
 *
 * The client's files depend downward only: a file includes the headers of
 * (and calls) files on lower lines, never its own line or above.
 *
 *   client.c                     event loop, tick, signals, new/run/free (client.h)
 *   client_netwatch.c            host address changes: reconnect at once
 *   client_connect.c             remote list, connect, teardown, restart pause
 *   client_io.c                  reading the link and the TUN, data channel out
 *   client_ctl.c                 control session pump, server messages, events
 *   client_push.c client_status.c  applying a PUSH_REPLY; the status file
 *   client_mp.c                  the multipath data plane
 *   client_mptcp.c               the MPTCP transport: socket options, fallback, endpoints
 *   client_link.c client_payload.c client_peerinfo.c client_setup.c
 *                                sending on the link; a decrypted payload;
 *                                peer-info and OCC; keys, credentials, TLS
 *   client_state.c client_mgmt.c clocks, restart and exit requests; the
 *                                management interface (it starts a connection
 *                                through the retry timer)
 *   client_int.h                 this struct
 *
 * Calls that would go upward are made by the loop instead: a lower file asks
 * for a restart or an exit (client_state.c) and client.c acts on it when
 * ev_run returns.
 */
#ifndef BRAID_CLIENT_INT_H
#define BRAID_CLIENT_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <ev.h>
#include <openssl/ssl.h>

#include "ctl/km2.h"
#include "ctl/session.h"
#include "dc/dc.h"
#include "dc/payload.h"
#include "dc/static_key.h"
#include "dataplane/mssfix.h"
#include "config/options.h"
#include "session/push.h"
#include "session/reject.h"
#include "os/dns.h"
#include "os/sock.h"
#include "os/tcplink.h"
#include "os/tun.h"

#define BUF_SIZE (BRAID_OPT_TUN_MTU_MAX + 256)
/* UDP single path: datagrams per recvmmsg, and with UDP GRO messages of up to 64 KiB */
#define CLIENT_RX_BATCH 64
#define CLIENT_RX_BATCH_GRO 8
#define CLIENT_RX_BUF_GRO 65536
#define CLIENT_RXBUF_BYTES ((size_t)CLIENT_RX_BATCH * BUF_SIZE > \
			    (size_t)CLIENT_RX_BATCH_GRO * CLIENT_RX_BUF_GRO ? \
			    (size_t)CLIENT_RX_BATCH * BUF_SIZE : \
			    (size_t)CLIENT_RX_BATCH_GRO * CLIENT_RX_BUF_GRO)
#define CLIENT_TXBUF_BYTES ((size_t)BRAID_TXB_MAX * BUF_SIZE)

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
	uint64_t tcp_super_tx, tcp_super_rx, tcp_super_bad;	/* TCP super-packet frames (client_tcpsuper.c) */
};

struct client_mp;
struct braid_mptcp_endps;
struct braid_dp;
struct braid_mgmt;

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
	bool dco;			/* the kernel data plane: tun is a braid_dco device (dataplane/dco_dev.h) */

	unsigned int order[BRAID_OPT_MAX_REMOTES];
	unsigned int cur;		/* index into order[] */
	unsigned int failures;		/* attempts without success since the last good one */
	bool tcp;
	int ufd;
	struct braid_tcplink tl;
	struct braid_mptcp_endps *mptcp_endps;	/* our MPTCP endpoints (client_mptcp.c), or NULL */
	int mptcp_said;			/* the transport last logged: 0 none, 1 MPTCP, 2 TCP (fallback) */
	union braid_sockaddr remote;
	ev_tstamp connect_start;

	struct braid_ctls *s;
	struct braid_dc *dc;
	struct braid_dp *sp;		/* single-path data path over dc (backend_sp.c), or NULL */
	struct client_mp *mp;		/* multipath data plane (client_mp.c), or NULL */
	struct braid_push_list pl;
	struct braid_pushed pushed;
	bool have_push;
	struct braid_push_net pnet;
	struct braid_dns dns;		/* pushed DNS in the host resolver (os/dns.c) */
	bool up_ran;
	bool mg_updown;		/* >UPDOWN:UP sent (management-up-down): DOWN is due */
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

	int nl_fd;			/* rtnetlink (client_netwatch.c), or -1 */
	ev_io nl_r;
	uint64_t net_fp;		/* fingerprint of the host's addresses */
	ev_tstamp net_kick;		/* its last reconnect */

	double next_pause;		/* >= 0: the server's AUTH_FAILED,TEMP backoff for the next pause */
	ev_tstamp pending_until;	/* AUTH_PENDING,timeout N: the push may take that long */
	ev_timer status_t;
	ev_timer status_json_t;		/* `status-json` (client_status.c) */

	bool exit_req, stats_req;
	int exit_code;
	const char *restart_reason;
	bool advance;			/* the restart moves to the next remote */

	struct client_stats stt;
	uint64_t rx_at_start, ctl_ok, ctl_ok_at_start;	/* for the hand-window hint */
	ev_tstamp last_auth_log;
	struct braid_reject rej;	/* refused packets: counters and rate-limited log lines */
	uint8_t *pkt, *plain, *framed;

	/*
	 * UDP single path, batched as the multipath data plane does: TUN reads
	 * sealed into txbuf slots and sent by sendmmsg with UDP GSO runs
	 * (txb, flushed at the end of each TUN read round); socket reads by
	 * recvmmsg into rxbuf, UDP GRO messages split into their datagrams.
	 */
	uint8_t *rxbuf, *txbuf;
	bool gso, gro;			/* on ufd (gso cleared if the route refuses it) */
	struct braid_txbatch txb;
	struct mmsghdr rxmsg[CLIENT_RX_BATCH];
	struct iovec rxiov[CLIENT_RX_BATCH];
	union {
		struct cmsghdr align;
		uint8_t b[BRAID_SOCK_GRO_CMSG];
	} rxctl[CLIENT_RX_BATCH_GRO];
	/*
	 * TUN offloads (tun.vnet): super-packet reads split into segments,
	 * in-order TCP segments coalesced on write while a socket read runs
	 * (rx_open), else written at once.
	 */
	uint8_t *tunrd;			/* one vnet read: header + up to 64 KiB */
	struct braid_tun_gro *tungro;
	bool rx_open;
	/*
	 * TCP super-packet frames (client_tcpsuper.c, os/tun_super.h): announced on a
	 * TCP session with a vnet TUN (peer_info_tcp: peer_info + IV_BRAID_TCPSUPER),
	 * used once the server pushes `braid-tcp-super 1`; superbuf: one frame to seal.
	 */
	bool tcp_super_offered, tcp_super;
	char peer_info_tcp[1100];
	uint8_t *superbuf;

	/* the management interface (client_mgmt.c), or NULL */
	struct braid_mgmt *mg;
	bool mg_released;		/* the hold was released for this attempt */
	bool mg_creds;			/* user/pass came from a management query */
	bool mg_auth_seen;		/* AUTH announced for this session */
	bool mg_get_config;		/* GET_CONFIG announced for this session */
	int mg_hold_wait;		/* the restart pause (s) a hold announces */
	bool mg_first;			/* the process's first attempt (password before remote) */
	bool mg_remote_served;		/* remote-entry-* answered (from the first attempt on, as stock) */
	bool mg_remote_ok;		/* this attempt's >REMOTE query was answered */
	bool mg_mod;			/* `remote MOD`: mg_host/mg_port for this attempt */
	char mg_host[256];
	uint16_t mg_port;
};

#endif /* BRAID_CLIENT_INT_H */
