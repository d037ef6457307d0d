// SPDX-License-Identifier: GPL-2.0-only
/* test_ccd.c - client-config-dir files: directives, errors, file lookup. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gateway/ccd.h"
#include "check.h"

int main(void)
{
	struct braid_ccd c;
	char err[256] = "", b[64], dir[] = "/tmp/braid_ccd_test_XXXXXX", path[128];
	struct in_addr a;
	FILE *f;

	CHECK_EQ(braid_ccd_parse(&c, "client1",
				 "# fixed address\n"
				 "ifconfig-push 10.8.0.50 255.255.255.0\n"
				 "ifconfig-ipv6-push fd00:8::50/64 fd00:8::1\n"
				 "iroute 192.168.5.0 255.255.255.0\n"
				 "iroute 172.16.1.1\n"
				 "iroute-ipv6 fd00:55::/48\n"
				 "push-reset\n"
				 "push \"route 192.168.6.0 255.255.255.0\"\n"
				 "  push 'dhcp-option DNS 10.8.0.1'  ; comment\n",
				 err, sizeof(err)), 0);
	CHECK(c.found);
	CHECK(!c.disable);
	CHECK(c.push_reset);
	CHECK(c.has_ifconfig);
	CHECK_EQ(c.ifc_local, 0x0a080032);
	CHECK_EQ(c.ifc_remote, 0xffffff00);
	CHECK(c.has_ifconfig6);
	CHECK_STR(inet_ntop(AF_INET6, &c.ifc6, b, sizeof(b)), "fd00:8::50");
	CHECK_EQ(c.ifc6_prefix, 64);
	CHECK_EQ(c.n_iroute, 3);
	CHECK_EQ(c.iroute[0].family, AF_INET);
	CHECK_EQ(c.iroute[0].prefix, 24);
	memcpy(&a, c.iroute[0].addr, 4);
	CHECK_STR(inet_ntoa(a), "192.168.5.0");
	CHECK_EQ(c.iroute[1].prefix, 32);
	CHECK_EQ(c.iroute[2].family, AF_INET6);
	CHECK_EQ(c.iroute[2].prefix, 48);
	CHECK_EQ(c.n_push, 2);
	CHECK_STR(c.push[0], "route 192.168.6.0 255.255.255.0");
	CHECK_STR(c.push[1], "dhcp-option DNS 10.8.0.1");
	braid_ccd_free(&c);

	CHECK_EQ(braid_ccd_parse(&c, "x", "disable\n", err, sizeof(err)), 0);
	CHECK(c.disable);
	braid_ccd_free(&c);

	/* errors name file, line and problem */
	CHECK_EQ(braid_ccd_parse(&c, "bob", "push-reset\nremote 1.2.3.4\n", err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "bob:2: option 'remote' is not allowed in a client-config-dir file");
	CHECK_EQ(braid_ccd_parse(&c, "bob", "iroute 192.168.5.1 255.255.255.0\n", err, sizeof(err)),
		 -EINVAL);
	CHECK_STR(err, "bob:1: option 'iroute': 192.168.5.1 has bits outside the netmask");
	CHECK_EQ(braid_ccd_parse(&c, "bob", "ifconfig-push 10.8.0.300 255.255.255.0\n", err,
				 sizeof(err)), -EINVAL);
	CHECK_STR(err, "bob:1: option 'ifconfig-push': '10.8.0.300 255.255.255.0' is not two IPv4 addresses");
	CHECK_EQ(braid_ccd_parse(&c, "bob", "push \"a,b\"\n", err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "bob:1: option 'push': 'a,b' contains a comma");
	CHECK_EQ(braid_ccd_parse(&c, "bob", "iroute-ipv6 fd00::\n", err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "bob:1: option 'iroute-ipv6': needs NET/BITS");

	/* names */
	CHECK(braid_ccd_name_ok("client1"));
	CHECK(braid_ccd_name_ok("a.b-c_d@e"));
	CHECK(!braid_ccd_name_ok("../etc/passwd"));
	CHECK(!braid_ccd_name_ok(".."));
	CHECK(!braid_ccd_name_ok(""));
	CHECK(!braid_ccd_name_ok("a\nb"));

	/* files */
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/client2", dir);
	f = fopen(path, "w");
	fputs("ifconfig-push 10.8.0.77 255.255.255.0\n", f);
	fclose(f);
	CHECK_EQ(braid_ccd_load(&c, dir, "client2", err, sizeof(err)), 0);
	CHECK(c.found);
	CHECK_EQ(c.ifc_local, 0x0a08004d);
	braid_ccd_free(&c);
	CHECK_EQ(braid_ccd_load(&c, dir, "nobody", err, sizeof(err)), 0);
	CHECK(!c.found);
	CHECK_EQ(braid_ccd_load(&c, dir, "../client2", err, sizeof(err)), 0);
	CHECK(!c.found);
	unlink(path);
	rmdir(dir);
	CHECK_DONE();
}
