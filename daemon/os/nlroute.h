/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nlroute.h - which way the kernel sends a path's packets: one RTM_GETROUTE
 * (libmnl) for (destination, source, output interface) and its parsed
 * answer (output interface, table, gateway). The multipath data plane uses
 * it to say when a path's packets would leave through another interface
 * than the path's own, and which next hop they take.
 */
#ifndef BRAID_NLROUTE_H
#define BRAID_NLROUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct braid_nl_route_info {
	int oif;		/* output interface index (0: none in the answer) */
	uint32_t table;		/* routing table of the matching entry */
	bool has_gw;
	uint8_t gw[16];		/* next hop (4 or 16 bytes by family) */
};

/*
 * The routing table entry the kernel picks towards dst (family AF_INET /
 * AF_INET6, 4 or 16 bytes) from src (NULL: any) out of oif (0: any), as
 * `ip route get fibmatch`: with oif, only a route through oif matches (no
 * on-link guess). 0 or -errno (the kernel's: -EHOSTUNREACH, -ENETUNREACH
 * when no route matches). oif is 0 in the answer for a multipath route.
 */
int braid_nl_route_get(int family, const void *dst, const void *src, int oif,
		       struct braid_nl_route_info *out);

/*
 * One received answer buffer of that request: the RTM_NEWROUTE with our
 * sequence number and port id into *out (0), the kernel's error (-errno),
 * -EAGAIN if the buffer holds no message of ours, -EPROTO if malformed.
 * Every length is checked against the buffer before it is read.
 */
int braid_nl_route_parse(const void *buf, size_t len, uint32_t seq, uint32_t portid, int family,
			 struct braid_nl_route_info *out);

#endif /* BRAID_NLROUTE_H */
