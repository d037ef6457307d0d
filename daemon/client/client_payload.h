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

#endif /* BRAID_CLIENT_PAYLOAD_H */
