/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client_io.h - packet I/O of the TLS client: reading the link and the TUN, the
 * data channel out (client_io.c).
 * Internal to the TLS client; the struct is in client_int.h.
 */
#ifndef BRAID_CLIENT_IO_H
#define BRAID_CLIENT_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "client/client_int.h"

/* Encrypt a framed payload and send it (only when the data channel is up). */
void client_send_payload(struct braid_client *c, const uint8_t *pl, size_t len);
/* Send the keepalive ping payload. */
void client_send_ping(struct braid_client *c);
/* TUN readable: packets through mssfix and framing into the data channel. */
void client_tun_read_cb(struct ev_loop *loop, ev_io *w, int revents);
/* Link readable: data packets to the data channel, control packets to the session. */
void client_sock_read_cb(struct ev_loop *loop, ev_io *w, int revents);
/* Link writable: TCP connect completion (then the session starts), or the write queue drains. */
void client_sock_write_cb(struct ev_loop *loop, ev_io *w, int revents);

#endif /* BRAID_CLIENT_IO_H */
