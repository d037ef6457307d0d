/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tunnel_reload.h - the static-key tunnel's live reload (tunnel_reload.c),
 * started by the reload signal (session/reload.h); the tunnel is kept.
 */
#ifndef BRAID_TUNNEL_RELOAD_H
#define BRAID_TUNNEL_RELOAD_H

struct braid_tunnel;

/* Watch the reload signal for t (after braid_tunnel_new). */
void braid_tunnel_reload_listen(struct braid_tunnel *t);
/* Stop watching it (before braid_tunnel_free). */
void braid_tunnel_reload_unlisten(struct braid_tunnel *t);

#endif /* BRAID_TUNNEL_RELOAD_H */
