/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gateway_mp.h - multipath for the gateway's Braid clients
 * (docs/multipath-negotiation.md): the `braid-mp` offer in the PUSH_REPLY of
 * a client that announced IV_BRAID_MP, and per such client its own engine
 * (mpath.c on the gateway's shared UDP socket): paths learned from
 * authenticated DATA_V2 packets of that peer-id, validated by
 * PATH_CHALLENGE; nothing of another client's state is touched.
 * Inside the gateway only. Below the client table and the data path (see
 * gw_types.h): what a client's engine decrypts goes up through the deliver
 * callback given to braid_gw_mp_start, never by a call into a higher file.
 */
#ifndef BRAID_GATEWAY_MP_H
#define BRAID_GATEWAY_MP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gateway/gw_types.h"
#include "os/sock.h"

struct braid_dp;

#define BRAID_GW_MP_WINDOW 65536	/* replay window of a multipath session */
/*
 * A client that was offered multipath but has not validated a path this long
 * after the engine started, while its packets arrive, did not take it up (it
 * speaks no version we offered, or declined): it goes on single-path.
 */
#define BRAID_GW_MP_CONFIRM_MS 5000
#define BRAID_GW_MP_CONFIRM_PKTS 3

/* An authenticated payload of client c (gw_data.c's braid_gw_deliver). */
typedef void (*braid_gw_mp_deliver_fn)(struct gw_client *c, uint8_t *p, size_t len);

/*
 * After the push list is built: with `multipath on`, UDP, peer-id (DATA_V2),
 * no compression framing and a valid IV_BRAID_MP in the client's peer-info,
 * append `braid-mp V 65536` to it, V the highest version both speak
 * (docs/multipath-negotiation.md §2.1). An IV_BRAID_MP that is not a version
 * is logged: single path. true if offered (the caller then uses
 * BRAID_GW_MP_WINDOW for the data channel and calls braid_gw_mp_start).
 */
bool braid_gw_mp_offer(struct gw_client *c);
/* The client is active with its data channel: create its engine, whose payloads go to deliver. 0 or -errno. */
int braid_gw_mp_start(struct gw_client *c, braid_gw_mp_deliver_fn deliver);
/* Free the client's engine (kill / free; idempotent). */
void braid_gw_mp_stop(struct gw_client *c);
/* A DATA_V2 datagram with this client's peer-id, from any address. */
void braid_gw_mp_input(struct gw_client *c, const uint8_t *pkt, size_t len,
		       const union braid_sockaddr *from);
/* A payload for the client (IP packet from the TUN or another client, ping, OCC). */
void braid_gw_mp_send(struct gw_client *c, const uint8_t *p, size_t len);
/* The userspace engine behind c's data path (for control/), or NULL. */
struct braid_dp *braid_gw_mp_dp(const struct gw_client *c);
/* How many paths c's data path has (1 for a stock client). */
int braid_gw_mp_paths(const struct gw_client *c);
/*
 * Once a second per active client: a multipath client that did not take up
 * the offer (BRAID_GW_MP_CONFIRM_MS) loses its engine (logged). true if it
 * fell back: the caller then gives it a single-path data path.
 */
bool braid_gw_mp_check(struct gw_client *c, int64_t now_ms);
/* SIGUSR2 / exit: one log line per path of every multipath client. */
void braid_gw_mp_log(const struct braid_gateway *g);

#endif /* BRAID_GATEWAY_MP_H */
