/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gateway_stats.h - the gateway's counters (braid_gateway_stats(), the
 * SIGUSR2 line, the tests): a header of its own that includes nothing, so
 * the public gateway.h and the gateway's shared structures (gw_types.h)
 * both take it without including each other.
 */
#ifndef BRAID_GATEWAY_STATS_H
#define BRAID_GATEWAY_STATS_H

#include <stdint.h>

struct braid_gateway_stats {
	uint64_t cookie_replies;	/* stateless server resets sent */
	uint64_t cookie_rejected;	/* unknown-address packets that created nothing */
	uint64_t sessions_created;	/* clients created (cookie ACKed or TCP accept) */
	uint64_t clients_removed;
	uint64_t gone_rx_bytes, gone_tx_bytes;	/* the link bytes of removed clients (load-stats) */
	uint64_t max_clients_refused;
	uint64_t connect_freq_refused;	/* connect-freq N S exceeded (UDP) */
	uint64_t auth_failed;		/* AUTH_FAILED sent */
	uint64_t data_unknown_peer;	/* data for no (active) client: dropped */
	uint64_t data_auth_failed;	/* decryption failures */
	uint64_t floats;		/* clients moved to a new source address */
	uint64_t float_refused;		/* float onto another certificate's client address: dropped */
	uint64_t bad_source;		/* inner source address not the client's */
	uint64_t tun_no_route;		/* TUN packets for no client */
	uint64_t c2c_forwarded;		/* client-to-client, inside braidd */
	uint64_t tun_read_pkts, tun_write_pkts;
	uint64_t link_rx_pkts, link_tx_pkts;
	uint64_t xq_handed, xq_received;	/* inner packets handed to / from other workers */
	uint64_t xq_dropped;		/* ... refused: the ring was full */
	uint64_t xq_link_handed, xq_link_taken;	/* datagrams of unknown addresses offered / taken */
	/* batched I/O (gw_io.c) */
	uint64_t link_tx_calls;		/* sendmmsg / sendmsg calls of the data batches */
	uint64_t link_tx_gso;		/* ... UDP GSO messages among them (several datagrams each) */
	uint64_t link_tx_dropped;	/* batched datagrams the socket refused */
	uint64_t link_rx_gro;		/* UDP GRO messages received holding several datagrams */
	uint64_t tun_super_reads;	/* TUN reads of a TCP super-packet (split into segments) */
	uint64_t tun_coalesced;		/* TUN writes of several coalesced segments */
	/* TCP super-packet frames (gw_tcpsuper.c, os/tun_super.h) */
	uint64_t tcp_super_tx, tcp_super_rx;	/* frames sealed / opened and written to the TUN */
	uint64_t tcp_super_bad;		/* frames that failed the check: dropped */
	uint64_t tun_super_writes;	/* TUN writes of a received frame's super-packet */
	unsigned long clients;		/* connected now (any state) */
};

#endif /* BRAID_GATEWAY_STATS_H */
