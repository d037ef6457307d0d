// SPDX-License-Identifier: GPL-2.0-only
/* test_vroute.c - longest-prefix match of the gateway's inner routes. */
#include <arpa/inet.h>
#include <errno.h>
#include <sys/socket.h>

#include "check.h"
#include "vroute.h"

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
	CHECK_DONE();
}
