// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_nlroute.c - braid_nl_route_parse (daemon/os/nlroute.c), the parser of
 * the multipath route check's RTM_GETROUTE answer: a route with table,
 * interface and gateway; the kernel's error; an ACK (no answer); a message
 * of someone else's; every length that does not fit the buffer.
 */
#include <errno.h>
#include <linux/rtnetlink.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include "check.h"
#include "os/nlroute.h"

#define SEQ 77
#define PID 4242

struct buf {
	uint8_t b[512] __attribute__((aligned(4)));
	size_t len;
};

static struct nlmsghdr *msg(struct buf *b, uint16_t type, uint32_t seq)
{
	struct nlmsghdr *h = (struct nlmsghdr *)(b->b + b->len);

	memset(h, 0, sizeof(*h));
	h->nlmsg_len = NLMSG_HDRLEN;
	h->nlmsg_type = type;
	h->nlmsg_seq = seq;
	h->nlmsg_pid = PID;
	return h;
}

static void put(struct buf *b, struct nlmsghdr *h, const void *p, size_t n)
{
	(void)b;
	memcpy((uint8_t *)h + h->nlmsg_len, p, n);
	h->nlmsg_len += (uint32_t)NLMSG_ALIGN(n);
}

static void attr(struct buf *b, struct nlmsghdr *h, uint16_t type, const void *p, uint16_t n)
{
	struct nlattr a = { .nla_len = (uint16_t)(sizeof(a) + n), .nla_type = type };
	uint8_t tmp[64] = { 0 };

	memcpy(tmp, &a, sizeof(a));
	memcpy(tmp + sizeof(a), p, n);
	put(b, h, tmp, NLA_ALIGN(a.nla_len));
}

static void done(struct buf *b, struct nlmsghdr *h)
{
	b->len += NLMSG_ALIGN(h->nlmsg_len);
}

static struct nlmsghdr *route4(struct buf *b, uint32_t seq, uint32_t oif)
{
	struct nlmsghdr *h = msg(b, RTM_NEWROUTE, seq);
	struct rtmsg r = { .rtm_family = AF_INET, .rtm_dst_len = 32, .rtm_table = RT_TABLE_MAIN };
	uint32_t table = 254;
	uint8_t gw[4] = { 10, 2, 1, 1 };

	put(b, h, &r, sizeof(r));
	attr(b, h, RTA_TABLE, &table, 4);
	attr(b, h, RTA_OIF, &oif, 4);
	attr(b, h, RTA_GATEWAY, gw, 4);
	return h;
}

int main(void)
{
	struct braid_nl_route_info ri;
	struct buf b;
	struct nlmsghdr *h;

	/* a route: table, interface, gateway */
	memset(&b, 0, sizeof(b));
	done(&b, route4(&b, SEQ, 3));
	memset(&ri, 0xa5, sizeof(ri));
	CHECK_EQ(braid_nl_route_parse(b.b, b.len, SEQ, PID, AF_INET, &ri), 0);
	CHECK_EQ(ri.oif, 3);
	CHECK_EQ(ri.table, 254);
	CHECK(ri.has_gw && !memcmp(ri.gw, "\x0a\x02\x01\x01", 4));
	/* the same for another family: refused */
	CHECK_EQ(braid_nl_route_parse(b.b, b.len, SEQ, PID, AF_INET6, &ri), -EPROTO);
	/* not ours (sequence, port id): skipped */
	CHECK_EQ(braid_nl_route_parse(b.b, b.len, SEQ + 1, PID, AF_INET, &ri), -EAGAIN);
	CHECK_EQ(braid_nl_route_parse(b.b, b.len, SEQ, PID + 1, AF_INET, &ri), -EAGAIN);
	/* someone else's message first, then ours */
	memset(&b, 0, sizeof(b));
	done(&b, route4(&b, SEQ + 5, 9));
	done(&b, route4(&b, SEQ, 4));
	CHECK_EQ(braid_nl_route_parse(b.b, b.len, SEQ, PID, AF_INET, &ri), 0);
	CHECK_EQ(ri.oif, 4);
	/* an interface index above INT_MAX is no index */
	memset(&b, 0, sizeof(b));
	done(&b, route4(&b, SEQ, 0x80000001u));
	CHECK_EQ(braid_nl_route_parse(b.b, b.len, SEQ, PID, AF_INET, &ri), 0);
	CHECK_EQ(ri.oif, 0);
	/* a gateway of the wrong length is ignored */
	memset(&b, 0, sizeof(b));
	h = msg(&b, RTM_NEWROUTE, SEQ);
	{
		struct rtmsg r = { .rtm_family = AF_INET, .rtm_table = 7 };
		uint8_t gw[16] = { 1 };

		put(&b, h, &r, sizeof(r));
		attr(&b, h, RTA_GATEWAY, gw, 16);
	}
	done(&b, h);
	CHECK_EQ(braid_nl_route_parse(b.b, b.len, SEQ, PID, AF_INET, &ri), 0);
	CHECK(!ri.has_gw);
	CHECK_EQ(ri.table, 7);
	/* the kernel's error, and an ACK (error 0: no answer to a GETROUTE) */
	for (int e = 0; e < 3; e++) {
		struct nlmsgerr er = { .error = e == 0 ? -EHOSTUNREACH : e == 1 ? 0 : -5000 };

		memset(&b, 0, sizeof(b));
		h = msg(&b, NLMSG_ERROR, SEQ);
		put(&b, h, &er, sizeof(er));
		done(&b, h);
		CHECK_EQ(braid_nl_route_parse(b.b, b.len, SEQ, PID, AF_INET, &ri),
			 e == 0 ? -EHOSTUNREACH : -EPROTO);
	}
	/* an error message too short for its struct */
	memset(&b, 0, sizeof(b));
	h = msg(&b, NLMSG_ERROR, SEQ);
	done(&b, h);
	CHECK_EQ(braid_nl_route_parse(b.b, b.len, SEQ, PID, AF_INET, &ri), -EPROTO);
	/* lengths that do not fit: header, rtmsg, attribute */
	memset(&b, 0, sizeof(b));
	done(&b, route4(&b, SEQ, 3));
	CHECK_EQ(braid_nl_route_parse(b.b, b.len - 4, SEQ, PID, AF_INET, &ri), -EPROTO);
	((struct nlmsghdr *)b.b)->nlmsg_len = 0xfffffff0u;
	CHECK_EQ(braid_nl_route_parse(b.b, b.len, SEQ, PID, AF_INET, &ri), -EPROTO);
	memset(&b, 0, sizeof(b));
	h = msg(&b, RTM_NEWROUTE, SEQ);
	put(&b, h, "\x02\x20\x00\x00", 4);	/* 4 bytes of a 12-byte rtmsg */
	done(&b, h);
	CHECK_EQ(braid_nl_route_parse(b.b, b.len, SEQ, PID, AF_INET, &ri), -EPROTO);
	memset(&b, 0, sizeof(b));
	h = route4(&b, SEQ, 3);
	{
		struct nlattr *last = (struct nlattr *)((uint8_t *)h + h->nlmsg_len - 8);

		last->nla_len = 200;	/* beyond the message */
	}
	done(&b, h);
	CHECK_EQ(braid_nl_route_parse(b.b, b.len, SEQ, PID, AF_INET, &ri), -EPROTO);
	/* nothing at all, and a buffer shorter than a header */
	CHECK_EQ(braid_nl_route_parse(b.b, 0, SEQ, PID, AF_INET, &ri), -EAGAIN);
	CHECK_EQ(braid_nl_route_parse(b.b, 10, SEQ, PID, AF_INET, &ri), -EAGAIN);
	CHECK_DONE();
}
