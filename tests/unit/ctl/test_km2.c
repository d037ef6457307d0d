// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_km2.c - key-method-2 message layout, round trip, malformed input,
 * peer-info variables and the IV_BRAID_MP helper.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "km2.h"
#include "check.h"

static const char occ_srv[] =
	"V4,dev-type tun,link-mtu 1541,tun-mtu 1500,proto UDPv4,auth SHA1,keysize 128,key-method 2,tls-server";

static void test_server_layout(void)
{
	struct braid_km2 m, r;
	uint8_t buf[BRAID_KM2_MSG_MAX];
	const char *why = NULL;
	size_t n;

	memset(&m, 0, sizeof(m));
	CHECK_EQ(braid_km2_randomize(&m, false), 0);
	strcpy(m.options, occ_srv);
	CHECK_EQ(braid_km2_build(&m, buf, sizeof(buf), &n), 0);
	/* 0 | 02 | r1 | r2 | len occ NUL | 0000 | 0000 | 0000 */
	CHECK_EQ(n, 4 + 1 + 64 + 2 + sizeof(occ_srv) + 6);
	CHECK_MEM(buf, "\0\0\0\0\x02", 5);
	CHECK_MEM(buf + 5, m.random1, 32);
	CHECK_EQ(buf[69] << 8 | buf[70], sizeof(occ_srv));
	CHECK_MEM(buf + 71, occ_srv, sizeof(occ_srv));
	CHECK_MEM(buf + n - 6, "\0\0\0\0\0\0", 6);
	CHECK_EQ(braid_km2_parse(buf, n, false, &r, &why), 0);
	CHECK_STR(r.options, occ_srv);
	CHECK_MEM(r.random2, m.random2, 32);
	CHECK_STR(r.peer_info, "");
	/* older peers may stop after the options: missing fields are empty */
	CHECK_EQ(braid_km2_parse(buf, n - 6, false, &r, &why), 0);
	/* "len 1, NUL" is accepted as empty */
	buf[n - 2] = 0;
	buf[n - 1] = 1;
	uint8_t ext[BRAID_KM2_MSG_MAX];
	memcpy(ext, buf, n);
	ext[n] = 0;
	CHECK_EQ(braid_km2_parse(ext, n + 1, false, &r, &why), 0);
	CHECK_STR(r.peer_info, "");
	/* trailing garbage, wrong key method, nonzero head, missing NUL */
	CHECK_EQ(braid_km2_parse(ext, n + 1, false, &r, &why), 0);
	ext[n] = 'x';
	CHECK_EQ(braid_km2_parse(ext, n + 1, false, &r, &why), -EBADMSG);
	CHECK_STR(why, "key-method-2: string field not NUL-terminated");
	memcpy(ext, buf, n);
	ext[4] = 1;
	CHECK_EQ(braid_km2_parse(ext, n, false, &r, &why), -EBADMSG);
	CHECK_STR(why, "key-method-2: unsupported key method");
	ext[4] = 0x12; /* only the low nibble counts */
	buf[n - 2] = 0;
	buf[n - 1] = 0;
	memcpy(ext, buf, n);
	ext[4] = 0x12;
	CHECK_EQ(braid_km2_parse(ext, n, false, &r, &why), 0);
	ext[0] = 1;
	CHECK_EQ(braid_km2_parse(ext, n, false, &r, &why), -EBADMSG);
	CHECK_STR(why, "key-method-2: leading u32 is not zero");
	CHECK_EQ(braid_km2_parse(buf, n + 0, true, &r, &why), -EBADMSG); /* as a client msg: misparsed */
	braid_km2_wipe(&m);
	braid_km2_wipe(&r);
}

static void test_client_roundtrip_and_fuzz(void)
{
	struct braid_km2 m, r;
	uint8_t buf[BRAID_KM2_MSG_MAX], f[BRAID_KM2_MSG_MAX];
	const char *why;
	size_t n;
	unsigned bad = 0;

	memset(&m, 0, sizeof(m));
	CHECK_EQ(braid_km2_randomize(&m, true), 0);
	strcpy(m.options, "V4,dev-type tun,link-mtu 1541,tun-mtu 1500,proto UDPv4,keydir 1,auth SHA1,keysize 128,tls-auth,key-method 2,tls-client");
	strcpy(m.username, "alice");
	strcpy(m.password, "s3cret");
	CHECK_EQ(braid_peer_info_add(m.peer_info, sizeof(m.peer_info), "IV_VER", "2.6.14"), 0);
	CHECK_EQ(braid_peer_info_add(m.peer_info, sizeof(m.peer_info), "IV_PROTO", "990"), 0);
	CHECK_EQ(braid_peer_info_add(m.peer_info, sizeof(m.peer_info), "IV_CIPHERS",
				     "AES-256-GCM:AES-128-GCM:CHACHA20-POLY1305"), 0);
	CHECK_EQ(braid_peer_info_add_braid_mp(m.peer_info, sizeof(m.peer_info)), 0);
	CHECK_EQ(braid_peer_info_add(m.peer_info, sizeof(m.peer_info), "BAD NAME", "x"), -EINVAL);
	CHECK_EQ(braid_peer_info_add(m.peer_info, sizeof(m.peer_info), "X", "a\nb"), -EINVAL);
	CHECK_STR(m.peer_info, "IV_VER=2.6.14\nIV_PROTO=990\n"
		  "IV_CIPHERS=AES-256-GCM:AES-128-GCM:CHACHA20-POLY1305\nIV_BRAID_MP=1\n");
	CHECK_EQ(braid_km2_build(&m, buf, sizeof(buf), &n), 0);
	CHECK_EQ(n, 5 + 48 + 64 + 2 + strlen(m.options) + 1 + 2 + 6 + 2 + 7 + 2 +
		 strlen(m.peer_info) + 1);
	CHECK_EQ(braid_km2_build(&m, buf, n - 1, &n), -ENOBUFS);
	CHECK_EQ(braid_km2_build(&m, buf, sizeof(buf), &n), 0);
	CHECK_EQ(braid_km2_parse(buf, n, true, &r, &why), 0);
	CHECK_MEM(r.pre_master, m.pre_master, 48);
	CHECK_MEM(r.random1, m.random1, 32);
	CHECK_STR(r.username, "alice");
	CHECK_STR(r.password, "s3cret");
	CHECK_STR(r.peer_info, m.peer_info);

	uint32_t proto = 0;
	char v[32];

	CHECK_EQ(braid_peer_info_iv_proto(r.peer_info, &proto), 0);
	CHECK_EQ(proto, 990);
	CHECK(proto & BRAID_IV_PROTO_TLS_KEY_EXPORT);
	CHECK_EQ(braid_peer_info_braid_mp(r.peer_info), 1);
	CHECK_EQ(braid_peer_info_braid_mp("IV_VER=2.6.14\nIV_PROTO=990\n"), 0);
	CHECK_EQ(braid_peer_info_braid_mp("IV_BRAID_MP=x\n"), 0);
	CHECK_EQ(braid_peer_info_get(r.peer_info, "IV_VER", v, sizeof(v)), 0);
	CHECK_STR(v, "2.6.14");
	CHECK_EQ(braid_peer_info_get(r.peer_info, "IV_VE", v, sizeof(v)), -ENOENT);
	CHECK_EQ(braid_peer_info_get(r.peer_info, "IV_CIPHERS", v, 8), -ENOBUFS);
	CHECK_EQ(braid_peer_info_iv_proto("IV_PROTO=abc\n", &proto), -EINVAL);
	CHECK_EQ(braid_peer_info_iv_proto("IV_VER=1\n", &proto), -ENOENT);

	/* every truncation and random corruption: 0 or -EBADMSG, never a crash */
	size_t end_opts = 5 + 48 + 64 + 2 + strlen(m.options) + 1;
	size_t end_user = end_opts + 2 + 6, end_pass = end_user + 2 + 7;

	for (size_t t = 0; t < n; t++) {
		int ret = braid_km2_parse(buf, t, true, &r, &why);
		bool boundary = t == end_opts || t == end_user || t == end_pass;

		if (ret != (boundary ? 0 : -EBADMSG))
			bad++;
	}
	srandom(99);
	for (unsigned it = 0; it < 20000; it++) {
		size_t len = (size_t)random() % sizeof(f);
		int ret;

		memcpy(f, buf, n);
		for (unsigned k = 0; k < 1 + it % 8; k++)
			f[random() % (n + 8)] = (uint8_t)random();
		if (it % 3 == 0)
			len = n;
		if (it % 5 == 0)
			for (size_t i = 0; i < len; i++)
				f[i] = (uint8_t)random();
		ret = braid_km2_parse(f, len, it & 1, &r, &why);
		if (ret != 0 && ret != -EBADMSG)
			bad++;
		if (ret == 0 && (strlen(r.options) >= sizeof(r.options) ||
				 strlen(r.peer_info) > BRAID_KM2_FIELD_MAX))
			bad++;
	}
	CHECK_EQ(bad, 0);
	braid_km2_wipe(&m);
	braid_km2_wipe(&r);
}

int main(void)
{
	test_server_layout();
	test_client_roundtrip_and_fuzz();
	CHECK_DONE();
}
