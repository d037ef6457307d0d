/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_tcp.h - inside the gateway: TCP connections (accept, the stream's
 * framing, each packet to the data path or the control session).
 */
#ifndef BRAID_GW_TCP_H
#define BRAID_GW_TCP_H

#include "gateway/gw_types.h"

/* The TCP listener is readable (g->sock_r): accept one connection. */
void braid_gw_accept_cb(struct ev_loop *loop, ev_io *w, int revents);

#endif /* BRAID_GW_TCP_H */
