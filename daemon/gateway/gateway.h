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
#include "gateway/gateway_stats.h"

struct braid_gateway;

/* Everything up to the running loop: TLS context, pool, TUN, sockets. 0 or -errno (logged). */
int braid_gateway_new(struct braid_gateway **out, struct braid_options *o);
/* Run until SIGTERM/SIGINT (the exit code) or SIGHUP (BRAID_RUN_RELOAD); SIGUSR1 restarts inside. */
int braid_gateway_run(struct braid_gateway *g);
void braid_gateway_stats(const struct braid_gateway *g, struct braid_gateway_stats *st);
/* Disconnect every client, close TUN and sockets, wipe keys. NULL is fine. */
void braid_gateway_free(struct braid_gateway *g);

#endif /* BRAID_GATEWAY_H */
