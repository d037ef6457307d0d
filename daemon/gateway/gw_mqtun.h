/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_mqtun.h - one TUN device with one queue per gateway worker
 * (IFF_MULTI_QUEUE). The kernel picks the queue of a packet by its flow
 * hash, not by the worker that owns the destination's session: a worker
 * passes such a packet on through gw_xq (docs/scaling.md "Workers").
 */
#ifndef BRAID_GATEWAY_GW_MQTUN_H
#define BRAID_GATEWAY_GW_MQTUN_H

#include <net/if.h>
#include <stdbool.h>

/* Opens n queues (non-blocking, close-on-exec, no packet information
 * header) of the TUN device name ("tun" or a name with %d: the kernel picks);
 * the device's name goes to ifname (IFNAMSIZ). On error none is left open.
 * Returns 0 or -errno (-EINVAL for n outside 1..64). */
int braid_gw_mqtun_open(const char *name, unsigned n, int *fds, char ifname[IFNAMSIZ]);
/* The same with IFF_VNET_HDR and the TSO/checksum offloads (os/tun.h braid_tun_open_vnet):
 * *vnet true if the kernel took them, else the queues are plain (also 0). */
int braid_gw_mqtun_open_vnet(const char *name, unsigned n, int *fds, char ifname[IFNAMSIZ],
			     bool *vnet);

#endif
