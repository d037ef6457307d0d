/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_mgmt.h - the gateway on the management interface (control/mgmt.h;
 * gw_mgmt.c): `status 1|2|3` in OpenVPN's server formats, >BYTECOUNT_CLI
 * per client, load-stats, `kill CN|IP:port`, `client-kill CID [MSG]`, the
 * server's states (CONNECTING, ASSIGN_IP, CONNECTED, EXITING), management-hold. The client
 * events are in gw_mgmt_ev.c. Opened from main.c beside the control socket.
 */
#ifndef BRAID_GW_MGMT_H
#define BRAID_GW_MGMT_H

#include <stdbool.h>

#include "gateway/gateway.h"

/* With `management`: listen (g->mg). 0 or -errno (logged). */
int gw_mgmt_open(struct braid_gateway *g);
/* EXITING, then close (before braid_gateway_free). NULL g is fine. */
void gw_mgmt_close(struct braid_gateway *g);
/*
 * management-hold: announce >HOLD and stop taking packets on the gateway's socket until `hold
 * release` (then serve and send >UPDOWN:UP). true if it holds.
 */
bool gw_mgmt_hold(struct braid_gateway *g);

#endif /* BRAID_GW_MGMT_H */
