/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mgmt_conn.h - the management interface's listener and connections
 * (mgmt_conn.c): a TCP socket (localhost, or another address only with a
 * password file) or a unix socket (0600; 0666 with
 * management-client-user/group, whose peer credentials are then checked),
 * at most BRAID_MGMT_MAX_CONN connections, the password prompt, bounded
 * output per connection, CRLF line ends, counted rejections.
 */
#ifndef BRAID_MGMT_CONN_H
#define BRAID_MGMT_CONN_H

#include <stdarg.h>

#include "control/mgmt_int.h"

/* Open the listener (m->cfg filled, m->loop set). 0 or -errno (logged). */
int mgmt_conn_listen(struct braid_mgmt *m);
/* Close every connection and the listener. */
void mgmt_conn_close_all(struct braid_mgmt *m);
/* Stop every watcher (the sockets stay open) / start them again on m->loop. */
void mgmt_conn_detach(struct braid_mgmt *m);
void mgmt_conn_attach(struct braid_mgmt *m);

/* Queue one line (CRLF appended) / raw bytes to k. */
void mgmt_printf(struct mgmt_conn *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mgmt_write(struct mgmt_conn *k, const char *data, size_t len);
/* Close k once its output is written. */
void mgmt_conn_end(struct mgmt_conn *k);

/* Which connections a notification goes to. */
enum mgmt_to { MGMT_TO_ALL, MGMT_TO_LOG, MGMT_TO_STATE, MGMT_TO_ECHO };
/* Queue one line to every authenticated connection that wants it. */
void mgmt_broadcast(struct braid_mgmt *m, enum mgmt_to to, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A log line (flags: I, W, N, F, D or "") into the history and to `log on` connections. */
void mgmt_log_add(struct braid_mgmt *m, const char *flags, const char *text);

/*
 * Hold notifications back (on) / send the held ones (off): a command whose callback causes
 * notifications answers first, as stock does for client-auth.
 */
void mgmt_defer(struct braid_mgmt *m, bool on);

/* Count a rejection and log it (at most once a second per kind). */
void mgmt_reject(struct braid_mgmt *m, enum braid_mgmt_rej kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The bytecount timer of k: every s seconds (0 = off). */
void mgmt_conn_bytecount(struct mgmt_conn *k, unsigned s);

#endif /* BRAID_MGMT_CONN_H */
