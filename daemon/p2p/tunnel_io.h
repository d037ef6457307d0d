/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tunnel_io.h - the I/O of a point-to-point tunnel (tunnel_io.c): the libev
 * callbacks of the TUN and the UDP socket (w->data: the tunnel), the
 * daemon's own payloads, the multipath hooks (user: the tunnel).
 */
#ifndef BRAID_TUNNEL_IO_H
#define BRAID_TUNNEL_IO_H

#include <ev.h>
#include <stddef.h>
#include <stdint.h>

#include "p2p/tunnel_int.h"

/* The mssfix clamp for the current outer header (IPv4 or IPv6 peer / sockets). */
void tunnel_update_mssfix(struct braid_tunnel *t);
void tunnel_tun_read_cb(struct ev_loop *loop, ev_io *w, int revents);
void tunnel_sock_read_cb(struct ev_loop *loop, ev_io *w, int revents);
/* The socket is writable again: send the rest of the batch. */
void tunnel_sock_write_cb(struct ev_loop *loop, ev_io *w, int revents);
/* A payload the daemon generates itself (ping), sent at once on the peer path. */
void tunnel_send_control_payload(struct braid_tunnel *t, const uint8_t *pl, size_t len);

/* Open the single-path data path over t->dc (closing an old one). 0 or -errno. */
int tunnel_sp_open(struct braid_tunnel *t);

/* The role's callbacks (struct braid_dp_role) for the multipath data path. */
void tunnel_mp_deliver(void *user, uint8_t *payload, size_t len);
int tunnel_mp_rx_auth(void *user, const union braid_sockaddr *from, size_t len);
void tunnel_mp_activity(void *user, bool rx);

#endif /* BRAID_TUNNEL_IO_H */
