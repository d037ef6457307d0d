/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client_link.h - the TLS client's link to the server (client_link.c):
 * sending one packet on the UDP socket or TCP link, and closing it.
 * Internal to the TLS client; the struct is in client_int.h.
 */
#ifndef BRAID_CLIENT_LINK_H
#define BRAID_CLIENT_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "client/client_int.h"

/* Send one packet on the link (UDP, or framed on TCP); counts it. 0 or -errno. */
int client_link_send(struct braid_client *c, const uint8_t *pkt, size_t len);
/* Stop the socket watchers and close the UDP socket or TCP link. */
void client_close_link(struct braid_client *c);

#endif /* BRAID_CLIENT_LINK_H */
