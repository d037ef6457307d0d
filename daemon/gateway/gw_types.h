/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_types.h - inside the gateway: the structures all its files share (one
 * client, struct gw_client; the gateway, struct braid_gateway), its sizes and
 * limits, and three accessors that read nothing but their arguments
 * (gw_types.c). It includes nothing of the gateway's own files (only the
 * leaf modules whose types the structures embed: pool, ccd, vroute,
 * authscript, gw_push), so every gateway file can include it without a
 * circle. Not an API for anything outside daemon/gateway/.
 *
 * The gateway's files, bottom to top (a file includes only headers of files
 * before it):
 *   gw_types.h     these structures (gw_types.c: three accessors)
 *   gw_shared.c    what worker threads share: locks, hand-over rings, the summed counters
 *   gateway_mp.c   multipath clients' engines (payloads up through a callback)
 *   gw_script.c    client-connect / client-disconnect environment, disconnect scripts
 *   gw_mgmt_ev.c   client events on the management interface (>CLIENT:...)
 *   gw_table.c     the client table: create, remove, free; peer-ids and source addresses
 *   gw_link.c      to a client: a UDP datagram or a frame on its TCP write queue
 *   gw_io.c        batched I/O: recvmmsg/GRO, sendmmsg/GSO runs, the vnet TUN's coalesced writes
 *   gw_data.c      the data path: decrypt, float, to the TUN or another client; TUN reads
 *   gw_client.c    a client's control channel, authentication, address, push, keys
 *   gw_udp.c       the UDP socket: dispatch by opcode, the stateless cookie
 *   gw_tcp.c       TCP connections: accept, stream framing, dispatch
 *   gw_timers.c    the 1 s tick, auth-script polling, status file, counters line
 *   gw_mgmt.c      the management interface's gateway callbacks (status, kill, ...)
 *   gw_workers.c   `workers N`: socket group, TUN queues, the other workers' loops and threads
 *   gateway.c      set-up, teardown, signals (gateway.h)
 */
#ifndef BRAID_GW_TYPES_H
#define BRAID_GW_TYPES_H

#include <ev.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <sodium.h>

/* session.h (pkt.h) before dc.h: both name the data opcodes */
#include "ctl/cookie.h"
#include "ctl/km2.h"
#include "ctl/session.h"
#include "ctl/tls.h"
#include "dc/dc.h"
#include "dc/payload.h"
#include "dc/static_key.h"

#include "gateway/authscript.h"
#include "gateway/ccd.h"
#include "config/options.h"
#include "gateway/gateway_stats.h"
#include "gateway/gw_push.h"
#include "dataplane/mssfix.h"
#include "gateway/pool.h"
#include "session/reject.h"
#include "os/pktinfo.h"
#include "os/sock.h"
#include "os/tcpframe.h"
#include "os/tun.h"
#include "gateway/vroute.h"

#define BUF_SIZE (BRAID_OPT_TUN_MTU_MAX + 256)
#define HEADROOM 64
#define RX_BATCH 64
#define GW_TCP_UNAUTH_MAX 64	/* TCP connections without a finished handshake at once */
#define TCP_WQ_MAX (512 * 1024)
#define AUTH_FAILED_LINGER_MS 2000	/* let AUTH_FAILED reach the client before removal */
#define DEFAULT_CIPHERS "AES-256-GCM:AES-128-GCM:CHACHA20-POLY1305"
#define KEY_DIR_UNSET (-2)
#define GW_HELD_MAX 64		/* data packets held per client while a renegotiation is re-authorised */

enum { SIG_TERM, SIG_INT, SIG_HUP, SIG_USR1, SIG_USR2, SIG_N };

enum cstate {
	C_HANDSHAKE,	/* TLS / key-method 2 running */
	C_AUTH,		/* auth-user-pass-verify script running */
	C_ACTIVE,	/* pushed, data keys installed */
	C_DYING,	/* AUTH_FAILED sent, removed at die_at_ms */
};

struct gw_mp;
struct braid_mgmt;

struct braid_cluster_op;

struct gw_client {
	struct braid_gateway *g;
	struct gw_client *next_dead;
	struct gw_client *hnext;	/* address hash chain (UDP clients) */
	bool dead;
	uint32_t pid;			/* peer-id = index in g->by_pid */
	unsigned long cid;		/* client id (status file) */
	enum cstate st;
	union braid_sockaddr addr;
	char real[80];			/* "10.99.0.2:40000" */
	char ip[INET6_ADDRSTRLEN], port[8];
	struct braid_ctls *ctl;
	struct braid_dc *dc;
	struct braid_dp *sp;		/* single-path data path over dc (backend_sp.c), or NULL */
	ev_timer ctl_t;
	/* TCP */
	bool tcp;
	int fd;
	ev_io io_r, io_w;
	struct braid_tcpframe rx;	/* stream framing, lengths bounded */
	bool tcp_super;			/* TCP super-packet frames negotiated (gw_tcpsuper.c) */
	unsigned int tcp_super_spoil;	/* test only: every Nth frame sent spoiled (BRAID_TEST_TCPSUPER_BAD) */
	unsigned long tcp_super_n;	/* frames sealed to it */
	uint8_t *wbuf;
	size_t wlen, woff;
	/* identity and configuration */
	char cn[BRAID_TLS_CN_MAX];
	char cert_cn[BRAID_TLS_CN_MAX];	/* the certificate's CN (renegotiations must keep it) */
	char user[256];
	int reauth_key;			/* key_id waiting for the re-run auth script, -1 none */
	struct gw_held {		/* data on reauth_key that came before the script's answer */
		uint8_t *p;
		size_t len;
		union braid_sockaddr from;
		bool has_from;
	} *held;			/* GW_HELD_MAX of them, allocated at the first one held */
	unsigned n_held;
	bool cc_running;		/* the script in `as` is client-connect (else auth) */
	bool was_active;		/* client-disconnect runs for these */
	char cc_file[256];		/* client-connect's config file */
	bool push_requested, pushed;
	struct braid_gw_push_out push;
	enum braid_comp_framing framing;
	bool use_peer_id;
	struct braid_ccd ccd;
	struct braid_authscript as;
	bool has_pool;
	uint32_t pool_h;
	/* cluster-etcd requests of its connect (gw_cluster.c), under way in the loop */
	struct braid_cluster_op *cop;	/* NULL: none */
	void (*cluster_cont)(struct gw_client *c, int r, const char *why);
	uint32_t claim_h;		/* the pool entry being claimed (while claiming) */
	bool claiming;
	bool claim_retried;		/* entries set aside went back to the pool once */
	bool has_v4, has_v6;
	uint32_t v4, v4_remote;		/* host order */
	struct in6_addr v6;
	uint8_t v6_prefix;
	/* time and counters */
	int64_t created_ms, last_rx_ms, last_tx_ms, die_at_ms;
	time_t since, last_ref;
	uint64_t rx_bytes, tx_bytes;
	struct gw_mp *mp;		/* multipath engine (gateway_mp.c), or NULL */
	/* management-client-auth (gw_mgmt.c) */
	bool mgmt_wait;			/* >CLIENT:CONNECT sent, no client-auth/-deny yet */
	unsigned mgmt_kid;		/* the KID of the last >CLIENT:CONNECT/REAUTH */
	int64_t mgmt_deadline_ms;	/* no answer by then: denied */
	char *mgmt_config;		/* client-auth's config block until client_connect */
	struct braid_pktinfo local;	/* multihome: the address it talks to (family 0: any) */
};

struct braid_mptcp_endps;
struct braid_cluster;
struct gw_workers;
struct gw_io;

struct braid_gateway {
	struct ev_loop *loop;
	struct braid_options *o;
	SSL_CTX *ssl;
	struct braid_ctls_config ccfg;
	struct braid_key2 wrap_key;
	struct braid_ctls_cookie *cookie;
	char occ[BRAID_KM2_OPTIONS_MAX];
	const char *ciphers;

	struct braid_tun tun;
	bool tun_open;
	int fd;				/* UDP socket or TCP listener */
	int family;
	bool tcp;
	ev_io tun_r, sock_r;
	ev_timer tick;
	ev_timer exit_t;
	ev_timer auth_t;		/* 50 ms polling while auth scripts run */
	unsigned scripts;		/* auth / client-connect scripts running */
	struct braid_authscript *bg;	/* client-disconnect scripts running */
	size_t n_bg, cap_bg;		/* explicit-exit-notify: RESTART sent, exit when it fires */
	ev_signal sig[SIG_N];
	int64_t next_status_ms, next_persist_ms;
	int64_t next_trim_ms;		/* worker 0: the next heap trim check (gw_timers.c) */
	uint64_t heap_trims;		/* malloc_trim runs */
	uint64_t heap_trimmed_kb;	/* what they gave back (RSS before - after, summed) */
	int64_t next_status_json_ms;	/* `status-json` (gw_statjson.c), from 0: at once */
	int64_t cf_start_ms;		/* connect-freq window */
	int cf_count;
	int64_t cfi_start_ms;		/* connect-freq-initial window */
	int cfi_count;
	bool cfi_logged;		/* the limit was logged in this window */

	/* addresses */
	bool has_v4, has_v6, subnet;
	bool longform;			/* `mode server` + `ifconfig` + `ifconfig-pool`, no `server` */
	uint32_t gw4, mask4;
	struct in6_addr gw6;
	uint8_t prefix6;
	struct braid_pool *pool;
	struct braid_vroute routes;
	struct braid_mssfix mss;

	struct gw_client **by_pid;
	struct gw_client **by_addr;	/* UDP clients by source address: SipHash buckets */
	size_t n_buckets;		/* power of two */
	uint8_t hkey[crypto_shorthash_KEYBYTES];
	uint32_t max_clients;		/* slots in by_pid: max-clients, times the workers with `workers N` */
	uint32_t client_limit;		/* max-clients: the clients of all workers together */
	unsigned long next_cid;
	struct gw_client *dead;

	struct braid_gateway_stats st;
	struct braid_reject rej;	/* refused packets: counters, rate-limited lines */
	bool exit_req;
	struct braid_pktinfo rx_local;	/* multihome: the local address of the datagram being read */
	union braid_sockaddr bind_addr;	/* the socket's address */
	bool kept_socket;		/* taken over from before a SIGHUP */
	bool pktinfo;			/* the UDP socket reads each datagram's local address (rx_local) */
	bool mptcp;			/* the TCP listener is IPPROTO_MPTCP (`mptcp on|auto`) */
	struct braid_mptcp_endps *mptcp_endps;	/* signal endpoints of our mp-path lines, or NULL */
	int restart_sig;		/* SIGHUP/SIGUSR1 being acted on, else 0 */
	int64_t restart_ms;		/* when it came: the clients older than this go */
	uint8_t *buf, *buf2;
	struct braid_mgmt *mg;		/* the management interface (gw_mgmt.c), or NULL */
	bool mg_updown;			/* >UPDOWN:UP sent (management-up-down) */
	bool mg_held;			/* management-hold: not serving until `hold release` */
	struct braid_cluster *cluster;	/* cluster-etcd (gw_cluster.c), or NULL */
	uint32_t pid_base;		/* gateway id << 16 when clustered, else 0 */
	bool cluster_lost;		/* the lease is gone: stop, exit status 1 */
	uint32_t *foreign;		/* pool entries another gateway holds (gw_cluster.c) */
	size_t n_foreign, cap_foreign;
	/* a live reload's walk of this worker's clients under PREFIX revoked/ (gw_reload.c) */
	struct braid_cluster_op *rv_op;	/* the lookup under way (in cluster's requests), or NULL */
	uint32_t rv_idx;		/* ... for the client at by_pid[rv_idx] */
	unsigned long rv_cid;		/* ... which had this client id */
	unsigned rv_kill;		/* clients dropped by this walk */
	/* worker threads (gw_workers.h): NULL with one worker */
	struct gw_workers *wk;
	unsigned widx;			/* this worker's index (0: the main thread) */
	uint8_t *xbuf;			/* a message being handed to another worker */
	unsigned xq_link_budget;	/* datagrams it may still hand over this second (gw_workers.c) */
	struct gw_io *io;		/* batched socket and TUN I/O (gw_io.c) */
};

/* gw_types.c: accessors that read nothing but their arguments */
/* Monotonic milliseconds: every timestamp of the gateway. */
int64_t braid_gw_now_ms(void);
/* The client's common name for log lines ("UNDEF" before the handshake, as 2.6). */
const char *braid_gw_cname(const struct gw_client *c);
/* An IPv4 address in host order as text. */
void braid_gw_v4str(uint32_t a, char *buf, size_t len);

#endif /* BRAID_GW_TYPES_H */
