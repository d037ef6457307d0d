// SPDX-License-Identifier: GPL-2.0-only
/*
 * pktinfo.c - the local address of UDP datagrams, read with recvmsg and used
 * as the source with sendmsg (pktinfo.h; the control message is written by
 * braid_sock_src_cmsg, os/sock.c, which the send batches use too). Every control message the kernel
 * hands back is bounded by CMSG_NXTHDR and checked for its length before its
 * data is read.
 */
#include "os/pktinfo.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

int braid_pktinfo_enable(int fd, int family)
{
	int one = 1;

	/* IPv4 datagrams, also those a dual-stack IPv6 socket receives as v4-mapped */
	if (setsockopt(fd, IPPROTO_IP, IP_PKTINFO, &one, sizeof(one)) < 0 && family == AF_INET)
		return -errno;
	if (family == AF_INET6 &&
	    setsockopt(fd, IPPROTO_IPV6, IPV6_RECVPKTINFO, &one, sizeof(one)) < 0)
		return -errno;
	return 0;
}

/* Does c carry len data bytes, all inside the control buffer? (CMSG_NXTHDR bounds the next
 * header, not the first one's length.) */
static bool fits(const struct msghdr *h, const struct cmsghdr *c, size_t len)
{
	size_t off = (size_t)((const uint8_t *)c - (const uint8_t *)h->msg_control);

	return c->cmsg_len >= CMSG_LEN(len) && off <= h->msg_controllen &&
	       h->msg_controllen - off >= CMSG_LEN(len);
}

void braid_pktinfo_from_msg(const struct msghdr *h, struct braid_pktinfo *local)
{
	memset(local, 0, sizeof(*local));
	for (struct cmsghdr *c = CMSG_FIRSTHDR(h); c; c = CMSG_NXTHDR((struct msghdr *)h, c)) {
		if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_PKTINFO &&
		    fits(h, c, sizeof(struct in_pktinfo))) {
			struct in_pktinfo pi;

			memcpy(&pi, CMSG_DATA(c), sizeof(pi));
			local->family = AF_INET;
			local->ifindex = pi.ipi_ifindex;
			local->addr.v4 = pi.ipi_addr;	/* the datagram's destination */
		} else if (c->cmsg_level == IPPROTO_IPV6 && c->cmsg_type == IPV6_PKTINFO &&
			   fits(h, c, sizeof(struct in6_pktinfo))) {
			struct in6_pktinfo pi;

			memcpy(&pi, CMSG_DATA(c), sizeof(pi));
			if (IN6_IS_ADDR_V4MAPPED(&pi.ipi6_addr)) {
				local->family = AF_INET;
				memcpy(&local->addr.v4, &pi.ipi6_addr.s6_addr[12], 4);
			} else {
				local->family = AF_INET6;
				local->addr.v6 = pi.ipi6_addr;
			}
			local->ifindex = (int)pi.ipi6_ifindex;
		}
	}
}

ssize_t braid_pktinfo_recv(int fd, void *buf, size_t len, union braid_sockaddr *from,
			   struct braid_pktinfo *local)
{
	union {
		struct cmsghdr align;
		uint8_t b[CMSG_SPACE(sizeof(struct in6_pktinfo)) + CMSG_SPACE(sizeof(struct in_pktinfo))];
	} ctl;
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr h = {
		.msg_name = from, .msg_namelen = sizeof(*from), .msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = ctl.b, .msg_controllen = sizeof(ctl.b),
	};
	ssize_t n;

	memset(local, 0, sizeof(*local));
	n = recvmsg(fd, &h, 0);
	if (n < 0)
		return n;
	braid_pktinfo_from_msg(&h, local);
	return n;
}

ssize_t braid_pktinfo_send(int fd, const void *buf, size_t len, const union braid_sockaddr *to,
			   const struct braid_pktinfo *local, bool same_if)
{
	union {
		struct cmsghdr align;
		uint8_t b[BRAID_SOCK_SRC_CMSG];
	} ctl;
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr h = {
		.msg_name = (void *)to, .msg_namelen = braid_sockaddr_len(to), .msg_iov = &iov,
		.msg_iovlen = 1, .msg_control = ctl.b,
	};

	h.msg_controllen = braid_sock_src_cmsg(ctl.b, sizeof(ctl.b), local, same_if);
	if (!h.msg_controllen)
		return sendto(fd, buf, len, 0, &to->sa, braid_sockaddr_len(to));
	return sendmsg(fd, &h, 0);
}

const char *braid_pktinfo_str(const struct braid_pktinfo *local, char *buf, size_t len)
{
	if (!local->family || !inet_ntop(local->family, &local->addr, buf, (socklen_t)len))
		snprintf(buf, len, "(unknown)");
	return buf;
}
