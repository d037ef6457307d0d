/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client_mgmt.h - the TLS client on the management interface
 * (control/mgmt.h; client_mgmt.c): its state changes in stock's order
 * (CONNECTING, TCP_CONNECT, WAIT, AUTH, GET_CONFIG, ASSIGN_IP, ADD_ROUTES,
 * CONNECTED, RECONNECTING, EXITING), `status` in the client format,
 * bytecounts, the hold before each connection (management-hold) and the
 * username/password query (management-query-passwords). At the bottom of
 * the client's files (client_int.h): any of them may call it; it calls
 * only client_status.c and client_mp.c, and starts a connection through
 * the retry timer, never directly.
 */
#ifndef BRAID_CLIENT_MGMT_H
#define BRAID_CLIENT_MGMT_H

#include <stdbool.h>

#include "client/client_int.h"

/* With `management`: listen, announce CONNECTING. 0 or -errno (logged). */
int client_mgmt_open(struct braid_client *c);
void client_mgmt_close(struct braid_client *c);

/*
 * Before a connection attempt: true to go on; false while the hold is not
 * released or the queried credentials are missing (the connection then
 * starts from the retry timer once they are).
 */
bool client_mgmt_gate(struct braid_client *c);

/* A state change; desc may be NULL. The addresses come from c. */
void client_mgmt_state(struct braid_client *c, const char *name, const char *desc);
/* A SIGHUP reload ends this client: RECONNECTING,SIGHUP; queried credentials kept for the next. */
void client_mgmt_reload(struct braid_client *c);
/* A packet from the server arrived during the handshake: AUTH (once per session). */
void client_mgmt_auth_seen(struct braid_client *c);
/* From the tick: still no PUSH_REPLY 1 s after the keys: GET_CONFIG (once per session), as stock. */
void client_mgmt_push_wait(struct braid_client *c);
/* AUTH_FAILED: credentials from the management interface are dropped and asked again. */
void client_mgmt_auth_failed(struct braid_client *c);

#endif /* BRAID_CLIENT_MGMT_H */
