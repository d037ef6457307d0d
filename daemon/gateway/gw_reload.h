/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_reload.h - the gateway's live reload (gw_reload.c): started by the
 * reload signal (session/reload.h), no session is dropped.
 */
#ifndef BRAID_GW_RELOAD_H
#define BRAID_GW_RELOAD_H

struct braid_gateway;

/* Watch the reload signal for g (after braid_gateway_new). */
void gw_reload_listen(struct braid_gateway *g);
/* Stop watching it (before braid_gateway_free). */
void gw_reload_unlisten(struct braid_gateway *g);

#endif /* BRAID_GW_RELOAD_H */
