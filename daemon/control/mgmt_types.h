/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mgmt_types.h - the management interface's options and the callbacks a
 * role gives it (the API is in mgmt.h; split off so the interface's own
 * files can share the types without including the API).
 */
#ifndef BRAID_MGMT_TYPES_H
#define BRAID_MGMT_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define BRAID_MGMT_VERSION 5
#define BRAID_MGMT_MAX_CONN 4

struct braid_mgmt;
struct braid_dp;

/* The options (config/options_types.h fills it). */
struct braid_mgmt_cfg {
	const char *addr;		/* IP, or the socket path with unix; NULL: ctl_path only */
	unsigned port;
	bool unix_sock;
	const char *pwfile;		/* NULL: no password */
	const char *client_user, *client_group;	/* unix socket: who may connect */
	bool hold, query_passwords, client_auth, query_remote;
	bool up_down;			/* management-up-down: >UPDOWN:UP/DOWN with the env block */
	bool connect_out;		/* management-client: connect to addr/port instead of listening */
	unsigned log_cache;		/* 0: BRAID_MGMT_HIST_DEFAULT */
	/*
	 * `control-socket PATH`: a second unix socket (0600, no password, no peer
	 * check: the file's mode guards it) serving the same interface (braidctl's)
	 */
	const char *ctl_path;
};

/* `kill` / `client-kill` forms. */
enum braid_mgmt_kill {
	BRAID_MGMT_KILL_CN,		/* kill cn */
	BRAID_MGMT_KILL_ADDR,		/* kill IP:port (real address; proto: prefix allowed) */
	BRAID_MGMT_KILL_CID,		/* client-kill CID [msg] */
};

/* A gateway's client for the braid extension (`braid clients`, `braid client-paths`). */
struct braid_mgmt_client {
	unsigned long cid;		/* the Client ID of `status 3` */
	char cn[65];
	char real[80];			/* its address:port (a stock client's one path) */
	char local[80];			/* the gateway's address:port it talks to, or "" */
	uint64_t rx_bytes, tx_bytes;
	struct braid_dp *dp;		/* its multipath data path; NULL: a stock (single-path) client */
};
/* `remote ACCEPT|SKIP|MOD` answers to a >REMOTE query. */
enum braid_mgmt_remote { BRAID_MGMT_REMOTE_ACCEPT, BRAID_MGMT_REMOTE_SKIP, BRAID_MGMT_REMOTE_MOD };

typedef void (*braid_mgmt_bytes_fn)(void *ctx, long cid, uint64_t in, uint64_t out);

struct braid_mgmt_ops {
	void *user;
	bool gateway;			/* the client commands; >BYTECOUNT_CLI */
	/* `status N`: stock's text for version 1..3 (0: the configured status-version), without END */
	int (*status)(void *user, int version, FILE *f);
	/* the link bytes: once with cid -1 (a client / tunnel), or per client (gateway) */
	void (*bytecount)(void *user, braid_mgmt_bytes_fn emit, void *ctx);
	/* load-stats */
	void (*load_stats)(void *user, unsigned *nclients, uint64_t *in, uint64_t *out);

	/* optional (NULL: the command answers with a reason) */
	/* deliver a signal to the role (NULL: the process raises it, the role's handler runs) */
	int (*signal)(void *user, int signum);
	/* the hold was released (a role waiting in braid_mgmt_hold goes on) */
	void (*hold_release)(void *user);
	/* a queried username/password pair is complete (type: "Auth") */
	void (*credentials)(void *user, const char *type, const char *username,
			    const char *password);
	/* remove clients; *n gets how many. 0, -ENOENT (none), -errno */
	int (*kill)(void *user, enum braid_mgmt_kill how, const char *arg, const char *msg,
		    unsigned *n);
	/*
	 * client-auth / client-auth-nt / client-deny for a client waiting in
	 * >CLIENT:CONNECT/REAUTH. config: the client-auth lines (NUL-separated
	 * "\n"-joined), or NULL. 0, or -ENOENT (no such CID/KID waiting).
	 */
	int (*client_auth)(void *user, unsigned long cid, unsigned kid, bool ok, const char *reason,
			   const char *client_reason, const char *config);

	/*
	 * The braid extension (mgmt_braid.c, docs/management.md "Braid extensions"):
	 * braid_dp - the role's own session's multipath data path, NULL when it has none
	 *   (single path, not connected); NULL op: the role has no own session (gateway).
	 * braid_clients - a gateway's active clients, up to max into out; returns how many
	 *   there are (may exceed max). NULL: not a gateway.
	 */
	struct braid_dp *(*braid_dp)(void *user);
	/*
	 * braid_single - the role's own single-path session as its one path (real: the peer's
	 * address, local: ours or "", the link byte counts; cid and dp unused): 0, or -ENOENT
	 * while there is none up (or the session is multipath). NULL: never.
	 */
	int (*braid_single)(void *user, struct braid_mgmt_client *out);
	int (*braid_clients)(void *user, struct braid_mgmt_client *out, int max);
	/*
	 * remote-entry-count / remote-entry-get: entry i of the remote list as
	 * "host,port,proto,enabled" into buf. -ENOENT past the end, -EAGAIN
	 * while the list is not served yet (stock: before the first attempt).
	 */
	int (*remote_entry)(void *user, unsigned i, char *buf, size_t len);
	/* the answer to the open >REMOTE query (host/port: MOD only) */
	void (*remote)(void *user, enum braid_mgmt_remote what, const char *host,
		       const char *port);
	/*
	 * client-pending-auth CID KID EXTRA TIMEOUT for a client waiting in
	 * >CLIENT:CONNECT/REAUTH. 0, -ENOENT (no such CID/KID waiting), -errno.
	 */
	int (*pending_auth)(void *user, unsigned long cid, unsigned kid, const char *extra,
			    unsigned timeout);
	/*
	 * cr-response B64: send the challenge-response answer to the server as the control
	 * message CR_RESPONSE,B64 (a client role). 0, -ENOTCONN (no session to send it on),
	 * -errno. NULL: the role cannot (stock: "not supported by the current daemon mode").
	 */
	int (*cr_response)(void *user, const char *b64);
};

#endif /* BRAID_MGMT_TYPES_H */
