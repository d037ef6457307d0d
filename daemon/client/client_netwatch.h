/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client_netwatch.h - the TLS client follows the host's network
 * (rtnetlink): when its local address goes away it reconnects at once
 * instead of waiting for ping-restart, and when addresses come back after
 * an outage (resume, roaming, a new DHCP lease) it cuts the restart pause
 * and the connect-retry backoff short and reconnects at once.
 */
#ifndef BRAID_CLIENT_NETWATCH_H
#define BRAID_CLIENT_NETWATCH_H

#include "client/client_int.h"

/* Subscribe to link and address events (not fatal: without them, stock's timers alone). */
void client_netwatch_start(struct braid_client *c);
void client_netwatch_stop(struct braid_client *c);

#endif /* BRAID_CLIENT_NETWATCH_H */
