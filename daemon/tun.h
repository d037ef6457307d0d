/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tun.h - the TUN device: open (IFF_TUN | IFF_NO_PI, non-blocking), then
 * configure MTU, link state, addresses and routes over rtnetlink, and undo
 * the addresses and routes before closing. The device itself is not
 * persistent: it disappears when the descriptor is closed.
 */
#ifndef BRAID_TUN_H
#define BRAID_TUN_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "netlink.h"
#include "options.h"

struct braid_tun {
	int fd;
	int ifindex;
	char name[IFNAMSIZ];
	struct braid_nl *nl;
	/* what we added, so that close removes exactly that */
	bool addr4_added, addr6_added;
	uint8_t prefix4;
	bool route_added[BRAID_OPT_MAX_ROUTES];
};

/* Open the device named by o->dev ("tun" = the kernel picks tunN). 0 or -errno. */
int braid_tun_open(struct braid_tun *t, const struct braid_options *o);
/* MTU, link up, ifconfig / ifconfig-ipv6 addresses, routes. 0 or -errno (logged). */
int braid_tun_configure(struct braid_tun *t, const struct braid_options *o);
/* Remove routes and addresses we added, close the device. Safe to call twice. */
void braid_tun_close(struct braid_tun *t, const struct braid_options *o);

#endif /* BRAID_TUN_H */
