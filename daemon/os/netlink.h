/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * netlink.h - the rtnetlink requests braidd needs (libmnl): link MTU and
 * state, addresses and routes. Each call waits for the kernel's ACK and
 * returns 0 or the kernel's -errno.
 */
#ifndef BRAID_NETLINK_H
#define BRAID_NETLINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct braid_nl;

int braid_nl_open(struct braid_nl **out);
void braid_nl_close(struct braid_nl *nl);

int braid_nl_link_set(struct braid_nl *nl, int ifindex, int mtu, bool up);

/*
 * Add or delete an address. family AF_INET/AF_INET6; local = our address;
 * peer (optional, NULL) = point-to-point peer (IFA_ADDRESS); prefix length.
 */
int braid_nl_addr(struct braid_nl *nl, bool add, int ifindex, int family, const void *local,
		  const void *peer, uint8_t prefix);

/* Add or delete a route in the main table through ifindex (gw optional, onlink). */
int braid_nl_route(struct braid_nl *nl, bool add, int ifindex, int family, const void *dst,
		   uint8_t prefix, const void *gw, uint32_t metric);

/*
 * A received rtnetlink buffer is safe to hand to libmnl: every header's
 * nlmsg_len is at least a header and at most what is left. libmnl 1.0.4's
 * mnl_nlmsg_ok compares the length as an int, so a length >= 2^31 passes it
 * and mnl_nlmsg_next then points outside the buffer (found by
 * tests/fuzz/fuzz_netlink.c).
 */
bool braid_nl_buf_ok(const void *buf, size_t len);

#endif /* BRAID_NETLINK_H */
