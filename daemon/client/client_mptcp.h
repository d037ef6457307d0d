/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client_mptcp.h - the TLS client's MPTCP transport (`mptcp on|auto` with
 * proto tcp-client): how the TCP link's socket is opened, what the
 * connection turned out to be (MPTCP, or TCP after a fallback: said once),
 * and the endpoints of the client's mp-path lines (dataplane/mptcp_endp.h).
 */
#ifndef BRAID_CLIENT_MPTCP_H
#define BRAID_CLIENT_MPTCP_H

#include <stdbool.h>

#include "client/client_int.h"
#include "os/tcplink.h"

/* The TCP link's socket options (plain TCP when the option is off). */
void client_mptcp_opts(const struct braid_client *c, struct braid_tcplink_opts *op);
/* The TCP connection is established: log MPTCP or the fallback (once, again only on a change). */
void client_mptcp_connected(struct braid_client *c);
/* Whether the session's data path is the MPTCP backend (its paths are subflows). */
bool client_mptcp_wanted(const struct braid_client *c);
/* Endpoints for the mp-path lines: at start, removed at exit. */
void client_mptcp_start(struct braid_client *c);
void client_mptcp_stop(struct braid_client *c);

#endif /* BRAID_CLIENT_MPTCP_H */
