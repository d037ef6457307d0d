/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mgmt.h - OpenVPN's management interface (`management IP PORT [PWFILE]`
 * or `management PATH unix [PWFILE]`), management version 5 with stock
 * 2.6's exact bytes: the banner, CRLF line ends, `SUCCESS: ...` /
 * `ERROR: ...`, multi-line replies ending in `END`, real-time `>TYPE:`
 * notifications. docs/management.md lists the commands braidd serves.
 *
 *   mgmt.c       this API: the object, state changes, log lines, hold,
 *                password queries, client events, notifications
 *   mgmt_conn.c  the listener (TCP on localhost, unix socket) and the
 *                connections (password, per-connection modes, output)
 *   mgmt_cmd.c   the commands
 *   mgmt_line.c  line splitting and word parsing (fuzzed)
 *   mgmt_hist.c  the log/state/echo histories
 *
 * A role (static-key tunnel, TLS client, gateway) creates one with the
 * callbacks of struct braid_mgmt_ops and tells it what happens; the
 * interface never touches the role's state itself.
 */
#ifndef BRAID_MGMT_H
#define BRAID_MGMT_H

#include <ev.h>
#include <stdbool.h>
#include <stdint.h>

#include "control/mgmt_types.h"

/*
 * Open the listener and start serving. The options are copied. 0 or
 * -errno (logged). The log hook (every braid_log line into the history and
 * to `log on` clients) is installed until braid_mgmt_free.
 */
int braid_mgmt_new(struct braid_mgmt **out, struct ev_loop *loop, const struct braid_mgmt_cfg *cfg,
		   const struct braid_mgmt_ops *ops);
/*
 * The role is done with m. Its sockets stay open (watchers stopped) so that the
 * next role (a SIGHUP reload) gets the same interface and connections from
 * braid_mgmt_new with the same listener; braid_mgmt_shutdown closes it for
 * good (main.c at exit). NULL is fine.
 */
void braid_mgmt_free(struct braid_mgmt *m);
/* Close the kept interface: every connection and the listener (a unix socket is unlinked). */
void braid_mgmt_shutdown(void);

/*
 * A state change (OpenVPN's >STATE:): name CONNECTING, WAIT, AUTH,
 * GET_CONFIG, ASSIGN_IP, ADD_ROUTES, CONNECTED, RECONNECTING, EXITING,
 * TCP_CONNECT, RESOLVE; any string field may be NULL (empty). tun6 NULL:
 * the field is left out as stock does.
 */
struct braid_mgmt_state {
	const char *name, *desc, *tun4, *rip, *rport, *lip, *lport, *tun6;
};
void braid_mgmt_set_state(struct braid_mgmt *m, const struct braid_mgmt_state *s);
/* The newest state's name ("" before the first). */
const char *braid_mgmt_state_name(const struct braid_mgmt *m);

/*
 * `management-hold`: if the hold flag is set, announce
 * >HOLD:Waiting for hold release:wait_s and return true: the role waits
 * until ops->hold_release. false: go on now.
 */
bool braid_mgmt_hold(struct braid_mgmt *m, int wait_s);

/* management-query-passwords is set (the role asks with braid_mgmt_need_password). */
bool braid_mgmt_query_passwords(const struct braid_mgmt *m);
/* >PASSWORD:Need 'type' username/password; ops->credentials gets the answer. */
void braid_mgmt_need_password(struct braid_mgmt *m, const char *type);
/*
 * A reload keeps the credentials a query gave (as stock on SIGHUP): the ending
 * role stashes them (copied), the next one takes them (malloc'ed, the caller
 * wipes and frees them; NULL when none). Wiped at braid_mgmt_shutdown.
 */
void braid_mgmt_stash_credentials(struct braid_mgmt *m, const char *user, const char *pass);
void braid_mgmt_take_credentials(struct braid_mgmt *m, char **user, char **pass);
/* >PASSWORD:Verification Failed: 'type' */
void braid_mgmt_auth_failed(struct braid_mgmt *m, const char *type);

/* management-query-remote is set (the client asks with braid_mgmt_query_remote). */
bool braid_mgmt_query_remote_on(const struct braid_mgmt *m);
/* >REMOTE:host,port,proto; ops->remote gets the answer (`remote ACCEPT|SKIP|MOD`). */
void braid_mgmt_query_remote(struct braid_mgmt *m, const char *host, const char *port,
			     const char *proto);

/* management-client-auth is set (the gateway defers authentication to it). */
bool braid_mgmt_client_auth(const struct braid_mgmt *m);
/*
 * >CLIENT:what,cid[,kid] (kid < 0: none) followed by >CLIENT:ENV,NAME=VALUE
 * for each of env[0..n) ("NAME=VALUE" strings) and >CLIENT:ENV,END. what: CONNECT, REAUTH,
 * ESTABLISHED, DISCONNECT.
 */
void braid_mgmt_client_event(struct braid_mgmt *m, const char *what, unsigned long cid, long kid,
			     const char *const *env, size_t n);
/*
 * A client's challenge-response answer, its control message text
 * "CR_RESPONSE,B64": >CLIENT:CR_RESPONSE,cid,kid,B64 followed by the ENV
 * block, as stock 2.6. A bad answer (mgmt_line.h braid_cr_response_parse) is
 * counted (BRAID_MGMT_REJ_CR_RESPONSE), logged and dropped: -EINVAL.
 */
int braid_mgmt_client_cr_response(struct braid_mgmt *m, unsigned long cid, unsigned kid,
				  const char *text, const char *const *env, size_t n);
/*
 * management-up-down: the TUN device came up / goes down. >UPDOWN:UP or
 * >UPDOWN:DOWN, then >UPDOWN:ENV,NAME=VALUE for env[0..n) and >UPDOWN:ENV,END
 * (stock's shape). No-op without the option.
 */
bool braid_mgmt_up_down_on(const struct braid_mgmt *m);
void braid_mgmt_up_down(struct braid_mgmt *m, const char *what, const char *const *env, size_t n);
/* >CLIENT:ADDRESS,cid,addr,primary */
void braid_mgmt_client_address(struct braid_mgmt *m, unsigned long cid, const char *addr,
			       bool primary);

/* >INFO:text / >FATAL:text / >ECHO: (also kept in the echo history) */
void braid_mgmt_notify(struct braid_mgmt *m, const char *type, const char *text);
void braid_mgmt_echo(struct braid_mgmt *m, const char *text);

/* The rejection counters (mgmt_line.h enum braid_mgmt_rej), for tests and status. */
uint64_t braid_mgmt_rejections(const struct braid_mgmt *m, int kind);

#endif /* BRAID_MGMT_H */
