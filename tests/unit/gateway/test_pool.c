// SPDX-License-Identifier: GPL-2.0-only
/* test_pool.c - the gateway's address pool against OpenVPN 2.6's numbers. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "gateway/pool.h"

static uint32_t ip(const char *s)
{
	struct in_addr a;

	inet_pton(AF_INET, s, &a);
	return ntohl(a.s_addr);
}

static const char *ips(uint32_t a, char *buf)
{
	struct in_addr in = { .s_addr = htonl(a) };

	return inet_ntop(AF_INET, &in, buf, INET_ADDRSTRLEN);
}

static void test_subnet(void)
{
	struct braid_pool_config cfg;
	struct braid_pool *p;
	const char *why = NULL;
	uint32_t gw, h, h2, l, m;
	char b[64];

	CHECK_EQ(braid_pool_config_server(&cfg, true, ip("10.8.0.0"), ip("255.255.255.0"),
					  BRAID_POOL_SUBNET, false, NULL, 0, &gw, NULL, &why), 0);
	CHECK_STR(ips(gw, b), "10.8.0.1");
	CHECK_EQ(braid_pool_new(&p, &cfg), 0);
	CHECK_EQ(braid_pool_size(p), 253);
	CHECK_EQ(braid_pool_acquire(p, "client1", &h), 0);
	CHECK_EQ(h, 0);
	CHECK_EQ(braid_pool_addr4(p, h, &l, &m), 0);
	CHECK_STR(ips(l, b), "10.8.0.2");
	CHECK_STR(ips(m, b), "255.255.255.0");
	CHECK_EQ(braid_pool_acquire(p, "client2", &h2), 0);
	CHECK_EQ(h2, 1);
	/* client1 leaves, client3 comes: it gets a fresh entry, not client1's */
	braid_pool_release(p, h);
	CHECK_EQ(braid_pool_in_use(p), 1);
	CHECK_EQ(braid_pool_acquire(p, "client3", &h), 0);
	CHECK_EQ(h, 2);
	/* client1 returns: its old address */
	CHECK_EQ(braid_pool_acquire(p, "client1", &h), 0);
	CHECK_EQ(h, 0);
	CHECK_EQ(braid_pool_find4(p, ip("10.8.0.4"), &h), 0);
	CHECK_EQ(h, 2);
	CHECK_EQ(braid_pool_find4(p, ip("10.8.0.1"), &h), -ENOENT);
	CHECK_EQ(braid_pool_find4(p, ip("10.8.0.255"), &h), -ENOENT);
	/* fill it */
	for (unsigned i = 3; i < 253; i++)
		CHECK_EQ(braid_pool_acquire(p, NULL, &h), 0);
	CHECK_EQ(h, 252);
	CHECK_EQ(braid_pool_addr4(p, h, &l, &m), 0);
	CHECK_STR(ips(l, b), "10.8.0.254");
	CHECK_EQ(braid_pool_acquire(p, "late", &h), -ENOSPC);
	braid_pool_free(p);

	CHECK_EQ(braid_pool_config_server(&cfg, true, ip("10.8.0.1"), ip("255.255.255.0"),
					  BRAID_POOL_SUBNET, false, NULL, 0, NULL, NULL, &why), -EINVAL);
	CHECK_STR(why, "network address has host bits set");
	CHECK_EQ(braid_pool_config_server(&cfg, true, ip("10.8.0.0"), ip("255.0.255.0"),
					  BRAID_POOL_SUBNET, false, NULL, 0, NULL, NULL, &why), -EINVAL);
	CHECK_STR(why, "netmask is not a contiguous mask");
	CHECK_EQ(braid_pool_config_server(&cfg, true, ip("10.8.0.0"), ip("255.255.255.252"),
					  BRAID_POOL_SUBNET, false, NULL, 0, NULL, NULL, &why), -EINVAL);
}

static void test_net30(void)
{
	struct braid_pool_config cfg;
	struct braid_pool *p;
	const char *why;
	uint32_t h, l, r;
	char b[64];

	CHECK_EQ(braid_pool_config_server(&cfg, true, ip("10.8.0.0"), ip("255.255.255.0"),
					  BRAID_POOL_NET30, false, NULL, 0, NULL, NULL, &why), 0);
	CHECK_EQ(braid_pool_new(&p, &cfg), 0);
	CHECK_EQ(braid_pool_size(p), 62);
	CHECK_EQ(braid_pool_acquire(p, "a", &h), 0);
	CHECK_EQ(braid_pool_addr4(p, h, &l, &r), 0);
	CHECK_STR(ips(l, b), "10.8.0.6");
	CHECK_STR(ips(r, b), "10.8.0.5");
	CHECK_EQ(braid_pool_acquire(p, "b", &h), 0);
	CHECK_EQ(braid_pool_addr4(p, h, &l, &r), 0);
	CHECK_STR(ips(l, b), "10.8.0.10");
	CHECK_STR(ips(r, b), "10.8.0.9");
	CHECK_EQ(braid_pool_addr4(p, 61, &l, &r), 0);
	CHECK_STR(ips(l, b), "10.8.0.250");
	CHECK_EQ(braid_pool_addr4(p, 62, &l, &r), -ERANGE);
	CHECK_EQ(braid_pool_find4(p, ip("10.8.0.10"), &h), 0);
	CHECK_EQ(h, 1);
	CHECK_EQ(braid_pool_find4(p, ip("10.8.0.9"), &h), -ENOENT);
	braid_pool_free(p);
}

static void test_v6_and_persist(void)
{
	struct braid_pool_config cfg;
	struct braid_pool *p;
	struct in6_addr net6, gw6, a6;
	const char *why;
	uint32_t h, l, m;
	uint8_t pl;
	unsigned skipped = 99;
	char b[64], path[] = "/tmp/braid_pool_test_XXXXXX";
	int fd;
	FILE *f;
	char text[512];
	size_t n;

	inet_pton(AF_INET6, "fd00:8::", &net6);
	CHECK_EQ(braid_pool_config_server(&cfg, true, ip("10.8.0.0"), ip("255.255.255.0"),
					  BRAID_POOL_SUBNET, true, &net6, 64, NULL, &gw6, &why), 0);
	CHECK_STR(inet_ntop(AF_INET6, &gw6, b, sizeof(b)), "fd00:8::1");
	CHECK_EQ(braid_pool_new(&p, &cfg), 0);
	CHECK_EQ(braid_pool_acquire(p, "c1", &h), 0);
	CHECK_EQ(braid_pool_addr6(p, h, &a6, &pl), 0);
	CHECK_STR(inet_ntop(AF_INET6, &a6, b, sizeof(b)), "fd00:8::1000");
	CHECK_EQ(pl, 64);
	CHECK_EQ(braid_pool_acquire(p, "c2", &h), 0);
	CHECK_EQ(braid_pool_addr6(p, h, &a6, &pl), 0);
	CHECK_STR(inet_ntop(AF_INET6, &a6, b, sizeof(b)), "fd00:8::1001");

	fd = mkstemp(path);
	CHECK(fd >= 0);
	close(fd);
	CHECK_EQ(braid_pool_persist_save(p, path), 0);
	f = fopen(path, "r");
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = 0;
	fclose(f);
	CHECK_STR(text, "c1,10.8.0.2,fd00:8::1000\nc2,10.8.0.3,fd00:8::1001\n");
	braid_pool_free(p);

	/* a new pool learns the file: c2 gets .3 back even as the first client */
	f = fopen(path, "w");
	fputs("c2,10.8.0.3,fd00:8::1001\nbad line\nc9,10.9.0.3,\nc7,10.8.0.9,\n", f);
	fclose(f);
	CHECK_EQ(braid_pool_new(&p, &cfg), 0);
	CHECK_EQ(braid_pool_persist_load(p, path, &skipped), 0);
	CHECK_EQ(skipped, 2);
	CHECK_EQ(braid_pool_acquire(p, "c2", &h), 0);
	CHECK_EQ(braid_pool_addr4(p, h, &l, &m), 0);
	CHECK_STR(ips(l, b), "10.8.0.3");
	CHECK_EQ(braid_pool_acquire(p, "new", &h), 0);
	CHECK_EQ(h, 0);
	CHECK_EQ(braid_pool_acquire(p, "c7", &h), 0);
	CHECK_EQ(h, 7);
	braid_pool_free(p);
	unlink(path);
	CHECK_EQ(braid_pool_new(&p, &cfg), 0);
	CHECK_EQ(braid_pool_persist_load(p, path, &skipped), 0); /* missing file: fine */
	braid_pool_free(p);

	/* duplicate-cn: two of the same name get two entries */
	cfg.duplicate_cn = true;
	CHECK_EQ(braid_pool_new(&p, &cfg), 0);
	CHECK_EQ(braid_pool_acquire(p, "same", &h), 0);
	CHECK_EQ(braid_pool_acquire(p, "same", &h), 0);
	CHECK_EQ(h, 1);
	braid_pool_free(p);
}

int main(void)
{
	test_subnet();
	test_net30();
	test_v6_and_persist();
	CHECK_DONE();
}
