/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tunnel_mgmt.h - the static-key tunnel on the management interface
 * (control/mgmt.h; tunnel_mgmt.c): `status` in OpenVPN's client format,
 * >BYTECOUNT, load-stats, the states CONNECTING, ASSIGN_IP, CONNECTED and
 * EXITING. Opened from main.c after braid_tunnel_new.
 */
#ifndef BRAID_TUNNEL_MGMT_H
#define BRAID_TUNNEL_MGMT_H

#include "p2p/tunnel.h"

struct braid_mgmt;

/* With `management`: listen; *out NULL without it. 0 or -errno (logged). */
int braid_tunnel_mgmt_open(struct braid_tunnel *t, struct braid_mgmt **out);
/* EXITING, then close. NULL m is fine. */
void braid_tunnel_mgmt_close(const struct braid_tunnel *t, struct braid_mgmt *m);

#endif /* BRAID_TUNNEL_MGMT_H */
