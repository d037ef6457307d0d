/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mpath_rx.h - the receive side of the multipath data plane (mpath_rx.c),
 * internal to the mpath files.
 */
#ifndef BRAID_MPATH_RX_H
#define BRAID_MPATH_RX_H

#include <ev.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dataplane/mpath_int.h"

/* One datagram read on socket sock (not yet decrypted), arrived at now. */
void mpath_rx_one(struct braid_mpath *m, int sock, const uint8_t *pkt, size_t len,
		  const union braid_sockaddr *from, uint64_t now);
/* A path socket is readable (w->data: its struct msock). */
void mpath_sock_read_cb(struct ev_loop *loop, ev_io *w, int revents);

#endif /* BRAID_MPATH_RX_H */
