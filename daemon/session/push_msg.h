/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * push_msg.h - the push/pull control messages (push_msg.c): a PUSH_REPLY
 * split into parts and accumulated from them, pull-filter and
 * route-nopull, and the other control messages classified. Included by
 * push.h, where the flow is described.
 */
#ifndef BRAID_PUSH_MSG_H
#define BRAID_PUSH_MSG_H

#include <stdbool.h>
#include <stddef.h>

#include "config/options.h"

#define BRAID_PUSH_MSG_MAX 1024
#define BRAID_PUSH_MAX_OPTS 256

/* The options received so far (strings owned by the list). */
struct braid_push_list {
	char *opt[BRAID_PUSH_MAX_OPTS];
	unsigned int n;
	unsigned int parts;
	bool complete;
};

void braid_push_list_clear(struct braid_push_list *l);

/*
 * Feed one received control message starting with "PUSH_REPLY". Returns 1
 * when the reply is complete, 0 if more parts are expected, -EBADMSG (not a
 * PUSH_REPLY, empty option, too many options) or -ENOMEM, with err set.
 * A message after a complete reply starts a new list.
 */
int braid_push_accumulate(struct braid_push_list *l, const char *msg, char *err, size_t err_len);

/*
 * Split an option list into PUSH_REPLY messages of at most max_len bytes
 * (0: BRAID_PUSH_MSG_MAX), calling emit for each in order. With more than
 * one message, each carries ",push-continuation 2" except the last, which
 * carries ",push-continuation 1". -EMSGSIZE if one option cannot fit, -EINVAL
 * for an option containing a comma, or emit's error.
 */
int braid_push_split(const char *const *opts, unsigned int n, size_t max_len,
		     int (*emit)(void *user, const char *msg), void *user);

/*
 * Apply pull-filter rules (first match wins, no match = accept) and
 * route-nopull (drops route, route-ipv6, redirect-gateway, redirect-private,
 * dhcp-option, dns, block-outside-dns). Dropped options are logged.
 * -EPERM with err naming the option when a `reject` rule matched.
 */
int braid_push_filter(struct braid_push_list *l, const struct braid_opt_pull_filter *rules,
		      unsigned int n_rules, bool route_nopull, char *err, size_t err_len);

/*
 * The other control messages (fact sheet §6), classified for dispatch:
 *   PUSH_REQUEST, PUSH_REPLY,...
 *   AUTH_FAILED[,reason]          AUTH_FAILED,TEMP[backoff N,advance addr|remote|no]:reason
 *   AUTH_PENDING[,timeout N]      RESTART[,[flags]msg] (flag N = next remote)   HALT[,msg]
 *   EXIT                          INFO,text / INFO_PRE,text
 */
enum braid_ctl_msg_kind {
	BRAID_MSG_UNKNOWN = 0,
	BRAID_MSG_PUSH_REQUEST,
	BRAID_MSG_PUSH_REPLY,
	BRAID_MSG_AUTH_FAILED,
	BRAID_MSG_AUTH_PENDING,
	BRAID_MSG_RESTART,
	BRAID_MSG_HALT,
	BRAID_MSG_EXIT,
	BRAID_MSG_INFO,
};

struct braid_ctl_msg {
	enum braid_ctl_msg_kind kind;
	bool temp;		/* AUTH_FAILED,TEMP */
	int backoff;		/* AUTH_FAILED,TEMP[backoff N]: seconds, -1 = none */
	int advance;		/* AUTH_FAILED,TEMP[advance ...]: 0 no, 1 addr/remote, -1 not given */
	int timeout;		/* AUTH_PENDING,timeout N: seconds, -1 = none */
	bool next_remote;	/* RESTART,[N]... */
	const char *text;	/* the reason / message part (points into the input), "" if none */
};

/* Classify one control message. Never fails: unknown messages are BRAID_MSG_UNKNOWN. */
void braid_ctl_msg_parse(const char *msg, struct braid_ctl_msg *out);

#endif /* BRAID_PUSH_MSG_H */
