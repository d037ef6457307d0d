/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tunstats.h - the traffic counters of a data plane: the static-key tunnel
 * (p2p/tunnel.c) and every multipath session (dataplane/mpsession.c) keep
 * them, the multipath data plane (mpath.c) updates them, and the status
 * file and the control socket (control/) report them. A header of its own
 * that includes nothing of its users, so they all depend on it downward.
 */
#ifndef BRAID_TUNSTATS_H
#define BRAID_TUNSTATS_H

#include <stdint.h>

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

#endif /* BRAID_TUNSTATS_H */
