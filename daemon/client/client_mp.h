/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client_mp.h - multipath of the TLS client towards a Braid gateway
 * (docs/multipath-negotiation.md): accepting the pushed `braid-mp` offer,
 * the multipath data plane (mpath.c) over the `mp-path LOCAL` sockets to the
 * server's address, and its status lines. Internal to the TLS client.
 */
#ifndef BRAID_CLIENT_MP_H
#define BRAID_CLIENT_MP_H

#include <stdbool.h>
#include <stdio.h>

#include "client/client_int.h"
#include "dc/dc.h"

struct braid_dp;

/*
 * After the PUSH_REPLY is parsed: true if multipath is to be used (UDP, not
 * `multipath off`, `braid-mp 1 W` pushed, no compression framing). It then
 * sets the data channel's replay window to the pushed one.
 */
bool client_mp_accept(struct braid_client *c, struct braid_dc_config *dcc);
/* The data channel is up and client_mp_accept said yes: start the data plane. 0 or -errno. */
int client_mp_start(struct braid_client *c);
/* Tear the data plane down (before the data channel is freed). NULL-safe. */
void client_mp_stop(struct braid_client *c);
/* The data plane's side of client_send_payload and the TUN read (c->mp set). */
int client_mp_send_payload(struct braid_client *c, const uint8_t *pl, size_t len);
void client_mp_tun_readable(struct braid_client *c);
/* Datagram bytes the path sockets received / sent (0 without multipath). */
void client_mp_counters(const struct braid_client *c, struct client_stats *out);
/* A reload changed the `mp-backup IF`/`mp-cap IF` of auto interfaces: the data path's copy follows. */
void client_mp_reload_attrs(struct braid_client *c);
/* Status file lines, one per path ("Braid multipath,...") and the SIGUSR2 log lines. */
void client_mp_status(const struct braid_client *c, FILE *f);
void client_mp_log(const struct braid_client *c);
/*
 * The userspace engine behind the session's data path, for the control/
 * helpers that take one, or NULL (no multipath, or a backend without one).
 */
struct braid_dp *client_mp_dp(const struct braid_client *c);
/* The scheduler's name ("" without multipath). */
const char *client_mp_sched_name(const struct braid_client *c);

#endif /* BRAID_CLIENT_MP_H */
