/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * linkmon.h - rtnetlink link and address events for the multipath paths.
 *
 * A netlink socket subscribed to link, IPv4/IPv6 address and route
 * changes; the messages only say "something changed" (none is parsed). The
 * caller then asks, for each path, where its address or interface is now
 * (getifaddrs): whether a local address is still configured on an
 * interface that is up and running, which address an interface has, and
 * which interfaces `mp-path auto` may use.
 */
#ifndef BRAID_LINKMON_H
#define BRAID_LINKMON_H

#include <net/if.h>
#include <stdbool.h>

#include "os/sock.h"

/* Where a path's local end is now. */
struct braid_linkmon_where {
	union braid_sockaddr addr;	/* the address (port 0) */
	int ifindex;			/* the interface holding it */
	char ifname[IF_NAMESIZE];
	bool up;			/* the interface is up and running */
};

/* A non-blocking rtnetlink socket in *fd. 0 or -errno. */
int braid_linkmon_open(int *fd);
/* Read and discard every queued message. 1 if any arrived, 0 if none, -errno. */
int braid_linkmon_drain(int fd);
/*
 * Is addr (its port is ignored) configured on an interface that is up and
 * running? 1 yes, 0 no, -errno if the interfaces cannot be listed.
 */
int braid_linkmon_addr_up(const union braid_sockaddr *addr);

/* The interface holding addr. 1 found (in *w), 0 not configured anywhere, -errno. */
int braid_linkmon_addr_where(const union braid_sockaddr *addr, struct braid_linkmon_where *w);
/*
 * An address of family on the interface ifname (IPv6: global scope, not
 * link-local). 1 found (in *w), 0 the interface has none (or does not
 * exist; w->ifindex is set if it exists), -errno.
 */
int braid_linkmon_if_where(const char *ifname, int family, struct braid_linkmon_where *w);
/*
 * The interfaces `mp-path auto` may use: up and running, not loopback, not
 * a TUN/TAP device (braidd's own tunnel, another VPN's). Up to max names
 * into names; returns how many, or -errno.
 */
int braid_linkmon_auto_ifs(char (*names)[IF_NAMESIZE], int max);

#endif /* BRAID_LINKMON_H */
