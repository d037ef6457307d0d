// SPDX-License-Identifier: GPL-2.0-only
/*
 * tunnel_keepalive.c - the timers and signals of a point-to-point tunnel:
 * the keepalive ping, ping-restart and ping-exit, and SIGTERM/SIGINT,
 * SIGHUP (full restart: main.c reads the configuration again), SIGUSR1
 * (session restart) and SIGUSR2, which only set flags and break the loop for
 * braid_tunnel_run (tunnel.c) to act on.
 */
#include "p2p/tunnel_keepalive.h"

#include <signal.h>

#include "config/config.h"
#include "dc/payload.h"
#include "util/log.h"
#include "p2p/tunnel_io.h"

void tunnel_tick_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct braid_tunnel *t = w->data;
	const struct braid_options *o = t->o;
	ev_tstamp now = ev_now(loop);

	(void)revents;
	bool has_peer = t->mpd ? braid_dp_has_peer(t->mpd) : t->ps.path[0].has_peer;

	if (o->ping && has_peer && now - t->last_tx >= o->ping) {
		uint8_t ping[BRAID_PING_LEN + 2];
		size_t len;

		if (!braid_payload_build_ping(BRAID_COMP_NONE, ping, sizeof(ping), &len)) {
			if (t->mpd)
				braid_dp_send(t->mpd, ping, len);
			else
				tunnel_send_control_payload(t, ping, len);
			t->st.pings_tx++;
		}
	}
	/* nothing to time out while we wait for a first peer */
	if (!t->has_remote && !has_peer)
		return;
	if (o->ping_exit && now - t->last_rx >= o->ping_exit) {
		braid_info("Inactivity timeout (--ping-exit), exiting");
		t->exit_req = true;
		t->exit_code = 0;
		ev_break(loop, EVBREAK_ONE);
	} else if (o->ping_restart && now - t->last_rx >= o->ping_restart && !t->restart_reason) {
		braid_info("Inactivity timeout (--ping-restart), restarting");
		t->restart_reason = "ping-restart";
		ev_break(loop, EVBREAK_ONE);
	}
}

void tunnel_signal_cb(struct ev_loop *loop, ev_signal *w, int revents)
{
	struct braid_tunnel *t = w->data;

	(void)revents;
	switch (w->signum) {
	case SIGTERM:
	case SIGINT:
		braid_info("%s[hard,] received, process exiting",
			   w->signum == SIGTERM ? "SIGTERM" : "SIGINT");
		t->exit_req = true;
		t->exit_code = 0;
		break;
	case SIGHUP:
		if (braid_run_can_reload(t->o)) {
			braid_info("SIGHUP[hard,] received, process restarting");
			braid_info("state: RECONNECTING (SIGHUP)");
			t->reload_req = t->exit_req = true;
			break;
		}
		braid_info("SIGHUP: privileges were dropped, the configuration cannot be applied "
			   "again; restarting the session instead (as SIGUSR1)");
		/* fall through */
	case SIGUSR1:
		if (!t->restart_reason)
			t->restart_reason = w->signum == SIGHUP ? "SIGHUP" : "SIGUSR1";
		break;
	case SIGUSR2:
		t->stats_req = true;
		break;
	}
	ev_break(loop, EVBREAK_ONE);
}
