// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_netlink.c - what braidd parses from rtnetlink: the kernel's replies
 * to its requests (daemon/os/netlink.c talk(): libmnl's mnl_cb_run over each
 * received buffer, reached through braid_nl_link_set, braid_nl_addr,
 * braid_nl_route) and the RTM_GETROUTE answer that push.c's route_lookup()
 * reads attribute by attribute, reached through braid_push_apply with
 * redirect-gateway def1 (and braid_push_unapply), and the multipath route
 * check's fib-match answer (daemon/os/nlroute.c braid_nl_route_parse,
 * reached through braid_nl_route_get, IPv4 with source and interface, then
 * IPv6). daemon/os/linkmon.c reads notifications only to learn that
 * something changed and parses none.
 *
 * The harness defines libmnl's socket calls (open2, bind, get_portid,
 * sendto, recvfrom, close): the executable's definitions take precedence
 * over the shared library's, so the real code runs against a fake socket
 * whose every recvfrom() returns the next chunk of the input.
 * Feeds: chunks, each one received buffer: byte 0 bit 0 stamps the last
 * request's sequence number and our port id into every header (so replies
 * get past libmnl's checks), the rest is the buffer. Requests run in a fixed
 * order, each consuming replies until it is answered.
 * Asserts: no request loops without consuming input (each recvfrom is
 * counted against the chunks); push_apply records at most its route array;
 * unapply then removes without touching freed state (ASan).
 */
#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "util/log.h"
#include "os/netlink.h"
#include "os/nlroute.h"
#include "session/push.h"

#define FAKE_PORTID 4242

static struct fz in;
static uint32_t last_seq;
static unsigned recvs, chunks;
static int fake_sock;

struct mnl_socket *mnl_socket_open2(int bus, int flags)
{
	(void)bus, (void)flags;
	return (struct mnl_socket *)&fake_sock;
}

int mnl_socket_bind(struct mnl_socket *nl, unsigned int groups, pid_t pid)
{
	(void)nl, (void)groups, (void)pid;
	return 0;
}

unsigned int mnl_socket_get_portid(const struct mnl_socket *nl)
{
	(void)nl;
	return FAKE_PORTID;
}

int mnl_socket_close(struct mnl_socket *nl)
{
	(void)nl;
	return 0;
}

ssize_t mnl_socket_sendto(const struct mnl_socket *nl, const void *req, size_t siz)
{
	(void)nl;
	FZ_ASSERT(siz >= sizeof(struct nlmsghdr));
	last_seq = ((const struct nlmsghdr *)req)->nlmsg_seq;
	return (ssize_t)siz;
}

ssize_t mnl_socket_recvfrom(const struct mnl_socket *nl, void *buf, size_t siz)
{
	const uint8_t *c;
	size_t len, off = 0;
	uint8_t ctl;

	(void)nl;
	recvs++;
	if (!fz_chunk(&in, &c, &len) || !len) {
		errno = ECONNRESET;
		return -1;
	}
	chunks++;
	ctl = c[0];
	len--;
	if (len > siz)
		len = siz;
	memcpy(buf, c + 1, len);
	while ((ctl & 1) && off + sizeof(struct nlmsghdr) <= len) {
		struct nlmsghdr h;

		memcpy(&h, (uint8_t *)buf + off, sizeof(h));
		h.nlmsg_seq = last_seq;
		h.nlmsg_pid = FAKE_PORTID;
		memcpy((uint8_t *)buf + off, &h, sizeof(h));
		if (h.nlmsg_len < sizeof(h) || h.nlmsg_len > len - off)
			break;
		off += NLMSG_ALIGN((size_t)h.nlmsg_len);
	}
	return (ssize_t)len;
}

static struct braid_pushed pushed;

static void init(void)
{
	char msg[] = "PUSH_REPLY,redirect-gateway def1 ipv6,topology subnet,"
		     "ifconfig 10.8.0.2 255.255.255.0,ifconfig-ipv6 fd00::2/64 fd00::1,"
		     "route 10.9.0.0 255.255.0.0,route-ipv6 fd01::/64,route-gateway 10.8.0.1";
	struct braid_push_list l;
	char err[256];

	braid_log_open_file("/dev/null", true);
	braid_log_set_verb(4);
	memset(&l, 0, sizeof(l));
	if (braid_push_accumulate(&l, msg, err, sizeof(err)) != 1 ||
	    braid_push_parse(&l, &pushed, err, sizeof(err)))
		abort();
	braid_push_list_clear(&l);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int inited;
	static const uint8_t a4[4] = { 10, 8, 0, 2 }, p4[4] = { 10, 8, 0, 1 };
	static const uint8_t a6[16] = { 0xfd, [15] = 2 };
	static struct braid_push_net pn;
	union braid_sockaddr server;
	struct braid_nl *nl;

	if (!inited++)
		init();
	in = (struct fz){ data, size };
	recvs = chunks = 0;
	FZ_ASSERT(!braid_nl_open(&nl));
	(void)braid_nl_link_set(nl, 5, 1400, true);
	(void)braid_nl_addr(nl, true, 5, AF_INET, a4, p4, 24);
	(void)braid_nl_addr(nl, false, 5, AF_INET6, a6, NULL, 64);
	(void)braid_nl_route(nl, true, 5, AF_INET, a4, 32, p4, 10);
	memset(&server, 0, sizeof(server));
	server.in.sin_family = AF_INET;
	server.in.sin_addr.s_addr = htonl(0xc6336401);	/* 198.51.100.1 */
	memset(&pn, 0, sizeof(pn));
	(void)braid_push_apply(&pn, nl, 5, "tun0", &pushed, &server,
			       BRAID_PUSH_APPLY_ADDRS | BRAID_PUSH_APPLY_ROUTES);
	FZ_ASSERT(pn.n_routes <= sizeof(pn.routes) / sizeof(pn.routes[0]));
	braid_push_unapply(&pn, nl);
	braid_nl_close(nl);
	{
		static const uint8_t d4[4] = { 198, 51, 100, 1 }, s4[4] = { 192, 0, 2, 1 };
		static const uint8_t d6[16] = { 0x20, 0x01, 0x0d, 0xb8, 0, 1, [15] = 1 };
		struct braid_nl_route_info ri;

		if (!braid_nl_route_get(AF_INET, d4, s4, 5, &ri))
			FZ_ASSERT(ri.oif >= 0);
		if (!braid_nl_route_get(AF_INET6, d6, NULL, 0, &ri))
			FZ_ASSERT(ri.oif >= 0);
	}
	FZ_ASSERT(recvs <= chunks + 64);	/* each request gives up at the first empty read */
	return 0;
}
