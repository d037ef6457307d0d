// SPDX-License-Identifier: GPL-2.0-only
/* test_status.c - OpenVPN 2.6 server status file, versions 1, 2, 3, byte for byte. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "control/ovpn_status.h"

static char *print(int v, const struct braid_ovpn_status_client *c, unsigned nc,
		   const struct braid_ovpn_status_route *r, unsigned nr, int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*ret = braid_ovpn_status_print(f, v, "braidd 0.1", 1767348000, c, nc, r, nr);
	fclose(f);
	return buf;
}

int main(void)
{
	struct braid_ovpn_status_client c[2] = {
		{ "client1", "10.99.0.2:40000", "10.8.0.2", "", 1234, 5678, 1767347940, NULL, 0, 0,
		  "AES-256-GCM" },
		{ "client2", "10.99.0.3:40001", "10.8.0.3", "fd00:8::1001", 1, 2, 1767347941, "bob", 5,
		  1, "CHACHA20-POLY1305" },
	};
	struct braid_ovpn_status_route r[2] = {
		{ "10.8.0.2", "client1", "10.99.0.2:40000", 1767348000 },
		{ "192.168.5.0/24", "client2", "10.99.0.3:40001", 1767347999 },
	};
	char *s;
	int ret;

	setenv("TZ", "UTC", 1);
	s = print(1, c, 2, r, 2, &ret);
	CHECK_EQ(ret, 0);
	CHECK_STR(s, "OpenVPN CLIENT LIST\n"
		     "Updated,2026-01-02 10:00:00\n"
		     "Common Name,Real Address,Bytes Received,Bytes Sent,Connected Since\n"
		     "client1,10.99.0.2:40000,1234,5678,2026-01-02 09:59:00\n"
		     "client2,10.99.0.3:40001,1,2,2026-01-02 09:59:01\n"
		     "ROUTING TABLE\n"
		     "Virtual Address,Common Name,Real Address,Last Ref\n"
		     "10.8.0.2,client1,10.99.0.2:40000,2026-01-02 10:00:00\n"
		     "192.168.5.0/24,client2,10.99.0.3:40001,2026-01-02 09:59:59\n"
		     "GLOBAL STATS\n"
		     "Max bcast/mcast queue length,0\n"
		     "END\n");
	free(s);
	s = print(2, c, 2, r, 1, &ret);
	CHECK_EQ(ret, 0);
	CHECK_STR(s, "TITLE,braidd 0.1\n"
		     "TIME,2026-01-02 10:00:00,1767348000\n"
		     "HEADER,CLIENT_LIST,Common Name,Real Address,Virtual Address,Virtual IPv6 Address,"
		     "Bytes Received,Bytes Sent,Connected Since,Connected Since (time_t),Username,"
		     "Client ID,Peer ID,Data Channel Cipher\n"
		     "CLIENT_LIST,client1,10.99.0.2:40000,10.8.0.2,,1234,5678,2026-01-02 09:59:00,"
		     "1767347940,UNDEF,0,0,AES-256-GCM\n"
		     "CLIENT_LIST,client2,10.99.0.3:40001,10.8.0.3,fd00:8::1001,1,2,2026-01-02 09:59:01,"
		     "1767347941,bob,5,1,CHACHA20-POLY1305\n"
		     "HEADER,ROUTING_TABLE,Virtual Address,Common Name,Real Address,Last Ref,"
		     "Last Ref (time_t)\n"
		     "ROUTING_TABLE,10.8.0.2,client1,10.99.0.2:40000,2026-01-02 10:00:00,1767348000\n"
		     "GLOBAL_STATS,Max bcast/mcast queue length,0\n"
		     "GLOBAL_STATS,dco_enabled,0\n"
		     "END\n");
	free(s);
	s = print(3, c, 1, NULL, 0, &ret);
	CHECK_EQ(ret, 0);
	CHECK_STR(s, "TITLE\tbraidd 0.1\n"
		     "TIME\t2026-01-02 10:00:00\t1767348000\n"
		     "HEADER\tCLIENT_LIST\tCommon Name\tReal Address\tVirtual Address\tVirtual IPv6 Address\t"
		     "Bytes Received\tBytes Sent\tConnected Since\tConnected Since (time_t)\tUsername\t"
		     "Client ID\tPeer ID\tData Channel Cipher\n"
		     "CLIENT_LIST\tclient1\t10.99.0.2:40000\t10.8.0.2\t\t1234\t5678\t2026-01-02 09:59:00\t"
		     "1767347940\tUNDEF\t0\t0\tAES-256-GCM\n"
		     "HEADER\tROUTING_TABLE\tVirtual Address\tCommon Name\tReal Address\tLast Ref\t"
		     "Last Ref (time_t)\n"
		     "GLOBAL_STATS\tMax bcast/mcast queue length\t0\n"
		     "GLOBAL_STATS\tdco_enabled\t0\n"
		     "END\n");
	free(s);
	s = print(4, c, 1, NULL, 0, &ret);
	CHECK_EQ(ret, -EINVAL);
	free(s);
	CHECK_EQ(braid_ovpn_status_write("/nonexistent-dir/x", 2, "t", 0, c, 1, r, 1), -ENOENT);
	CHECK_DONE();
}
