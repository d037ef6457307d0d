/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_data.h - inside the gateway: the data path. A client's data packet:
 * decrypt (or hold it while a renegotiated key is re-authorised), float to
 * a new source address only after it authenticated, the inner source
 * checked against the client's addresses and iroutes, then to the TUN or
 * another client (client-to-client); a Braid client's TCP super-packet frame
 * checked and written to the TUN whole. TUN reads: the inner routing table
 * picks the client, its data channel (or multipath engine) sends.
 */
#ifndef BRAID_GW_DATA_H
#define BRAID_GW_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gateway/gw_types.h"

/* Frame, encrypt and send one payload (IP packet, ping, OCC) to an active client. */
void braid_gw_send_payload(struct gw_client *c, const uint8_t *p, size_t len);
/* A data packet for client c (matched by peer-id or address; from NULL: its address or TCP). */
/* Open client c's single-path data path over c->dc (backend_sp.c). 0 or -errno. */
int braid_gw_sp_start(struct gw_client *c);

void braid_gw_on_data(struct gw_client *c, uint8_t *pkt, size_t len, const union braid_sockaddr *from);
/* An authenticated payload of client c (IP to the TUN or another client, OCC). */
void braid_gw_deliver(struct gw_client *c, uint8_t *p, size_t len);
/* Deliver the packets held for reauth_key (its key is installed now), or drop them. */
void braid_gw_release_held(struct gw_client *c, bool deliver);
/*
 * An inner packet (p in g->buf at HEADROOM, or anywhere) to the client its destination routes to:
 * sent on this worker, or handed to the owning worker's ring (tun: counted as TUN traffic). The
 * packet must not be in g->xbuf.
 */
void braid_gw_inner_out(struct braid_gateway *g, uint8_t *p, size_t n, bool tun);
/* The TUN is readable (g->tun_r). */
void braid_gw_tun_cb(struct ev_loop *loop, ev_io *w, int revents);

#endif /* BRAID_GW_DATA_H */
