/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_mgmt_ev.h - inside the gateway: what it tells the management interface
 * about its clients (gw_mgmt_ev.c): >CLIENT:ESTABLISHED / DISCONNECT with
 * their >CLIENT:ENV blocks (OpenVPN 2.6's client-connect variables plus
 * common_name, username, untrusted_ip/port, n_clients), >CLIENT:ADDRESS.
 * As stock 2.6: ESTABLISHED always, ADDRESS and DISCONNECT only with
 * management-client-auth.
 * Above gw_script.c (the environment), below the client table; no-ops
 * without `management`.
 */
#ifndef BRAID_GW_MGMT_EV_H
#define BRAID_GW_MGMT_EV_H

#include "gateway/gw_types.h"

/* management-client-auth: >CLIENT:CONNECT (or REAUTH),cid,kid (c->mgmt_kid) with the credentials. */
void braid_gw_mgmt_connect(struct gw_client *c, bool reauth);
/* The client became active (pushed, keys installed). */
void braid_gw_mgmt_established(struct gw_client *c);
/*
 * The client's CR_RESPONSE control message (its challenge-response answer):
 * >CLIENT:CR_RESPONSE,cid,kid,B64 with the ENV block (a bad one is counted and dropped).
 */
void braid_gw_mgmt_cr_response(struct gw_client *c, const char *text);
/* An active client is being removed. */
void braid_gw_mgmt_disconnect(struct gw_client *c);
/*
 * `workers N`, worker 0: print the events other workers' clients handed over (their loops cannot
 * write to the interface); called when they wake it, and at stop (mg NULL: only freed).
 */
void braid_gw_mgmt_ev_drain(struct braid_gateway *g);

#endif /* BRAID_GW_MGMT_EV_H */
