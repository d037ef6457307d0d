/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client_connect.h - remote list, connect and restart policy of the TLS client (client_connect.c).
 * Internal to the TLS client; the struct is in client_int.h.
 */
#ifndef BRAID_CLIENT_CONNECT_H
#define BRAID_CLIENT_CONNECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "client/client_int.h"

/*
 * Resolve the current remote, open and connect its socket, start the session (UDP) or the TCP
 * connect. 0 or -errno (logged).
 */
int client_open_session_socket(struct braid_client *c);
/* Connect to the current remote; on failure request a restart on the next one. */
void client_start_connect(struct braid_client *c);
/* The restart pause is over: connect. */
void client_retry_cb(struct ev_loop *loop, ev_timer *w, int revents);
/* Drop the session, data channel, pushed network settings and link; the TUN stays. */
void client_teardown_session(struct braid_client *c);
/*
 * Restart after client_request_restart: tear down, pick the remote, wait the restart pause (or
 * exit at connect-retry-max).
 */
void client_do_restart(struct braid_client *c);
/* The order of the remote list: as configured, or shuffled once with remote-random. */
void client_remote_order(struct braid_client *c);

#endif /* BRAID_CLIENT_CONNECT_H */
