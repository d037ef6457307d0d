// SPDX-License-Identifier: GPL-2.0-only
/* test_vroute.c - longest-prefix match of the gateway's inner routes. */
#include <arpa/inet.h>
#include <errno.h>
#include <sys/socket.h>

#include "check.h"
#include "gateway/vroute.h"

static int look4(struct braid_vroute *t, const char *s, uint32_t *o)
{
	struct in_addr a;

	inet_pton(AF_INET, s, &a);
	return braid_vroute_lookup(t, AF_INET, &a, o);
}

static int add4(struct braid_vroute *t, const char *s, uint8_t pl, bool ir, uint32_t o)
{
	struct in_addr a;

	inet_pton(AF_INET, s, &a);
	return braid_vroute_add(t, AF_INET, &a, pl, ir, o);
}

int main(void)
{
	struct braid_vroute t;
	struct in6_addr a6;
	uint32_t o = 0;
	uint8_t pkt[40] = { 0x45 };
	int fam;
	uint8_t src[16];

	braid_vroute_init(&t);
	CHECK_EQ(add4(&t, "10.8.0.2", 32, false, 1), 0);
	CHECK_EQ(add4(&t, "10.8.0.3", 32, false, 2), 0);
	CHECK_EQ(add4(&t, "192.168.0.0", 16, true, 1), 0);
	CHECK_EQ(add4(&t, "192.168.7.77", 24, true, 2), 0); /* host bits dropped */
	CHECK_EQ(t.n, 4);
	CHECK_EQ(look4(&t, "10.8.0.3", &o), 0);
	CHECK_EQ(o, 2);
	CHECK_EQ(look4(&t, "192.168.7.1", &o), 0);
	CHECK_EQ(o, 2);
	CHECK_EQ(look4(&t, "192.168.8.1", &o), 0);
	CHECK_EQ(o, 1);
	CHECK_EQ(look4(&t, "10.8.0.4", &o), -ENOENT);
	/* the newer owner of the same prefix wins */
	CHECK_EQ(add4(&t, "10.8.0.2", 32, false, 5), 0);
	CHECK_EQ(t.n, 4);
	CHECK_EQ(look4(&t, "10.8.0.2", &o), 0);
	CHECK_EQ(o, 5);
	CHECK_EQ(add4(&t, "10.8.0.2", 33, false, 5), -EINVAL);
	CHECK_EQ(braid_vroute_add(&t, AF_UNIX, &o, 1, false, 1), -EINVAL);

	inet_pton(AF_INET6, "fd00::1000", &a6);
	CHECK_EQ(braid_vroute_add(&t, AF_INET6, &a6, 128, false, 2), 0);
	inet_pton(AF_INET6, "fd00:1::", &a6);
	CHECK_EQ(braid_vroute_add(&t, AF_INET6, &a6, 48, true, 5), 0);
	inet_pton(AF_INET6, "fd00:1:0:5::9", &a6);
	CHECK_EQ(braid_vroute_lookup(&t, AF_INET6, &a6, &o), 0);
	CHECK_EQ(o, 5);
	inet_pton(AF_INET6, "fd00::1000", &a6);
	CHECK_EQ(braid_vroute_lookup(&t, AF_INET6, &a6, &o), 0);
	CHECK_EQ(o, 2);
	/* v4 and v6 never match each other */
	CHECK_EQ(look4(&t, "253.0.0.0", &o), -ENOENT);

	/* packets: IPv4 dst at 16, src at 12 */
	inet_pton(AF_INET, "192.168.7.9", pkt + 16);
	inet_pton(AF_INET, "10.8.0.3", pkt + 12);
	CHECK_EQ(braid_vroute_lookup_packet(&t, pkt, 20, &o), 0);
	CHECK_EQ(o, 2);
	CHECK_EQ(braid_vroute_lookup_packet(&t, pkt, 19, &o), -EINVAL);
	CHECK_EQ(braid_vroute_packet_src(pkt, 20, &fam, src), 0);
	CHECK_EQ(fam, AF_INET);
	CHECK_MEM(src, pkt + 12, 4);

	CHECK_EQ(braid_vroute_del_owner(&t, 2), 3);
	CHECK_EQ(look4(&t, "192.168.7.1", &o), 0);
	CHECK_EQ(o, 1);
	CHECK_EQ(braid_vroute_del_owner(&t, 2), 0);
	CHECK_EQ(t.n, 3);
	braid_vroute_free(&t);

	/* many clients: 3000 host routes (v4 + v6) and 300 iroutes, then half of them gone */
	braid_vroute_init(&t);
	for (uint32_t i = 0; i < 3000; i++) {
		uint32_t a = htonl(0x0a000000u + i);
		uint8_t b6[16] = { 0xfd, 0, 0, 8 };

		b6[14] = (uint8_t)(i >> 8);
		b6[15] = (uint8_t)i;
		CHECK_EQ(braid_vroute_add(&t, AF_INET, &a, 32, false, i), 0);
		CHECK_EQ(braid_vroute_add(&t, AF_INET6, b6, 128, false, i), 0);
		if (i < 300) {
			uint32_t n = htonl(0xc0a80000u + (i << 8));

			CHECK_EQ(braid_vroute_add(&t, AF_INET, &n, 24, true, i), 0);
		}
	}
	/* an iroute covering client addresses loses against their host routes */
	{
		uint32_t n = htonl(0x0a000000u);

		CHECK_EQ(braid_vroute_add(&t, AF_INET, &n, 8, true, 99999), 0);
	}
	CHECK_EQ(t.n, 6301);
	CHECK_EQ(t.n_hosts, 6000);
	CHECK_EQ(t.n_nets, 301);
	{
		int bad = 0;

		for (uint32_t i = 0; i < 3000; i++) {
			uint32_t a = htonl(0x0a000000u + i), h = htonl(0xc0a80000u + (i << 8) + 7);
			uint8_t b6[16] = { 0xfd, 0, 0, 8 };

			b6[14] = (uint8_t)(i >> 8);
			b6[15] = (uint8_t)i;
			bad += braid_vroute_lookup(&t, AF_INET, &a, &o) || o != i;
			bad += braid_vroute_lookup(&t, AF_INET6, b6, &o) || o != i;
			if (i < 255)
				bad += braid_vroute_lookup(&t, AF_INET, &h, &o) || o != i;
		}
		CHECK_EQ(bad, 0);
		for (uint32_t i = 0; i < 3000; i += 2)
			CHECK_EQ(braid_vroute_del_owner(&t, i), i < 300 ? 3 : 2);
		CHECK_EQ(t.n_hosts, 3000);
		bad = 0;
		for (uint32_t i = 0; i < 3000; i++) {
			uint32_t a = htonl(0x0a000000u + i);

			/* removed clients' addresses fall back to the 10/8 iroute */
			bad += braid_vroute_lookup(&t, AF_INET, &a, &o) || o != (i % 2 ? i : 99999);
		}
		CHECK_EQ(bad, 0);
	}
	braid_vroute_free(&t);
	CHECK_DONE();
}
