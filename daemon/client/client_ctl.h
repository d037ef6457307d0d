/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client_ctl.h - the control session of the TLS client and the server's messages (client_ctl.c).
 * Internal to the TLS client; the struct is in client_int.h.
 */
#ifndef BRAID_CLIENT_CTL_H
#define BRAID_CLIENT_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "client/client_int.h"

/* Send what the session has queued, handle its events, re-arm its timer. */
void client_pump(struct braid_client *c);
/* The session's deadline passed: pump it. */
void client_ctl_timer_cb(struct ev_loop *loop, ev_timer *w, int revents);
/*
 * Start a control session to the current remote (OCC string for its transport). 0 or -errno
 * (logged).
 */
int client_new_session(struct braid_client *c);

#endif /* BRAID_CLIENT_CTL_H */
