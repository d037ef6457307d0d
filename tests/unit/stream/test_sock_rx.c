// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sock_rx.c - the receive batch of os/sock.c (braid_sock_recvmmsg,
 * braid_sock_dgrams_*) over the loopback (no root): a UDP GSO message of
 * equal-sized datagrams and a shorter last one, read by a socket with UDP
 * GRO as one message and split back into exactly those datagrams (bytes and
 * lengths), next to a plain datagram, an empty one (yielded once, as it
 * came) and one longer than the buffer (truncated: refused); the same
 * stream without GRO; crafted messages (a GRO size larger than the message,
 * control data cut off).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/udp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../check.h"
#include "os/sock.h"

#define NMSG 8
#define BS 8192

struct rx {
	struct mmsghdr msg[NMSG];
	struct iovec iov[NMSG];
	union braid_sockaddr addr[NMSG];
	union {
		struct cmsghdr align;
		uint8_t b[BRAID_SOCK_GRO_CMSG];
	} ctl[NMSG];
	uint8_t buf[NMSG * BS];
};

static int open_lo(union braid_sockaddr *a)
{
	socklen_t l = sizeof(*a);
	int fd = -1;

	memset(a, 0, sizeof(*a));
	a->in.sin_family = AF_INET;
	a->in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	CHECK_EQ(braid_sock_open_udp(AF_INET, a, false, &fd), 0);
	CHECK_EQ(getsockname(fd, &a->sa, &l), 0);
	return fd;
}

static void fill(uint8_t *p, size_t n, uint8_t seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(seed + i * 7);
}

/* All datagrams of up to NMSG messages (polled until `want` came): lengths to lens, bytes checked by seed. */
static size_t read_all(int fd, bool gro, size_t want, size_t *lens, unsigned int *msgs, unsigned int *trunc)
{
	static struct rx r;
	const struct braid_rxmm rx = {
		.msg = r.msg, .iov = r.iov, .buf = r.buf, .bs = BS, .addr = r.addr,
		.ctl = gro ? (void *)r.ctl : NULL, .ctl_len = sizeof(r.ctl[0]),
	};
	size_t k = 0;

	*msgs = *trunc = 0;
	for (int round = 0; round < 20 && k + *trunc < want; round++) {
		struct pollfd pf = { .fd = fd, .events = POLLIN };
		int n;

		if (poll(&pf, 1, 500) != 1)
			break;
		n = braid_sock_recvmmsg(fd, &rx, NMSG);
		CHECK(n > 0);
		for (int i = 0; i < n; i++) {
			struct braid_sock_dgrams d;
			const uint8_t *p;
			size_t len;

			(*msgs)++;
			if (braid_sock_dgrams_begin(&d, &rx, (unsigned int)i, gro)) {
				(*trunc)++;
				CHECK(!braid_sock_dgrams_next(&d, &p, &len));
				continue;
			}
			while (braid_sock_dgrams_next(&d, &p, &len)) {
				uint8_t want_b[BS];

				CHECK(k < 16);
				if (k >= 16)
					return k;
				lens[k++] = len;
				fill(want_b, len, (uint8_t)len);
				CHECK_MEM(p, want_b, len);
			}
		}
	}
	return k;
}

static void stream(bool gro)
{
	union braid_sockaddr ra, sa;
	int rfd = open_lo(&ra), sfd = open_lo(&sa);
	static uint8_t data[6][BS + 100];
	static const size_t sz[6] = { 1000, 1000, 1000, 1000, 333, 0 };
	struct braid_txbatch *b = calloc(1, sizeof(*b));
	bool gso = true;
	size_t lens[16], k;
	unsigned int msgs, trunc;

	CHECK(b != NULL);
	if (gro)
		CHECK_EQ(braid_sock_set_gro(rfd), 0);
	CHECK_EQ(braid_sock_gso_ok(sfd), 1);
	/* four of 1000 and one of 333: one GSO message; then an empty datagram and one too long for BS */
	for (int i = 0; i < 6; i++) {
		fill(data[i], sz[i], (uint8_t)sz[i]);
		CHECK_EQ(braid_txb_add(b, sfd, &gso, &ra, data[i], sz[i]), 0);
	}
	CHECK_EQ(braid_txb_flush(b), 6);
	for (int i = 0; i < 6; i++)
		CHECK_EQ(b->res[i], 0);
	CHECK(b->gso_msgs >= 1);
	fill(data[0], BS + 100, 0);
	CHECK_EQ(sendto(sfd, data[0], BS + 100, 0, &ra.sa, braid_sockaddr_len(&ra)), BS + 100);
	k = read_all(rfd, gro, 7, lens, &msgs, &trunc);
	CHECK_EQ(k, 6);
	CHECK_EQ(trunc, 1);	/* the long one */
	for (size_t i = 0; i < 6 && i < k; i++)
		CHECK_EQ(lens[i], sz[i]);
	/* with GRO the five of the GSO message came as one (the kernel keeps a GSO skb whole) */
	CHECK_EQ(msgs, gro ? 3u : 7u);
	free(b);
	close(rfd);
	close(sfd);
}

static void crafted(void)
{
	static struct rx r;
	const struct braid_rxmm rx = {
		.msg = r.msg, .iov = r.iov, .buf = r.buf, .bs = BS, .ctl = r.ctl,
		.ctl_len = sizeof(r.ctl[0]),
	};
	struct msghdr *h = &r.msg[0].msg_hdr;
	struct cmsghdr *c = (struct cmsghdr *)(void *)r.ctl[0].b;
	struct braid_sock_dgrams d;
	const uint8_t *p;
	size_t len;
	int seg = 5000;

	memset(&r.msg[0], 0, sizeof(r.msg[0]));
	h->msg_control = r.ctl[0].b;
	h->msg_controllen = CMSG_SPACE(sizeof(int));
	c->cmsg_level = SOL_UDP;
	c->cmsg_type = UDP_GRO;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &seg, sizeof(seg));
	/* a segment size over the message: one datagram of the whole message */
	r.msg[0].msg_len = 300;
	CHECK_EQ(braid_sock_dgrams_begin(&d, &rx, 0, true), 0);
	CHECK(braid_sock_dgrams_next(&d, &p, &len));
	CHECK_EQ(len, 300);
	CHECK(p == r.buf);
	CHECK(!braid_sock_dgrams_next(&d, &p, &len));
	/* 100-byte segments: three of 100 */
	seg = 100;
	memcpy(CMSG_DATA(c), &seg, sizeof(seg));
	CHECK_EQ(braid_sock_dgrams_begin(&d, &rx, 0, true), 0);
	for (int i = 0; i < 3; i++) {
		CHECK(braid_sock_dgrams_next(&d, &p, &len));
		CHECK_EQ(len, 100);
		CHECK(p == r.buf + 100 * i);
	}
	CHECK(!braid_sock_dgrams_next(&d, &p, &len));
	/* without gro the control data is not read: one datagram */
	CHECK_EQ(braid_sock_dgrams_begin(&d, &rx, 0, false), 0);
	CHECK(braid_sock_dgrams_next(&d, &p, &len));
	CHECK_EQ(len, 300);
	/* control data cut off with GRO on: the bounds are unknown, refused */
	h->msg_flags = MSG_CTRUNC;
	CHECK_EQ(braid_sock_dgrams_begin(&d, &rx, 0, true), -ENOBUFS);
	CHECK(!braid_sock_dgrams_next(&d, &p, &len));
	/* a length over the buffer without MSG_TRUNC: bounded all the same */
	h->msg_flags = 0;
	r.msg[0].msg_len = BS + 1;
	CHECK_EQ(braid_sock_dgrams_begin(&d, &rx, 0, false), -EMSGSIZE);
}

int main(void)
{
	crafted();
	stream(true);
	stream(false);
	CHECK_DONE();
}
