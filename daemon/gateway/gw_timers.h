/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_timers.h - inside the gateway: the 1 s tick, the auth-script polling
 * timer, the status file and the counters line.
 */
#ifndef BRAID_GW_TIMERS_H
#define BRAID_GW_TIMERS_H

#include <stdio.h>

#include "gateway/gw_types.h"

/* g->tick, every second: client timeouts, pings, renegotiations, scripts, status, pool. */
void braid_gw_tick_cb(struct ev_loop *loop, ev_timer *w, int revents);
/* g->auth_t, every 50 ms while auth / client-connect scripts run. */
void braid_gw_auth_cb(struct ev_loop *loop, ev_timer *w, int revents);
/* The "gateway stats: ..." line and the multipath clients' path lines (SIGUSR2, exit). */
void braid_gw_log_stats(const struct braid_gateway *g);
/*
 * The status in OpenVPN's server format (status-version 1..3) with title to f; f NULL: the
 * `status` file (its own version and title). 0 or -errno.
 */
int braid_gw_status_print(struct braid_gateway *g, FILE *f, int version, const char *title);

#endif /* BRAID_GW_TIMERS_H */
