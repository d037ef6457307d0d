/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gateway.h - braidd's gateway (server) mode: many stock OpenVPN 2.6 (or
 * Braid) clients on one UDP socket or one TCP listener and one TUN device,
 * on a libev loop (docs/braidd.md "Gateway mode").
 *
 *   UDP datagram --> opcode:
 *     DATA_V2   -> client by peer-id -> decrypt -> (new source address:
 *                  float, only after the packet authenticated)
 *     DATA_V1   -> client by source address -> decrypt
 *     control   -> client by source address -> its control session;
 *                  unknown address: HARD_RESET_CLIENT_V2 gets the stateless
 *                  cookie reply (nothing allocated), any other packet must
 *                  carry a valid cookie ACK to create the client
 *   decrypted -> unframe (compression stub) -> ping / OCC EXIT / IP:
 *     source must be the client's (its address or iroute), destination by
 *     the inner routing table: another client (client-to-client) or TUN
 *   TUN -> destination by the inner routing table -> that client's data
 *     channel (peer-id, key slots per key_id)
 *
 * A client's life: cookie round trip (UDP) or accept (TCP) -> TLS +
 * key-method 2 -> authentication (certificate, optional
 * auth-user-pass-verify script, client-config-dir, duplicate-cn) -> address
 * (ccd ifconfig-push or the pool) -> PUSH_REPLY (gw_push.h) + data keys ->
 * active (keepalive, renegotiations, floats) -> removed on explicit exit
 * (control EXIT or OCC EXIT), ping-restart timeout (the server uses twice
 * the pushed value), a newer connection with the same CN (without
 * duplicate-cn), a fatal control error, or shutdown. Removal frees its
 * peer-id, routes and pool entry at once.
 *
 * Signals: SIGTERM/SIGINT end the loop; SIGUSR2 logs the counters.
 */
#ifndef BRAID_GATEWAY_H
#define BRAID_GATEWAY_H

#include <stdint.h>

#include "config/options.h"

struct braid_gateway;

struct braid_gateway_stats {
	uint64_t cookie_replies;	/* stateless server resets sent */
	uint64_t cookie_rejected;	/* unknown-address packets that created nothing */
	uint64_t sessions_created;	/* clients created (cookie ACKed or TCP accept) */
	uint64_t clients_removed;
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
	unsigned long clients;		/* connected now (any state) */
};

/* Everything up to the running loop: TLS context, pool, TUN, sockets. 0 or -errno (logged). */
int braid_gateway_new(struct braid_gateway **out, struct braid_options *o);
/* Run until SIGTERM/SIGINT. Returns the process exit code. */
int braid_gateway_run(struct braid_gateway *g);
void braid_gateway_stats(const struct braid_gateway *g, struct braid_gateway_stats *st);
/* Disconnect every client, close TUN and sockets, wipe keys. NULL is fine. */
void braid_gateway_free(struct braid_gateway *g);

#endif /* BRAID_GATEWAY_H */
