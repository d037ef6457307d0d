/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client_tcpsuper.h - the TLS client's TCP super-packet frames
 * (client_tcpsuper.c; the format is os/tun_super.h): announced, accepted,
 * sent (received: client_payload.c). Internal to the TLS client.
 */
#ifndef BRAID_CLIENT_TCPSUPER_H
#define BRAID_CLIENT_TCPSUPER_H

#include <stddef.h>
#include <stdint.h>

#include "client/client_int.h"
#include "os/tun.h"

/* The peer-info of a new session: with IV_BRAID_TCPSUPER=1 on a TCP session with a vnet TUN. */
const char *client_tcpsuper_peer_info(struct braid_client *c);
/* The server authenticated (KEYS_READY): with frames announced, the stream takes 64 KiB frames. */
void client_tcpsuper_keys_ready(struct braid_client *c);
/* After a PUSH_REPLY: frames on when announced and pushed. */
void client_tcpsuper_accept(struct braid_client *c);
/* A super-packet read from the vnet TUN (split by sp): sent as frames. 0, or -EOPNOTSUPP (frames
 * off, or not a super-packet they carry: the caller splits it as before). */
int client_tcpsuper_send(struct braid_client *c, const struct braid_tun_split *sp);

#endif /* BRAID_CLIENT_TCPSUPER_H */
