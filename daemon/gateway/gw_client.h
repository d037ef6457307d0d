/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_client.h - inside the gateway: one client's control channel from the
 * first packet on: TLS and key-method 2 through its session, authentication
 * (certificate, auth-user-pass-verify, client-config-dir, duplicate-cn),
 * address, client-connect, PUSH_REPLY and data keys, renegotiations. The
 * shared structures are in gw_types.h (included here, with the client
 * table, for the files above). Not an API for anything else.
 */
#ifndef BRAID_GW_CLIENT_H
#define BRAID_GW_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gateway/gw_table.h"
#include "gateway/gw_types.h"

/* Send what the control session has, handle its events, re-arm its timer. */
void braid_gw_ctl_run(struct gw_client *c);
/* A client's control timer (c->ctl_t). */
void braid_gw_ctl_cb(struct ev_loop *loop, ev_timer *w, int revents);
/* A control packet of client c (UDP datagram or TCP frame): its session, then braid_gw_ctl_run. */
void braid_gw_on_control(struct gw_client *c, const uint8_t *pkt, size_t len);
/* Check a running auth-user-pass-verify / client-connect script and act on its result. */
void braid_gw_auth_poll(struct gw_client *c);
/*
 * management-client-auth: the answer for c, waiting since >CLIENT:CONNECT. ok: go on with
 * config (client-connect syntax, may be NULL); else AUTH_FAILED[,client_reason].
 */
void braid_gw_mgmt_answer(struct gw_client *c, bool ok, const char *reason,
			  const char *client_reason, const char *config);

#endif /* BRAID_GW_CLIENT_H */
