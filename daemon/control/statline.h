/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * statline.h - the stats log line (SIGUSR2, exit) of the tunnel (tunnel.c)
 * and the TLS client (client_status.c): the traffic counters both have, then
 * the role's own (statline.c).
 */
#ifndef BRAID_STATLINE_H
#define BRAID_STATLINE_H

#include <stddef.h>
#include <stdint.h>

/* How many values BRAID_STATLINE_TRAFFIC gives. */
#define BRAID_STATLINE_N_TRAFFIC 11

/*
 * The traffic values, in the line's order, from a stats struct s with these
 * field names (struct braid_tunnel_stats, the TLS client's struct client_stats):
 * the start of the values array braid_statline_log takes.
 */
#define BRAID_STATLINE_TRAFFIC(s)                                                          \
	(s)->tun_read_pkts, (s)->tun_read_bytes, (s)->tun_write_pkts, (s)->tun_write_bytes, \
		(s)->link_tx_pkts, (s)->link_tx_bytes, (s)->link_rx_pkts, (s)->link_rx_bytes, \
		(s)->rx_auth_failures, (s)->rx_replays, (s)->rx_malformed

/*
 * Log (info) "WHAT: tun_read=P/BB tun_write=P/BB link_tx=P/BB link_rx=P/BB
 * auth_failures=N replays=N malformed=N NAME=N ...": v holds the
 * BRAID_STATLINE_N_TRAFFIC traffic values, then one value for each
 * space-separated name in names (n values in all).
 */
void braid_statline_log(const char *what, const char *names, const uint64_t *v, size_t n);

#endif
