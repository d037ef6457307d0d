/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * control.h - braidd's control socket (`control-socket PATH`): a UNIX
 * stream socket (mode 0600) speaking the line protocol of ctlproto.h /
 * docs/control-protocol.md on the daemon's libev loop.
 *
 * Every client is non-blocking with a bounded input line
 * (BRAID_CTL_LINE_MAX) and a bounded reply buffer; requests on one
 * connection are answered in order, one at a time (the next line is read
 * only when the previous reply is out). At most BRAID_CONTROL_MAX_CLIENTS
 * at once; a client idle for BRAID_CONTROL_IDLE_S seconds is closed.
 *
 * The daemon supplies what the commands do (the control surface of
 * surface.h, one per role): the server never touches the tunnel, a client
 * or the engine itself.
 */
#ifndef BRAID_CONTROL_H
#define BRAID_CONTROL_H

#include <ev.h>
#include <stdint.h>
#include <stdio.h>

#include "control/ctlproto.h"
#include "control/surface.h"

#define BRAID_CONTROL_MAX_CLIENTS 16
#define BRAID_CONTROL_IDLE_S 30.0
#define BRAID_CONTROL_REPLY_MAX (1u << 20)

struct braid_control;

/*
 * Create the socket at path (a stale socket left by a dead daemon is
 * replaced; a live one is -EADDRINUSE) and start accepting. 0 or -errno
 * (logged).
 */
int braid_control_new(struct braid_control **out, struct ev_loop *loop, const char *path,
		      const struct braid_control_ops *ops);
/* Close every client and the socket, unlink it. NULL is fine. */
void braid_control_free(struct braid_control *c);

/*
 * Answer one request line into f (the whole reply, blank line included).
 * Exposed for the unit tests; the server uses it for every request.
 */
void braid_control_answer(const struct braid_control_ops *ops, const char *line, size_t len,
			  FILE *f);

#endif /* BRAID_CONTROL_H */
