/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * pktinfo.h - the local address of a UDP datagram (IP_PKTINFO /
 * IPV6_PKTINFO), for a socket bound to the wildcard on a host with several
 * addresses: read the address a datagram was sent to, and answer from that
 * same address (OpenVPN's `multihome`). Without it the kernel picks the
 * source of a reply by routing, which may be another address than the one
 * the peer talks to: the peer then drops the reply.
 */
#ifndef BRAID_PKTINFO_H
#define BRAID_PKTINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "os/sock.h"

/* struct braid_pktinfo (the local side of a datagram) is in os/sock.h. */

/* Ask for the local address of every datagram on fd (a socket of family). 0 or -errno. */
int braid_pktinfo_enable(int fd, int family);

/*
 * recvfrom() that also fills *local (family 0 if the kernel gave none): the
 * datagram's length, or -1 with errno as recvfrom.
 */
ssize_t braid_pktinfo_recv(int fd, void *buf, size_t len, union braid_sockaddr *from,
			   struct braid_pktinfo *local);

/*
 * The local address from a received message's control data (the last
 * IP_PKTINFO / IPV6_PKTINFO in it; a v4-mapped one as AF_INET); family 0 if
 * none. Every control message is bounded by CMSG_NXTHDR and its length
 * checked before its data is read.
 */
void braid_pktinfo_from_msg(const struct msghdr *h, struct braid_pktinfo *local);

/*
 * sendto() from the local address in *local (family 0: as sendto). With
 * same_if the interface it came in on is kept too (`multihome
 * same-interface`). The bytes sent, or -1 with errno.
 */
ssize_t braid_pktinfo_send(int fd, const void *buf, size_t len, const union braid_sockaddr *to,
			   const struct braid_pktinfo *local, bool same_if);

/* The local address as text ("10.1.2.3", "fd00::1", "(unknown)"). */
const char *braid_pktinfo_str(const struct braid_pktinfo *local, char *buf, size_t len);

#endif /* BRAID_PKTINFO_H */
