// SPDX-License-Identifier: GPL-2.0-only
/*
 * tunnel_reload.c - the static-key tunnel's live reload (tunnel_reload.h):
 * verb at once (session/reload.c), mp-scheduler, mp-path lines added,
 * removed or changed and their backup/cap on the running multipath engine
 * (whose sockets outlive its restarts);
 * everything else is logged as needing a restart.
 */
#include "p2p/tunnel_reload.h"

#include "p2p/tunnel_int.h"
#include "session/reload.h"

static void on_reload(void *user)
{
	struct braid_tunnel *t = user;
	struct braid_reload_diff d;
	int r = braid_reload_begin(t->o, &d);

	if (!r)
		braid_reload_apply_dp(t->mpd, t->o, &d, NULL);
	braid_reload_end(t->loop, r, &d);
}

void braid_tunnel_reload_listen(struct braid_tunnel *t)
{
	braid_reload_listen(t->loop, on_reload, t);
}

void braid_tunnel_reload_unlisten(struct braid_tunnel *t)
{
	braid_reload_unlisten(t->loop);
}
