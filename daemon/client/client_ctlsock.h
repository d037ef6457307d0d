/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client_ctlsock.h - the TLS client's control surface (control/surface.h)
 * and its `control-socket PATH`: status (session state, remote, cipher,
 * traffic counters and the path table: the multipath engine's paths, or one
 * row for the single path), paths, and `set scheduler` / `set path` on the
 * multipath engine of the current session. Gateway commands (clients, kill,
 * set client) are refused.
 */
#ifndef BRAID_CLIENT_CTLSOCK_H
#define BRAID_CLIENT_CTLSOCK_H

#include "client/client.h"

struct braid_control;

/*
 * With `control-socket PATH`: open it on the client's loop (*out, else
 * NULL). Call after braid_client_new, before braid_client_run; 0 or -errno
 * (logged).
 */
int client_ctlsock_open(struct braid_client *c, struct braid_control **out);
/* Close it (before braid_client_free). NULL is fine. */
void client_ctlsock_close(struct braid_control *ctl);

#endif /* BRAID_CLIENT_CTLSOCK_H */
