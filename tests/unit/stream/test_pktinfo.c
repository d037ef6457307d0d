// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_pktinfo.c - daemon/os/pktinfo.c and the send batch's source address
 * (os/sock.c braid_txb_set_src) over the loopback (no root: 127.0.0.0/8 is on
 * lo). A socket bound to the wildcard reads the address each datagram was
 * sent to (127.0.0.2, 127.0.0.3: not the address routing would pick for an
 * answer, 127.0.0.1) and answers from it, single (braid_pktinfo_send) and
 * batched (braid_txb_*), on an IPv4 socket and on a dual-stack IPv6 one; the
 * control-data parser with crafted messages (truncated, v4-mapped, none).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../check.h"
#include "os/pktinfo.h"
#include "os/sock.h"

static void addr4(union braid_sockaddr *a, const char *ip, uint16_t port)
{
	memset(a, 0, sizeof(*a));
	a->in.sin_family = AF_INET;
	a->in.sin_port = htons(port);
	inet_pton(AF_INET, ip, &a->in.sin_addr);
}

static uint16_t port_of(int fd)
{
	union braid_sockaddr a;
	socklen_t l = sizeof(a);

	CHECK_EQ(getsockname(fd, &a.sa, &l), 0);
	return ntohs(a.sa.sa_family == AF_INET ? a.in.sin_port : a.in6.sin6_port);
}

static void wait_readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	CHECK_EQ(poll(&p, 1, 2000), 1);
}

/* The peer gets an answer from `want` (a dotted IPv4 address). */
static void expect_from(int peer, const char *want)
{
	union braid_sockaddr from;
	socklen_t fl = sizeof(from);
	char buf[64], a[64];
	ssize_t n;

	wait_readable(peer);
	n = recvfrom(peer, buf, sizeof(buf), 0, &from.sa, &fl);
	CHECK(n > 0);
	CHECK_EQ(from.sa.sa_family, AF_INET);
	inet_ntop(AF_INET, &from.in.sin_addr, a, sizeof(a));
	CHECK_STR(a, want);
}

static void one_family(int family)
{
	union braid_sockaddr any, to, from, peer_a;
	struct braid_pktinfo local;
	struct braid_txbatch *b = calloc(1, sizeof(*b));
	char buf[64], s[64];
	int srv, peer;
	ssize_t n;

	CHECK(b != NULL);
	memset(&any, 0, sizeof(any));
	any.sa.sa_family = (sa_family_t)family;
	CHECK_EQ(braid_sock_open_udp(family, &any, false, &srv), 0);
	CHECK_EQ(braid_pktinfo_enable(srv, family), 0);
	addr4(&peer_a, "127.0.0.1", 0);
	CHECK_EQ(braid_sock_open_udp(AF_INET, &peer_a, false, &peer), 0);

	for (int k = 0; k < 2; k++) {
		const char *dst = k ? "127.0.0.3" : "127.0.0.2";

		addr4(&to, dst, port_of(srv));
		CHECK_EQ(sendto(peer, "hi", 2, 0, &to.sa, braid_sockaddr_len(&to)), 2);
		wait_readable(srv);
		n = braid_pktinfo_recv(srv, buf, sizeof(buf), &from, &local);
		CHECK_EQ(n, 2);
		CHECK_EQ(local.family, AF_INET);	/* also on the dual-stack socket */
		CHECK_STR(braid_pktinfo_str(&local, s, sizeof(s)), dst);
		CHECK(local.ifindex > 0);
		if (k == 0) {	/* one datagram */
			CHECK_EQ(braid_pktinfo_send(srv, "ok", 2, &from, &local, false), 2);
		} else {	/* a batch of three, one GSO-less message each */
			b->n = 0;
			for (int i = 0; i < 3; i++) {
				CHECK_EQ(braid_txb_add(b, srv, NULL, &from, "ok", 2), 0);
				braid_txb_set_src(b, &local);
			}
			CHECK_EQ(braid_txb_flush(b), 3);
			for (int i = 0; i < 3; i++)
				CHECK_EQ(b->res[i], 0);
			expect_from(peer, dst);
			expect_from(peer, dst);
		}
		expect_from(peer, dst);
	}
	/* no source: the kernel picks 127.0.0.1 for the loopback peer */
	memset(&local, 0, sizeof(local));
	CHECK_EQ(braid_pktinfo_send(srv, "ok", 2, &from, &local, false), 2);
	expect_from(peer, "127.0.0.1");
	close(peer);
	close(srv);
	free(b);
}

static void crafted(void)
{
	union {
		struct cmsghdr align;
		uint8_t b[256];
	} ctl;
	struct msghdr h = { .msg_control = ctl.b };
	struct braid_pktinfo local;
	struct cmsghdr *c = (struct cmsghdr *)ctl.b;
	struct in6_pktinfo p6;
	char s[64];

	/* none */
	h.msg_controllen = 0;
	braid_pktinfo_from_msg(&h, &local);
	CHECK_EQ(local.family, 0);
	CHECK_STR(braid_pktinfo_str(&local, s, sizeof(s)), "(unknown)");
	/* a v4-mapped IPV6_PKTINFO is IPv4 */
	memset(&ctl, 0, sizeof(ctl));
	memset(&p6, 0, sizeof(p6));
	inet_pton(AF_INET6, "::ffff:10.1.2.3", &p6.ipi6_addr);
	p6.ipi6_ifindex = 7;
	c->cmsg_level = IPPROTO_IPV6;
	c->cmsg_type = IPV6_PKTINFO;
	c->cmsg_len = CMSG_LEN(sizeof(p6));
	memcpy(CMSG_DATA(c), &p6, sizeof(p6));
	h.msg_controllen = CMSG_SPACE(sizeof(p6));
	braid_pktinfo_from_msg(&h, &local);
	CHECK_EQ(local.family, AF_INET);
	CHECK_EQ(local.ifindex, 7);
	CHECK_STR(braid_pktinfo_str(&local, s, sizeof(s)), "10.1.2.3");
	/* a real IPv6 one */
	inet_pton(AF_INET6, "fd00::5", &p6.ipi6_addr);
	memcpy(CMSG_DATA(c), &p6, sizeof(p6));
	braid_pktinfo_from_msg(&h, &local);
	CHECK_EQ(local.family, AF_INET6);
	CHECK_STR(braid_pktinfo_str(&local, s, sizeof(s)), "fd00::5");
	/* its length one byte short: ignored */
	c->cmsg_len = CMSG_LEN(sizeof(p6)) - 1;
	braid_pktinfo_from_msg(&h, &local);
	CHECK_EQ(local.family, 0);
	/* a cmsg_len past the buffer: CMSG_NXTHDR stops, nothing read beyond */
	c->cmsg_len = 1000;
	h.msg_controllen = sizeof(struct cmsghdr) + 4;
	braid_pktinfo_from_msg(&h, &local);
	/* the source control message: unknown source writes nothing, too small a room neither */
	memset(&local, 0, sizeof(local));
	CHECK_EQ(braid_sock_src_cmsg(ctl.b, sizeof(ctl.b), &local, false), 0);
	local.family = AF_INET6;
	CHECK_EQ(braid_sock_src_cmsg(ctl.b, 8, &local, false), 0);
	CHECK_EQ(braid_sock_src_cmsg(ctl.b, sizeof(ctl.b), &local, false), CMSG_SPACE(sizeof(p6)));
}

int main(void)
{
	crafted();
	one_family(AF_INET);
	one_family(AF_INET6);
	CHECK_DONE();
}
