/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tunnel_keepalive.h - the timers and signals of a point-to-point tunnel
 * (tunnel_keepalive.c); w->data: the tunnel.
 */
#ifndef BRAID_TUNNEL_KEEPALIVE_H
#define BRAID_TUNNEL_KEEPALIVE_H

#include <ev.h>

#include "p2p/tunnel_int.h"

/* Every TICK_S: keepalive ping, ping-exit, ping-restart. */
void tunnel_tick_cb(struct ev_loop *loop, ev_timer *w, int revents);
/* SIGTERM/SIGINT exit, SIGHUP/SIGUSR1 restart, SIGUSR2 stats: flags, then the loop breaks. */
void tunnel_signal_cb(struct ev_loop *loop, ev_signal *w, int revents);

#endif /* BRAID_TUNNEL_KEEPALIVE_H */
