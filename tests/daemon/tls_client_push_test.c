// SPDX-License-Identifier: GPL-2.0-only
/*
 * tls_client_push_test.c - push.c: PUSH_REPLY split/accumulate round trips, continuation markers,
 * the 1024-byte limit, pull-filter and route-nopull, parsing of a stock 2.6 reply and its errors,
 * random replies, and the classification of the other control messages (AUTH_FAILED,TEMP flags, ...);
 * push_dns.c: the 2.6 `dns` option and dhcp-option DNS/DOMAIN into resolver settings, their resolv.conf
 * text (os/dns.c); a `braid-mp` offer that cannot be read leaves the reply valid (single path).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/check.h"
#include "os/dns.h"
#include "session/push.h"
#include "session/push_dns.h"

struct msgs {
	char m[64][BRAID_PUSH_MSG_MAX + 1];
	unsigned int n;
};

static int emit(void *user, const char *msg)
{
	struct msgs *ms = user;

	if (ms->n >= 64)
		return -ENOSPC;
	snprintf(ms->m[ms->n++], sizeof(ms->m[0]), "%s", msg);
	return 0;
}

static void test_split_one(void)
{
	const char *opts[] = { "route 10.9.0.0 255.255.255.0", "topology subnet", "ping 10" };
	struct msgs ms = { .n = 0 };
	struct braid_push_list l = { .n = 0 };
	char err[256];

	CHECK_EQ(braid_push_split(opts, 3, 0, emit, &ms), 0);
	CHECK_EQ(ms.n, 1);
	CHECK_STR(ms.m[0], "PUSH_REPLY,route 10.9.0.0 255.255.255.0,topology subnet,ping 10");
	CHECK_EQ(braid_push_accumulate(&l, ms.m[0], err, sizeof(err)), 1);
	CHECK_EQ(l.n, 3);
	CHECK_STR(l.opt[1], "topology subnet");
	braid_push_list_clear(&l);

	ms.n = 0;
	CHECK_EQ(braid_push_split(NULL, 0, 0, emit, &ms), 0);
	CHECK_EQ(ms.n, 1);
	CHECK_STR(ms.m[0], "PUSH_REPLY");
	CHECK_EQ(braid_push_accumulate(&l, "PUSH_REPLY", err, sizeof(err)), 1);
	CHECK_EQ(l.n, 0);
	braid_push_list_clear(&l);
}

static void test_split_many(void)
{
	static char buf[200][40];
	const char *opts[200];
	struct msgs ms = { .n = 0 };
	struct braid_push_list l = { .n = 0 };
	char err[256];
	unsigned int total = 0;

	for (int i = 0; i < 200; i++) {
		snprintf(buf[i], sizeof(buf[i]), "route 10.%d.%d.0 255.255.255.0", i / 256, i % 256);
		opts[i] = buf[i];
	}
	CHECK_EQ(braid_push_split(opts, 200, 0, emit, &ms), 0);
	CHECKM(ms.n >= 7, "%u messages", ms.n);
	for (unsigned int i = 0; i < ms.n; i++) {
		const char *tail = i + 1 < ms.n ? ",push-continuation 2" : ",push-continuation 1";
		size_t len = strlen(ms.m[i]);

		CHECKM(len <= BRAID_PUSH_MSG_MAX, "message %u is %zu bytes", i, len);
		CHECK(!strncmp(ms.m[i], "PUSH_REPLY,", 11));
		CHECKM(len > strlen(tail) && !strcmp(ms.m[i] + len - strlen(tail), tail),
		       "message %u ends '%s'", i, ms.m[i] + (len > 24 ? len - 24 : 0));
		CHECK_EQ(braid_push_accumulate(&l, ms.m[i], err, sizeof(err)), i + 1 < ms.n ? 0 : 1);
	}
	CHECK_EQ(l.n, 200);
	CHECK_EQ(l.parts, ms.n);
	for (unsigned int i = 0; i < l.n && i < 200; i++)
		if (strcmp(l.opt[i], opts[i]))
			total++;
	CHECK_EQ(total, 0);
	braid_push_list_clear(&l);

	/* a small limit: exact split */
	const char *small[] = { "aaaa", "bbbb", "cccc", "dddd", "eeee", "ffff", "gggg" };

	ms.n = 0;	/* fits whole: no marker */
	CHECK_EQ(braid_push_split(small, 3, 40, emit, &ms), 0);
	CHECK_EQ(ms.n, 1);
	CHECK_STR(ms.m[0], "PUSH_REPLY,aaaa,bbbb,cccc");
	ms.n = 0;	/* 45 bytes whole > 40: two options per part (10 + 10 + 20 marker) */
	CHECK_EQ(braid_push_split(small, 7, 40, emit, &ms), 0);
	CHECK_EQ(ms.n, 4);
	CHECK_STR(ms.m[0], "PUSH_REPLY,aaaa,bbbb,push-continuation 2");
	CHECK_STR(ms.m[2], "PUSH_REPLY,eeee,ffff,push-continuation 2");
	CHECK_STR(ms.m[3], "PUSH_REPLY,gggg,push-continuation 1");
	CHECK_EQ(strlen(ms.m[0]), 40);

	/* options that cannot be sent */
	const char *comma[] = { "route a,b" };
	char longopt[1100];

	memset(longopt, 'x', sizeof(longopt) - 1);
	longopt[sizeof(longopt) - 1] = '\0';
	const char *lng[] = { longopt };

	CHECK_EQ(braid_push_split(comma, 1, 0, emit, &ms), -EINVAL);
	CHECK_EQ(braid_push_split(lng, 1, 0, emit, &ms), -EMSGSIZE);
}

static void test_accumulate_errors(void)
{
	struct braid_push_list l = { .n = 0 };
	char err[256];

	CHECK_EQ(braid_push_accumulate(&l, "PUSH_REPLYX,a", err, sizeof(err)), -EBADMSG);
	CHECK_STR(err, "not a PUSH_REPLY: 'PUSH_REPLYX,a'");
	CHECK_EQ(braid_push_accumulate(&l, "AUTH_FAILED", err, sizeof(err)), -EBADMSG);
	/* a new reply after a complete one starts over */
	CHECK_EQ(braid_push_accumulate(&l, "PUSH_REPLY,a,push-continuation 2", err, sizeof(err)), 0);
	CHECK_EQ(braid_push_accumulate(&l, "PUSH_REPLY,b", err, sizeof(err)), 1);
	CHECK_EQ(l.n, 2);
	CHECK_EQ(braid_push_accumulate(&l, "PUSH_REPLY,c", err, sizeof(err)), 1);
	CHECK_EQ(l.n, 1);
	CHECK_STR(l.opt[0], "c");
	braid_push_list_clear(&l);
}

static void test_filter(void)
{
	struct braid_push_list l = { .n = 0 };
	struct braid_opt_pull_filter rules[] = {
		{ BRAID_PF_ACCEPT, "route 10.1." },
		{ BRAID_PF_IGNORE, "route " },
		{ BRAID_PF_REJECT, "topology" },
	};
	char err[256];

	CHECK_EQ(braid_push_accumulate(&l, "PUSH_REPLY,route 10.1.0.0 255.255.0.0,route 10.2.0.0 "
					   "255.255.0.0,dhcp-option DNS 1.1.1.1,ping 10",
				       err, sizeof(err)), 1);
	CHECK_EQ(braid_push_filter(&l, rules, 3, false, err, sizeof(err)), 0);
	CHECK_EQ(l.n, 3);
	CHECK_STR(l.opt[0], "route 10.1.0.0 255.255.0.0");
	CHECK_STR(l.opt[1], "dhcp-option DNS 1.1.1.1");
	CHECK_EQ(braid_push_filter(&l, NULL, 0, true, err, sizeof(err)), 0);
	CHECK_EQ(l.n, 1);
	CHECK_STR(l.opt[0], "ping 10");
	braid_push_list_clear(&l);

	CHECK_EQ(braid_push_accumulate(&l, "PUSH_REPLY,ping 1,topology subnet", err, sizeof(err)), 1);
	CHECK_EQ(braid_push_filter(&l, rules, 3, false, err, sizeof(err)), -EPERM);
	CHECK_STR(err, "pushed option rejected by pull-filter: 'topology subnet'");
	braid_push_list_clear(&l);
}

static void test_parse(void)
{
	struct braid_push_list l = { .n = 0 };
	struct braid_pushed p;
	char err[256], a[64];

	/* what a stock 2.6.14 server sent in tls_client_udp */
	CHECK_EQ(braid_push_accumulate(&l,
		"PUSH_REPLY,route 10.9.0.0 255.255.255.0,dhcp-option DNS 10.8.0.53,tun-ipv6,"
		"route-gateway 10.8.0.1,topology subnet,ping 2,ping-restart 20,ifconfig-ipv6 "
		"fd00:8::1000/64 fd00:8::1,ifconfig 10.8.0.2 255.255.255.0,peer-id 3,cipher AES-256-GCM,"
		"protocol-flags cc-exit tls-ekm,tun-mtu 1500,redirect-gateway def1 bypass-dhcp,"
		"route-ipv6 fd00:9::/48,comp-lzo no", err, sizeof(err)), 1);
	CHECK_EQ(braid_push_parse(&l, &p, err, sizeof(err)), 0);
	CHECK_EQ(p.topology, BRAID_TOPO_SUBNET);
	CHECK(p.has_ifconfig);
	CHECK_STR(inet_ntop(AF_INET, &p.ifc_local, a, sizeof(a)), "10.8.0.2");
	CHECK_STR(inet_ntop(AF_INET, &p.ifc_remote, a, sizeof(a)), "255.255.255.0");
	CHECK(p.has_ifconfig6);
	CHECK_STR(inet_ntop(AF_INET6, &p.ifc6_local, a, sizeof(a)), "fd00:8::1000");
	CHECK_EQ(p.ifc6_prefix, 64);
	CHECK_STR(inet_ntop(AF_INET, &p.route_gateway, a, sizeof(a)), "10.8.0.1");
	CHECK_EQ(p.n_routes, 2);
	CHECK_EQ(p.routes[0].prefix, 24);
	CHECK_EQ(p.routes[1].family, AF_INET6);
	CHECK_EQ(p.routes[1].prefix, 48);
	CHECK_EQ(p.n_dhcp, 1);
	CHECK_STR(p.dhcp[0], "DNS 10.8.0.53");
	CHECK(p.has_peer_id);
	CHECK_EQ(p.peer_id, 3);
	CHECK_STR(p.cipher, "AES-256-GCM");
	CHECK(p.cc_exit && p.tls_ekm && !p.dyn_tls_crypt);
	CHECK_EQ(p.ping, 2);
	CHECK_EQ(p.ping_restart, 20);
	CHECK_EQ(p.tun_mtu, 1500);
	CHECK(p.redirect);
	CHECK(p.redirect_flags & BRAID_RG_DEF1);
	CHECK(p.redirect_flags & BRAID_RG_BYPASS_DHCP);
	CHECK(p.has_comp && p.comp == BRAID_PUSH_COMP_LZO_NO);
	CHECK_EQ(p.explicit_exit_notify, -1);
	braid_pushed_free(&p);
	braid_push_list_clear(&l);

	static const struct { const char *reply, *err; } bad[] = {
		{ "PUSH_REPLY,peer-id x", "pushed 'peer-id': not a number 0..16777215" },
		{ "PUSH_REPLY,ifconfig 10.8.0.2", "pushed 'ifconfig 10.8.0.2': needs two IPv4 addresses" },
		{ "PUSH_REPLY,route 10.1.0.0 255.0.255.0", "pushed 'route 10.1.0.0': bad netmask '255.0.255.0'" },
		{ "PUSH_REPLY,comp-lzo yes",
		  "pushed 'comp-lzo yes': compression is not supported (VORACLE); only 'comp-lzo no'" },
		{ "PUSH_REPLY,compress lz4",
		  "pushed 'compress lz4': compression is not supported (VORACLE); only stub/stub-v2" },
		{ "PUSH_REPLY,tun-mtu 100", "pushed 'tun-mtu': not a number 576..9000" },
		{ "PUSH_REPLY,topology star", "pushed 'topology star': unknown topology" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_EQ(braid_push_accumulate(&l, bad[i].reply, err, sizeof(err)), 1);
		err[0] = '\0';
		CHECK_EQ(braid_push_parse(&l, &p, err, sizeof(err)), -EINVAL);
		CHECK_STR(err, bad[i].err);
		braid_push_list_clear(&l);
	}
	/* unknown options are skipped, as OpenVPN does with pushed options */
	CHECK_EQ(braid_push_accumulate(&l, "PUSH_REPLY,frobnicate 1,ping 5", err, sizeof(err)), 1);
	CHECK_EQ(braid_push_parse(&l, &p, err, sizeof(err)), 0);
	CHECK_EQ(p.n_ignored, 1);
	CHECK_EQ(p.ping, 5);
	braid_pushed_free(&p);
	braid_push_list_clear(&l);
}

static void parse_str(const char *reply, struct braid_pushed *p)
{
	struct braid_push_list l = { .n = 0 };
	char err[256];

	CHECK_EQ(braid_push_accumulate(&l, reply, err, sizeof(err)), 1);
	err[0] = '\0';
	CHECK_EQ(braid_push_parse(&l, p, err, sizeof(err)), 0);
	CHECK_STR(err, "");
	braid_push_list_clear(&l);
}

static void test_dns(void)
{
	struct braid_pushed p;
	struct braid_dns_conf dc;
	char text[512];

	/* the lowest `dns server` priority wins over dhcp-option DNS; search-domains over DOMAIN */
	parse_str("PUSH_REPLY,dhcp-option DNS 10.8.0.53,dhcp-option DOMAIN corp.example,"
		  "dns server 1 address 10.8.0.99,dns server -2 address 10.8.0.54 [fd00:8::54]:53 10.8.0.55:5353,"
		  "dns server -2 resolve-domains corp.example lab.example,dns search-domains a.example b.example,"
		  "dns server -2 transport DoT,dns server -2 dnssec yes,dns server -2 sni dns.example,"
		  "dns server 3 bogus x,dns server 300 address 1.1.1.1,dns server 4 address 1.1.1.1:99999,"
		  "dns search-domains bad;name,dns frob", &p);
	CHECK_EQ(p.n_dns, 2);	/* 1 and -2; 3 created before its bad keyword: no address */
	CHECK_EQ(p.n_ignored, 5);
	CHECK_EQ(p.n_dns_search, 2);
	braid_push_dns_conf(&p, NULL, &dc);
	CHECK_EQ(dc.n_servers, 2);
	CHECK_STR(dc.servers[0], "10.8.0.54");
	CHECK_STR(dc.servers[1], "fd00:8::54");	/* 10.8.0.55:5353 left out: port */
	CHECK_EQ(dc.n_search, 2);
	CHECK_STR(dc.search[0], "a.example");
	CHECK_STR(dc.search[1], "b.example");
	CHECK_EQ(dc.n_route, 2);
	CHECK_STR(dc.route[1], "lab.example");
	CHECK_EQ(braid_dns_format(&dc, "tun0", text, sizeof(text)), (int)strlen(text));
	CHECK_STR(text, "# braidd tun0: written by braidd for the tunnel, restored when it ends\n"
			"search a.example b.example\nnameserver 10.8.0.54\nnameserver fd00:8::54\n");
	CHECK_EQ(braid_dns_format(&dc, "tun0", text, 40), -ENOSPC);
	braid_pushed_free(&p);

	/* without `dns server`: dhcp-option DNS/DNS6 in order, DOMAIN then DOMAIN-SEARCH, duplicates once */
	parse_str("PUSH_REPLY,dhcp-option DOMAIN-SEARCH lab.example,dhcp-option DNS 10.8.0.53,"
		  "dhcp-option dns6 fd00:8::53,dhcp-option DNS 10.8.0.53,dhcp-option DOMAIN corp.example,"
		  "dhcp-option DNS not-an-address,dhcp-option DOMAIN bad/name,dhcp-option NTP 10.8.0.1", &p);
	braid_push_dns_conf(&p, NULL, &dc);
	CHECK_EQ(dc.n_servers, 2);
	CHECK_STR(dc.servers[0], "10.8.0.53");
	CHECK_STR(dc.servers[1], "fd00:8::53");
	CHECK_EQ(dc.n_search, 2);
	CHECK_STR(dc.search[0], "corp.example");
	CHECK_STR(dc.search[1], "lab.example");
	braid_pushed_free(&p);

	/* the configuration's dhcp-option lines come first (OpenVPN's foreign_option order) */
	{
		static struct braid_options o;

		o.dhcp_options[0] = (struct braid_opt_dhcp){ .type = "dns", .value = "192.0.2.53" };
		o.dhcp_options[1] = (struct braid_opt_dhcp){ .type = "DOMAIN", .value = "own.example" };
		o.dhcp_options[2] = (struct braid_opt_dhcp){ .type = "DISABLE-NBT", .value = NULL };
		o.n_dhcp_options = 3;
		parse_str("PUSH_REPLY,dhcp-option DNS 10.8.0.53,dhcp-option DOMAIN corp.example", &p);
		braid_push_dns_conf(&p, &o, &dc);
		CHECK_EQ(dc.n_servers, 2);
		CHECK_STR(dc.servers[0], "192.0.2.53");
		CHECK_STR(dc.servers[1], "10.8.0.53");
		CHECK_EQ(dc.n_search, 2);
		CHECK_STR(dc.search[0], "own.example");
		CHECK_STR(dc.search[1], "corp.example");
		braid_pushed_free(&p);
	}

	/* a `braid-mp` offer that cannot be read: the reply stays valid, no multipath */
	parse_str("PUSH_REPLY,braid-mp x9 65536,ping 5", &p);
	CHECK(p.braid_mp_offered);
	CHECK_EQ(p.braid_mp, 0);
	CHECK_EQ(p.ping, 5);
	braid_pushed_free(&p);
	parse_str("PUSH_REPLY,braid-mp 7 65536", &p);
	CHECK(p.braid_mp_offered);
	CHECK_EQ(p.braid_mp, 7);	/* readable: the client decides (client_mp_accept) */
	braid_pushed_free(&p);
	parse_str("PUSH_REPLY,braid-mp 01 65536", &p);
	CHECK_EQ(p.braid_mp, 0);
	braid_pushed_free(&p);

	CHECK(braid_dns_name_ok("a-b_c.example"));
	CHECK(!braid_dns_name_ok(""));
	CHECK(!braid_dns_name_ok("-x"));
	CHECK(!braid_dns_name_ok("a b"));
	CHECK(!braid_dns_name_ok("a\nnameserver 1.2.3.4"));
}

/*
 * Random replies from a vocabulary of option names, numbers, addresses and junk: accumulate, filter
 * and parse must answer 0/1 or a negative errno with a message, never crash (run under ASan/UBSan).
 */
static void test_random_replies(void)
{
	static const char *const words[] = {
		"route", "route-ipv6", "ifconfig", "ifconfig-ipv6", "topology", "peer-id", "cipher",
		"protocol-flags", "tun-mtu", "ping", "ping-restart", "redirect-gateway", "dhcp-option",
		"comp-lzo", "compress", "auth-token", "route-gateway", "key-derivation",
		"explicit-exit-notify", "push-continuation", "10.8.0.2", "255.255.255.0", "fd00::1/64",
		"fd00::/200", "0", "1", "2", "-1", "99999999999", "subnet", "net30", "def1", "ipv6", "no",
		"stub-v2", "tls-ekm", "cc-exit", "AES-256-GCM", "", " ", "\t", "x", "a.b.c.d", "/", "::",
	};
	const unsigned int nw = sizeof(words) / sizeof(words[0]);
	struct braid_opt_pull_filter rules[] = { { BRAID_PF_IGNORE, "dhcp" } };
	unsigned int seed = 12345, ok = 0, bad = 0;
	char msg[BRAID_PUSH_MSG_MAX + 1], err[256];
	struct braid_push_list l = { .n = 0 };
	struct braid_pushed p;

	for (int iter = 0; iter < 20000; iter++) {
		size_t len = (size_t)snprintf(msg, sizeof(msg), "PUSH_REPLY");
		unsigned int nopt = (seed = seed * 1103515245u + 12345u) >> 16 & 15;

		for (unsigned int i = 0; i < nopt && len < sizeof(msg) - 64; i++) {
			unsigned int nt = 1 + ((seed = seed * 1103515245u + 12345u) >> 16 & 3);

			len += (size_t)snprintf(msg + len, sizeof(msg) - len, ",");
			for (unsigned int t = 0; t < nt; t++) {
				seed = seed * 1103515245u + 12345u;
				len += (size_t)snprintf(msg + len, sizeof(msg) - len, "%s%s", t ? " " : "",
							words[(seed >> 16) % nw]);
			}
		}
		int r = braid_push_accumulate(&l, msg, err, sizeof(err));

		if (r < 0) {
			CHECKM(err[0], "no message for %d", r);
			braid_push_list_clear(&l);
			continue;
		}
		if (r == 0)
			continue;
		r = braid_push_filter(&l, rules, 1, (iter & 1) != 0, err, sizeof(err));
		if (!r) {
			err[0] = '\0';
			r = braid_push_parse(&l, &p, err, sizeof(err));
			if (r) {
				CHECKM(r == -EINVAL && err[0], "parse %d without a message: %s", r, msg);
				bad++;
			} else {
				ok++;
				braid_pushed_free(&p);
			}
		}
		braid_push_list_clear(&l);
	}
	CHECKM(ok > 100 && bad > 100, "random replies: %u parsed, %u refused", ok, bad);
}

static void test_ctl_msg(void)
{
	struct braid_ctl_msg m;

	braid_ctl_msg_parse("AUTH_FAILED,TEMP[backoff 7,advance no]:server busy", &m);
	CHECK_EQ(m.kind, BRAID_MSG_AUTH_FAILED);
	CHECK(m.temp);
	CHECK_EQ(m.backoff, 7);
	CHECK_EQ(m.advance, 0);
	CHECK_STR(m.text, "server busy");
	braid_ctl_msg_parse("AUTH_FAILED,TEMP[advance remote]", &m);
	CHECK(m.temp);
	CHECK_EQ(m.backoff, -1);
	CHECK_EQ(m.advance, 1);
	braid_ctl_msg_parse("AUTH_FAILED,TEMP:x", &m);
	CHECK(m.temp && m.backoff == -1 && m.advance == -1);
	CHECK_STR(m.text, "x");
	braid_ctl_msg_parse("AUTH_FAILED", &m);
	CHECK_EQ(m.kind, BRAID_MSG_AUTH_FAILED);
	CHECK(!m.temp);
	CHECK_STR(m.text, "");
	braid_ctl_msg_parse("AUTH_FAILED,bad password", &m);
	CHECK(!m.temp);
	CHECK_STR(m.text, "bad password");
	braid_ctl_msg_parse("AUTH_FAILED,TEMP[backoff 999999999999]", &m);
	CHECK_EQ(m.backoff, -1);
	braid_ctl_msg_parse("AUTH_PENDING,timeout 30", &m);
	CHECK_EQ(m.kind, BRAID_MSG_AUTH_PENDING);
	CHECK_EQ(m.timeout, 30);
	braid_ctl_msg_parse("AUTH_PENDING", &m);
	CHECK_EQ(m.timeout, -1);
	braid_ctl_msg_parse("RESTART,[N]server going down", &m);
	CHECK_EQ(m.kind, BRAID_MSG_RESTART);
	CHECK(m.next_remote);
	CHECK_STR(m.text, "server going down");
	braid_ctl_msg_parse("RESTART,[P]x", &m);
	CHECK(!m.next_remote);
	braid_ctl_msg_parse("RESTART", &m);
	CHECK(m.kind == BRAID_MSG_RESTART && !m.next_remote);
	braid_ctl_msg_parse("HALT,bye", &m);
	CHECK_EQ(m.kind, BRAID_MSG_HALT);
	CHECK_STR(m.text, "bye");
	braid_ctl_msg_parse("EXIT", &m);
	CHECK_EQ(m.kind, BRAID_MSG_EXIT);
	braid_ctl_msg_parse("EXITED", &m);
	CHECK_EQ(m.kind, BRAID_MSG_UNKNOWN);
	braid_ctl_msg_parse("INFO_PRE,CR_TEXT:R,E:hi", &m);
	CHECK_EQ(m.kind, BRAID_MSG_INFO);
	CHECK_STR(m.text, "CR_TEXT:R,E:hi");
	braid_ctl_msg_parse("PUSH_REQUEST", &m);
	CHECK_EQ(m.kind, BRAID_MSG_PUSH_REQUEST);
	braid_ctl_msg_parse("PUSH_REPLY,ping 1", &m);
	CHECK_EQ(m.kind, BRAID_MSG_PUSH_REPLY);
	CHECK_STR(m.text, "ping 1");
	braid_ctl_msg_parse("PUSH_REPLYX", &m);
	CHECK_EQ(m.kind, BRAID_MSG_UNKNOWN);
	braid_ctl_msg_parse("RESTART,[N", &m);	/* no closing bracket: plain text */
	CHECK(!m.next_remote);
}

int main(void)
{
	test_split_one();
	test_split_many();
	test_accumulate_errors();
	test_filter();
	test_parse();
	test_random_replies();
	test_dns();
	test_ctl_msg();
	CHECK_DONE();
}
