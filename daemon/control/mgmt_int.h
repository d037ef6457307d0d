/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mgmt_int.h - the management interface's state, shared by mgmt.c,
 * mgmt_conn.c and mgmt_cmd.c; not part of the mgmt.h API.
 *
 * The files depend downward: mgmt.c calls mgmt_cmd.c and mgmt_conn.c,
 * mgmt_cmd.c calls mgmt_conn.c (its output functions), mgmt_conn.c hands a
 * complete line to the command dispatcher through a pointer set by mgmt.c.
 */
#ifndef BRAID_MGMT_INT_H
#define BRAID_MGMT_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <ev.h>

#include "control/mgmt_types.h"
#include "control/mgmt_braid_json.h"
#include "control/mgmt_hist.h"
#include "control/mgmt_line.h"

#define MGMT_OUT_MAX (4u << 20)		/* pending output per connection */
#define MGMT_PW_MAX 256
#define MGMT_MULTILINE_MAX 65536	/* client-auth config block */

struct mgmt_conn {
	struct braid_mgmt *m;
	int fd;
	ev_io r, w;
	ev_timer bc;			/* bytecount n */
	struct braid_mgmt_lbuf lb;
	char *out;
	size_t out_len, out_cap, out_off;
	bool authed;			/* the password (if any) was given */
	unsigned pw_tries;
	bool closing;			/* close once out is written */
	bool dead;			/* gone: output dropped, freed from its write callback */
	bool log_rt, state_rt, echo_rt;
	unsigned bytecount_s;
	unsigned braid_ev_s;		/* braid paths on N (0: off) */
	ev_tstamp braid_next;		/* the next periodic >BRAID-PATH: round */
	/* client-auth multi-line: collecting config lines until END */
	bool ml;
	unsigned long ml_cid;
	unsigned ml_kid;
	char *ml_buf;
	size_t ml_len;
	char peer[80];
	bool outgoing;			/* management-client: our connection out; its end ends braidd */
};

struct braid_mgmt {
	struct ev_loop *loop;
	struct braid_mgmt_cfg cfg;
	char *addr, *pwfile, *client_user, *client_group, *ctl_path;
	char pw[MGMT_PW_MAX];
	bool has_pw;
	uid_t allow_uid;
	gid_t allow_gid;
	bool check_uid, check_gid;
	struct braid_mgmt_ops ops;
	int lfd;			/* the `management` listener, -1 none */
	ev_io accept_w;
	int cfd;			/* the `control-socket` listener, -1 none */
	ev_io ctl_accept_w;
	struct mgmt_conn *conn[BRAID_MGMT_MAX_CONN];
	struct braid_mgmt_hist log, state, echo;
	bool hold;			/* the hold flag (hold on/off, management-hold) */
	bool holding;			/* a role waits in braid_mgmt_hold */
	int hold_wait;
	bool pw_wanted;			/* a >PASSWORD:Need is open */
	char pw_type[32];
	char *q_user, *q_pass;
	bool remote_wanted;		/* a >REMOTE query is open */
	char *st_user, *st_pass;	/* stashed across a reload */
	bool in_hook;			/* a log line being written: no recursion */
	/* notifications held back while a command runs, sent after its reply (client-auth) */
	bool defer;
	struct mgmt_deferred {
		int to;			/* enum mgmt_to */
		char *line;
	} *deferred;
	size_t n_deferred;
	/* braid extension (mgmt_braid.c): the event poll and the states last sent */
	ev_timer braid_t;
	struct mgmt_braid_seen {
		long cid;
		int id;
		const char *state;	/* a static string (mgmt_bpath_state) */
		struct mgmt_bpath last;	/* for the removed event */
		bool mark;
	} *braid_seen;
	size_t n_braid_seen, cap_braid_seen;
	bool closing_all;		/* mgmt_conn_close_all: no exit on the outgoing connection's end */
	uint64_t rej[BRAID_MGMT_REJ_N];
	ev_tstamp rej_logged[BRAID_MGMT_REJ_N];
	/* the line handler (mgmt_cmd.c), set by mgmt.c */
	void (*dispatch)(struct mgmt_conn *k, const char *line, size_t len);
};

#endif /* BRAID_MGMT_INT_H */
