// SPDX-License-Identifier: GPL-2.0-only
/* test_gw_push.c - per-client PUSH_REPLY: 2.6's order, NCP, compress migrate, continuation. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>

#include "check.h"
#include "gateway/gw_push.h"
#include "session/push.h"

#define PI_STOCK "IV_VER=2.6.14\nIV_PLAT=linux\nIV_TCPNL=1\nIV_MTU=1600\nIV_NCP=2\n" \
	"IV_CIPHERS=AES-256-GCM:AES-128-GCM:CHACHA20-POLY1305\nIV_PROTO=990\n" \
	"IV_LZO_STUB=1\nIV_COMP_STUB=1\nIV_COMP_STUBv2=1\n"

static char joined[4096];

static const char *join(const struct braid_gw_push_out *o)
{
	size_t n = 0;

	joined[0] = 0;
	for (unsigned i = 0; i < o->n_opts; i++)
		n += (size_t)snprintf(joined + n, sizeof(joined) - n, "%s%s", i ? "," : "", o->opts[i]);
	return joined;
}

static char msgs[8][1100];
static int nmsg;

static int emit(void *ctx, const char *m)
{
	(void)ctx;
	snprintf(msgs[nmsg++], sizeof(msgs[0]), "%s", m);
	return 0;
}

static void base(struct braid_gw_push_in *in)
{
	memset(in, 0, sizeof(*in));
	in->subnet = true;
	in->has_v4 = true;
	in->gw4 = 0x0a080001;
	in->ping = 10;
	in->ping_restart = 60;
	in->data_ciphers = "AES-256-GCM:AES-128-GCM:CHACHA20-POLY1305";
	in->tun_mtu = 1500;
	in->has_ifc4 = true;
	in->ifc_local = 0x0a080002;
	in->ifc_remote = 0xffffff00;
	in->peer_id = 0;
	in->peer_info = PI_STOCK;
	in->peer_options = "V4,dev-type tun,link-mtu 1541,tun-mtu 1500,proto UDPv4,keydir 1,"
			   "auth SHA1,keysize 128,tls-auth,key-method 2,tls-client";
}

int main(void)
{
	struct braid_gw_push_in in;
	struct braid_gw_push_out out;
	const char *up[] = { "route 192.168.0.0 255.255.0.0", "dhcp-option DNS 10.8.0.1" };
	const char *cp[] = { "route 172.16.0.0 255.255.0.0" };
	char c[32];
	char *many[40];

	/* what stock 2.6.14 pushes (fact sheet 6.1), without dyn-tls-crypt */
	base(&in);
	CHECK_EQ(braid_gw_push_build(&in, &out), 0);
	CHECK_STR(join(&out), "route-gateway 10.8.0.1,topology subnet,ping 10,ping-restart 60,"
			      "ifconfig 10.8.0.2 255.255.255.0,peer-id 0,cipher AES-256-GCM,"
			      "protocol-flags cc-exit tls-ekm,tun-mtu 1500");
	CHECK(out.use_peer_id);
	CHECK(out.ekm);
	CHECK(out.cc_exit);
	CHECK_EQ(out.framing, BRAID_COMP_NONE);
	braid_gw_push_out_free(&out);

	/* net30, v6, user + ccd pushes, ChaCha-only client, no IV_MTU, old IV_PROTO: 2.6 puts the
	 * `push` lines first, then its helpers' tun-ipv6, route, topology, ping, ping-restart */
	base(&in);
	in.subnet = false;
	in.ifc_local = 0x0a080006;
	in.ifc_remote = 0x0a080005;
	in.has_v6 = true;
	inet_pton(AF_INET6, "fd00:8::1", &in.gw6);
	in.has_ifc6 = true;
	inet_pton(AF_INET6, "fd00:8::1000", &in.ifc6);
	in.ifc6_prefix = 64;
	in.user_push = up;
	in.n_user_push = 2;
	in.ccd_push = cp;
	in.n_ccd_push = 1;
	in.peer_id = 7;
	in.peer_info = "IV_CIPHERS=CHACHA20-POLY1305\nIV_PROTO=10\n";
	CHECK_EQ(braid_gw_push_build(&in, &out), 0);
	CHECK_STR(join(&out), "route 192.168.0.0 255.255.0.0,dhcp-option DNS 10.8.0.1,tun-ipv6,"
			      "route 10.8.0.1,topology net30,ping 10,ping-restart 60,"
			      "route 172.16.0.0 255.255.0.0,ifconfig-ipv6 fd00:8::1000/64 fd00:8::1,"
			      "ifconfig 10.8.0.6 10.8.0.5,peer-id 7,cipher CHACHA20-POLY1305,"
			      "key-derivation tls-ekm");
	CHECK(!out.cc_exit);
	CHECK(out.ekm);
	braid_gw_push_out_free(&out);

	/* ccd push-reset drops the helper items and the user pushes */
	in.push_reset = true;
	CHECK_EQ(braid_gw_push_build(&in, &out), 0);
	CHECK_STR(join(&out), "route 172.16.0.0 255.255.0.0,ifconfig-ipv6 fd00:8::1000/64 fd00:8::1,"
			      "ifconfig 10.8.0.6 10.8.0.5,peer-id 7,cipher CHACHA20-POLY1305,"
			      "key-derivation tls-ekm");
	braid_gw_push_out_free(&out);

	/* no common cipher */
	base(&in);
	in.data_ciphers = "AES-128-GCM";
	in.peer_info = "IV_CIPHERS=CHACHA20-POLY1305\nIV_PROTO=990\n";
	CHECK_EQ(braid_gw_push_build(&in, &out), -ENOTSUP);
	CHECK_STR(out.why, "no common data cipher: ours 'AES-128-GCM', client's 'CHACHA20-POLY1305'");
	/* NCP fallbacks: IV_NCP=2 alone, then the OCC cipher */
	CHECK_EQ(braid_gw_push_ncp("CHACHA20-POLY1305:AES-128-GCM", "IV_NCP=2\n", "", c, sizeof(c)), 0);
	CHECK_STR(c, "AES-128-GCM");
	CHECK_EQ(braid_gw_push_ncp("aes-256-gcm", "IV_VER=2.3\n", "V4,cipher AES-256-GCM,auth SHA1", c,
				   sizeof(c)), 0);
	CHECK_STR(c, "AES-256-GCM");
	CHECK_EQ(braid_gw_push_ncp("AES-256-GCM", "IV_VER=2.3\n", "V4,auth SHA1", c, sizeof(c)),
		 -ENOTSUP);

	/* compress migrate: comp-lzo client with stub-v2 support, then without */
	base(&in);
	in.compress_migrate = true;
	in.peer_options = "V4,dev-type tun,link-mtu 1542,tun-mtu 1500,proto UDPv4,comp-lzo,auth SHA1,"
			  "keysize 128,key-method 2,tls-client";
	CHECK_EQ(braid_gw_push_build(&in, &out), 0);
	CHECK(strstr(join(&out), "ping-restart 60,compress stub-v2,ifconfig 10.8.0.2") != NULL);
	CHECK_EQ(out.framing, BRAID_COMP_STUB_V2);
	braid_gw_push_out_free(&out);
	in.peer_info = "IV_CIPHERS=AES-256-GCM\nIV_PROTO=2\nIV_LZO_STUB=1\n";
	CHECK_EQ(braid_gw_push_build(&in, &out), 0);
	CHECK_STR(join(&out), "route-gateway 10.8.0.1,topology subnet,ping 10,ping-restart 60,"
			      "comp-lzo no,ifconfig 10.8.0.2 255.255.255.0,peer-id 0,cipher AES-256-GCM");
	CHECK_EQ(out.framing, BRAID_COMP_LZO);
	CHECK(!out.ekm);
	braid_gw_push_out_free(&out);

	/* splitting (push.h, shared with the client): one message, then continuations */
	base(&in);
	CHECK_EQ(braid_gw_push_build(&in, &out), 0);
	nmsg = 0;
	CHECK_EQ(braid_push_split((const char *const *)out.opts, out.n_opts, 1024, emit, NULL), 0);
	CHECK_EQ(nmsg, 1);
	CHECK_STR(msgs[0], "PUSH_REPLY,route-gateway 10.8.0.1,topology subnet,ping 10,ping-restart 60,"
			   "ifconfig 10.8.0.2 255.255.255.0,peer-id 0,cipher AES-256-GCM,"
			   "protocol-flags cc-exit tls-ekm,tun-mtu 1500");
	braid_gw_push_out_free(&out);
	for (int i = 0; i < 40; i++) {
		many[i] = malloc(64);
		snprintf(many[i], 64, "route 10.%d.0.0 255.255.0.0 vpn_gateway 5 abcdefghij", i);
	}
	nmsg = 0;
	CHECK_EQ(braid_push_split((const char *const *)many, 40, 1024, emit, NULL), 0);
	CHECK_EQ(nmsg, 3);
	for (int i = 0; i < nmsg; i++) {
		CHECK(strlen(msgs[i]) <= 1024);
		CHECK(!strncmp(msgs[i], "PUSH_REPLY,route 10.", 20));
	}
	CHECK(strstr(msgs[0], ",push-continuation 2") == msgs[0] + strlen(msgs[0]) - 20);
	CHECK(strstr(msgs[1], ",push-continuation 2") != NULL);
	CHECK(strstr(msgs[2], ",push-continuation 1") == msgs[2] + strlen(msgs[2]) - 20);
	CHECK(strstr(msgs[2], "route 10.39.0.0") != NULL);
	CHECK_EQ(braid_push_split((const char *const *)many, 40, 50, emit, NULL), -EMSGSIZE);
	for (int i = 0; i < 40; i++)
		free(many[i]);
	CHECK_DONE();
}
