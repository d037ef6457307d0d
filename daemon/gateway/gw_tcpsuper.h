/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_tcpsuper.h - inside the gateway: TCP super-packet frames with a Braid
 * client on the TCP/MPTCP transport (gw_tcpsuper.c; the format is
 * os/tun_super.h, the negotiation docs/braidd.md "TCP super-packet frames").
 */
#ifndef BRAID_GW_TCPSUPER_H
#define BRAID_GW_TCPSUPER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gateway/gw_types.h"
#include "os/tun.h"

/*
 * While the push list is built: client c announced IV_BRAID_TCPSUPER=1 on a TCP session and
 * this gateway has a vnet TUN: `braid-tcp-super 1` pushed, c->tcp_super set, its stream takes
 * frames up to 64 KiB. false: not offered (a stock client never sees it).
 */
bool braid_gw_tcpsuper_offer(struct gw_client *c);
/* Test-only environment variable (gw_tcpsuper.c): spoil every Nth frame sent. */
#define BRAID_TCPSUPER_BAD_ENV "BRAID_TEST_TCPSUPER_BAD"
/*
 * A TUN super-packet (split state sp): when its destination is a client of this worker with the
 * frames on, sealed to it as frames, 0; else -EOPNOTSUPP (the caller splits it as before).
 */
int braid_gw_tcpsuper_out(struct braid_gateway *g, const struct braid_tun_split *sp);

#endif /* BRAID_GW_TCPSUPER_H */
