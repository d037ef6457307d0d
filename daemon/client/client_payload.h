/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client_payload.h - what the TLS client does with an authenticated payload
 * from the data channel (client_payload.c), single path or multipath.
 * Internal to the TLS client; the struct is in client_int.h.
 */
#ifndef BRAID_CLIENT_PAYLOAD_H
#define BRAID_CLIENT_PAYLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "client/client_int.h"

/* An authenticated payload (IP, ping, OCC) from the data channel, after decryption. */
void client_rx_payload(struct braid_client *c, uint8_t *plain, size_t plen);
/*
 * One IP packet to the TUN: on a vnet device into the coalescer (written by
 * client_tun_flush(), at once unless a socket read runs: c->rx_open).
 */
void client_tun_write(struct braid_client *c, const uint8_t *ip, size_t len);
void client_tun_flush(struct braid_client *c);

#endif /* BRAID_CLIENT_PAYLOAD_H */
