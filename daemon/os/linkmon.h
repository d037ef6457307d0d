/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * linkmon.h - rtnetlink link and address events for the multipath paths.
 *
 * A netlink socket subscribed to link and IPv4/IPv6 address changes; the
 * messages only say "something changed". The caller then asks, for each
 * local address a path socket is bound to, whether that address is still
 * configured on an interface that is up and running (getifaddrs).
 */
#ifndef BRAID_LINKMON_H
#define BRAID_LINKMON_H

#include <stdbool.h>

#include "os/sock.h"

/* A non-blocking rtnetlink socket in *fd. 0 or -errno. */
int braid_linkmon_open(int *fd);
/* Read and discard every queued message. 1 if any arrived, 0 if none, -errno. */
int braid_linkmon_drain(int fd);
/*
 * Is addr (its port is ignored) configured on an interface that is up and
 * running? 1 yes, 0 no, -errno if the interfaces cannot be listed.
 */
int braid_linkmon_addr_up(const union braid_sockaddr *addr);

#endif /* BRAID_LINKMON_H */
