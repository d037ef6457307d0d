/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mpath_tx.h - the transmit side of the multipath data plane (mpath_tx.c):
 * what goes into the tunnel, from the TUN or from the daemon. Part of the
 * data plane's interface: mpath.h includes it.
 */
#ifndef BRAID_MPATH_TX_H
#define BRAID_MPATH_TX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct braid_mpath;

/* One IP packet to send (the gateway's TUN read): clamped, classified, queued, pumped. */
int braid_mpath_send_ip(struct braid_mpath *m, const uint8_t *ip, size_t len);
/* The TUN fd is readable: read, clamp, classify, queue. */
void braid_mpath_tun_readable(struct braid_mpath *m, int tun_fd);
/*
 * The TUN device the data plane may write to itself. With vnet (the device
 * was opened by braid_tun_open_vnet and has t->vnet): reads are split from
 * TCP super-packets, and IP payloads are no longer handed to hooks.deliver
 * but coalesced (braid_tun_gro) and written here, MSS-clamped with the mss
 * given at braid_mpath_new, counted in the tunnel stats (tun_write_*);
 * pings and OCC still go to hooks.deliver. 0 or -ENOMEM.
 */
int braid_mpath_attach_tun(struct braid_mpath *m, int tun_fd, bool vnet);
/* Send a payload the daemon makes itself (keepalive ping) through the engine. */
int braid_mpath_send_payload(struct braid_mpath *m, const uint8_t *pl, size_t len);

#endif /* BRAID_MPATH_TX_H */
