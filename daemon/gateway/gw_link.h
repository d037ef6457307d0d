/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_link.h - inside the gateway: one packet (control or data, already
 * encrypted) to a client, as a UDP datagram or a frame on its TCP write
 * queue. Above the client table (a TCP write error removes the client).
 */
#ifndef BRAID_GW_LINK_H
#define BRAID_GW_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "gateway/gw_types.h"

/* One packet to the client: UDP datagram or TCP frame (counted in link_tx_pkts, tx_bytes). */
void braid_gw_send_raw(struct gw_client *c, const uint8_t *pkt, size_t len);
/* A TCP client's socket is writable: flush its write queue (the client's io_w callback). */
void braid_gw_tcp_w_cb(struct ev_loop *loop, ev_io *w, int revents);

#endif /* BRAID_GW_LINK_H */
