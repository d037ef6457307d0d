/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tunnel.h - one point-to-point tunnel on a libev loop: the TUN device, the
 * UDP socket, the path set and the static-key data channel.
 *
 *   TUN --read--> mssfix --> encrypt (dc) --> path set picks the path --> sendmmsg
 *   recvmmsg --> path set (source check) --> decrypt --> learn/float peer -->
 *            classify: IP --> mssfix --> TUN; ping: keepalive; OCC EXIT: restart
 *
 * Keepalive: a ping after `ping` seconds without sending; `ping-restart`
 * seconds without an authenticated packet restart the session (fresh replay
 * state, next remote / forget the learned peer; TUN and key are kept);
 * `ping-exit` ends the process.
 *
 * Signals (ev_signal: the callbacks run in the loop, they only set flags
 * and break it): SIGTERM/SIGINT exit, SIGHUP/SIGUSR1 restart, SIGUSR2 logs
 * the counters.
 */
#ifndef BRAID_TUNNEL_H
#define BRAID_TUNNEL_H

#include <stdint.h>

#include "config/options.h"
#include "dataplane/tunstats.h"

struct braid_tunnel;

/* Everything up to the running loop: key, data channel, TUN, socket. 0 or -errno (logged). */
int braid_tunnel_new(struct braid_tunnel **out, struct braid_options *o);
/* Run until SIGTERM/SIGINT, ping-exit or SIGHUP: the exit code, or BRAID_RUN_RELOAD (SIGHUP). */
int braid_tunnel_run(struct braid_tunnel *t);
void braid_tunnel_stats(const struct braid_tunnel *t, struct braid_tunnel_stats *st);
/* Remove routes/addresses, close TUN and socket, wipe keys. NULL is fine. */
void braid_tunnel_free(struct braid_tunnel *t);

#endif /* BRAID_TUNNEL_H */
