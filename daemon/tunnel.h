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

#include "options.h"

struct braid_tunnel;

struct braid_tunnel_stats {
	uint64_t tun_read_pkts, tun_read_bytes;		/* from the TUN */
	uint64_t tun_write_pkts, tun_write_bytes;	/* to the TUN */
	uint64_t tun_write_errors;
	uint64_t link_tx_pkts, link_tx_bytes;		/* datagrams sent */
	uint64_t link_rx_pkts, link_rx_bytes;		/* datagrams received (all) */
	uint64_t link_tx_errors;
	uint64_t tx_no_peer;		/* TUN packets dropped: no peer address yet */
	uint64_t tx_not_ip;		/* TUN packets that were not IPv4/IPv6 */
	uint64_t rx_auth_failures;	/* tag did not verify */
	uint64_t rx_replays;		/* duplicate / too old */
	uint64_t rx_malformed;		/* truncated, bad opcode, wrong peer-id, unknown key */
	uint64_t rx_wrong_peer;		/* not our peer and no float: dropped unread */
	uint64_t rx_dropped_payload;	/* authenticated but not IP/ping/OCC */
	uint64_t pings_tx, pings_rx;
	uint64_t mss_clamped;
	uint64_t restarts;
};

/* Everything up to the running loop: key, data channel, TUN, socket. 0 or -errno (logged). */
int braid_tunnel_new(struct braid_tunnel **out, struct braid_options *o);
/* Run until SIGTERM/SIGINT or ping-exit. Returns the process exit code. */
int braid_tunnel_run(struct braid_tunnel *t);
void braid_tunnel_stats(const struct braid_tunnel *t, struct braid_tunnel_stats *st);
/* Remove routes/addresses, close TUN and socket, wipe keys. NULL is fine. */
void braid_tunnel_free(struct braid_tunnel *t);

#endif /* BRAID_TUNNEL_H */
