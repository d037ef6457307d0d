/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_ctlsock.h - the gateway's control surface (control/surface.h) and its
 * `control-socket PATH`: status (the gateway's counters and one object per
 * client), clients, paths (per client: a multipath client's engine paths,
 * one row for a stock client), kill CN|ID (the client is sent RESTART and
 * removed) and `set client CN|ID scheduler|path ...` on a multipath
 * client's engine. `set` without a client is refused.
 */
#ifndef BRAID_GW_CTLSOCK_H
#define BRAID_GW_CTLSOCK_H

#include "gateway/gateway.h"

struct braid_control;

/*
 * With `control-socket PATH`: open it on the gateway's loop (*out, else
 * NULL). Call after braid_gateway_new, before the privilege drop; 0 or
 * -errno (logged).
 */
int gw_ctlsock_open(struct braid_gateway *g, struct braid_control **out);
/* Close it (before braid_gateway_free). NULL is fine. */
void gw_ctlsock_close(struct braid_control *ctl);

#endif /* BRAID_GW_CTLSOCK_H */
