/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_udp.h - inside the gateway: the UDP socket's datagrams, dispatched by
 * opcode; the stateless cookie for addresses without a client.
 */
#ifndef BRAID_GW_UDP_H
#define BRAID_GW_UDP_H

#include "gateway/gw_types.h"

/* The UDP socket is readable (g->sock_r): up to RX_BATCH datagrams. */
void braid_gw_sock_cb(struct ev_loop *loop, ev_io *w, int revents);

#endif /* BRAID_GW_UDP_H */
