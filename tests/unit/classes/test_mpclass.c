// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mpclass.c - mp-class rules: every match and policy, the parse errors
 * (exact messages), first-match order, IPv4/IPv6 (with extension headers),
 * fragments, and the built-in classes as the default.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "mp/mp_classify.h"
#include "config/mpclass.h"
#include "util/wire.h"


#define CLS(m) ((m) & BRAID_MP_META_CLASS)

/* Build an IPv4 packet of total length tot with an L4 header for proto. */
static size_t v4(uint8_t *b, size_t tot, uint8_t proto, uint8_t dscp, uint16_t sp, uint16_t dp,
		 uint8_t tcpflags, uint16_t frag)
{
	memset(b, 0, tot);
	b[0] = 0x45;
	b[1] = (uint8_t)(dscp << 2);
	wire_put_be16(b + 2, (uint16_t)tot);
	wire_put_be16(b + 6, frag);
	b[8] = 64;
	b[9] = proto;
	if (proto == 6 || proto == 17) {
		wire_put_be16(b + 20, sp);
		wire_put_be16(b + 22, dp);
	}
	if (proto == 6) {
		b[32] = 5 << 4;
		b[33] = tcpflags;
	}
	return tot;
}

/* IPv6 with an optional 8-byte extension header (ext = its type, 0 = none). */
static size_t v6(uint8_t *b, size_t tot, uint8_t ext, uint8_t proto, uint8_t dscp, uint16_t sp,
		 uint16_t dp, uint8_t tcpflags)
{
	size_t off = 40;

	memset(b, 0, tot);
	b[0] = (uint8_t)(0x60 | dscp >> 2);
	b[1] = (uint8_t)((dscp & 3) << 6);
	wire_put_be16(b + 4, (uint16_t)(tot - 40));
	b[7] = 64;
	if (ext != 0xff) {
		b[6] = ext;
		b[40] = proto;
		b[41] = 0;
		off = 48;
	} else {
		b[6] = proto;
	}
	if (proto == 6 || proto == 17) {
		wire_put_be16(b + off, sp);
		wire_put_be16(b + off + 2, dp);
	}
	if (proto == 6) {
		b[off + 12] = 5 << 4;
		b[off + 13] = tcpflags;
	}
	return tot;
}

static int parse(struct braid_mpclass_rule *r, const char *line, char *err, size_t errlen)
{
	char buf[256], *argv[16], *save = NULL, *t;
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	for (t = strtok_r(buf, " ", &save); t && argc < 16; t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	err[0] = '\0';
	return braid_mpclass_parse(r, argc, argv, err, errlen);
}

static void add(struct braid_mpclass_rules *rs, const char *line)
{
	struct braid_mpclass_rule r;
	char err[200];

	CHECK_EQ(parse(&r, line, err, sizeof(err)), 0);
	CHECKM(!err[0], "%s: %s", line, err);
	CHECK_EQ(braid_mpclass_add(rs, &r), 0);
}

static void parse_errors(void)
{
	static const struct {
		const char *line, *msg;
	} bad[] = {
		{ "lowest-delay", "a rule needs at least one match before the policy" },
		{ "port 5201 fast", "unknown policy 'fast' (lowest-delay, bulk or redundant)" },
		{ "redundant", "a rule needs at least one match before the policy" },
		{ "port 5060 redundant redundant", "unknown match 'redundant' (proto, port, dscp, size, tcp-ack)" },
		{ "proto udp port 0 redundant", "bad port '0' (N or N-M, 1-65535)" },
		{ "dscp xx redundant", "bad dscp 'xx' (0-63, ef, af11..af43, cs0..cs7, va, le)" },
		{ "color red bulk", "unknown match 'color' (proto, port, dscp, size, tcp-ack)" },
		{ "port bulk", "match 'port' needs a value" },
		{ "port 0 bulk", "bad port '0' (N or N-M, 1-65535)" },
		{ "port 70000 bulk", "bad port '70000' (N or N-M, 1-65535)" },
		{ "port 80x bulk", "bad port '80x' (N or N-M, 1-65535)" },
		{ "port 90-80 bulk", "bad port range '90-80' (N-M with N <= M)" },
		{ "port 80- bulk", "bad port range '80-' (N-M with N <= M)" },
		{ "proto sctp bulk", "bad protocol 'sctp' (tcp, udp or icmp)" },
		{ "dscp 64 bulk", "bad dscp '64' (0-63, ef, af11..af43, cs0..cs7, va, le)" },
		{ "dscp af44 bulk", "bad dscp 'af44' (0-63, ef, af11..af43, cs0..cs7, va, le)" },
		{ "size 100 bulk", "bad size '100' (<=N bytes, 20-65535)" },
		{ "size <=10 bulk", "bad size '<=10' (<=N bytes, 20-65535)" },
		{ "port 1 port 2 bulk", "match 'port' given twice" },
		{ "proto icmp port 5 bulk", "'port' needs proto tcp or udp, not icmp" },
		{ "proto udp tcp-ack bulk", "'tcp-ack' contradicts the protocol given" },
	};
	struct braid_mpclass_rule r;
	char err[200];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_EQ(parse(&r, bad[i].line, err, sizeof(err)), -EINVAL);
		CHECK_STR(err, bad[i].msg);
	}
	CHECK_EQ(braid_mpclass_parse(&r, 0, NULL, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "a rule needs matches and a policy");
}

static void parse_ok(void)
{
	static const struct {
		const char *line, *canon;
	} ok[] = {
		{ "port 5201 lowest-delay", "port 5201 lowest-delay" },
		{ "proto tcp port 8000-8080 bulk", "proto tcp port 8000-8080 bulk" },
		{ "dscp ef lowest-delay", "dscp 46 lowest-delay" },
		{ "dscp af41 lowest-delay", "dscp 34 lowest-delay" },
		{ "dscp AF11 bulk", "dscp 10 bulk" },
		{ "dscp cs6 bulk", "dscp 48 bulk" },
		{ "dscp va bulk", "dscp 44 bulk" },
		{ "dscp le bulk", "dscp 1 bulk" },
		{ "size <=200 proto udp lowest-delay", "proto udp size <=200 lowest-delay" },
		{ "tcp-ack bulk", "tcp-ack bulk" },
		{ "proto icmp lowest-delay", "proto icmp lowest-delay" },
		{ "proto udp port 5060 redundant", "proto udp port 5060 redundant" },
		{ "dscp ef redundant", "dscp 46 redundant" },
		{ "port 5060 proto udp size <=300 redundant", "proto udp port 5060 size <=300 redundant" },
	};
	struct braid_mpclass_rule r;
	char err[200], out[200];

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct braid_mpclass_rule again;

		CHECK_EQ(parse(&r, ok[i].line, err, sizeof(err)), 0);
		braid_mpclass_format(&r, out, sizeof(out));
		CHECK_STR(out, ok[i].canon);
		/* the canonical form parses to the same rule */
		CHECK_EQ(parse(&again, out, err, sizeof(err)), 0);
		CHECK(again.has == r.has && again.proto == r.proto && again.dscp == r.dscp &&
		      again.port_lo == r.port_lo && again.port_hi == r.port_hi &&
		      again.size_max == r.size_max && again.policy == r.policy);
	}
	CHECK_EQ(parse(&r, "dscp ef redundant", err, sizeof(err)), 0);
	CHECK_EQ(r.policy, BRAID_MPCLASS_REDUNDANT);
	/* truncation is safe */
	CHECK_EQ(parse(&r, "proto tcp port 8000-8080 bulk", err, sizeof(err)), 0);
	braid_mpclass_format(&r, out, 8);
	CHECK_STR(out, "proto t");
}

static void defaults(void)
{
	struct braid_mpclass_rules none = { 0 };
	uint8_t b[1600];
	size_t n;

	/* no rules: exactly the engine's built-in classes */
	n = v4(b, 1400, 6, 0, 40000, 5201, 0x18, 0);
	CHECK_EQ(braid_mpclass_classify(&none, b, n), BRAID_MP_CLASS_BULK);
	CHECK_EQ(braid_mpclass_classify(NULL, b, n), BRAID_MP_CLASS_BULK);
	n = v4(b, 40, 6, 0, 40000, 5201, 0x10, 0);
	CHECK_EQ(braid_mpclass_classify(&none, b, n), BRAID_MP_CLASS_ACK);
	n = v4(b, 300, 17, 0, 40000, 53, 0, 0);
	CHECK_EQ(braid_mpclass_classify(&none, b, n), BRAID_MP_CLASS_DNS);
	n = v4(b, 1000, 17, 46, 40000, 4000, 0, 0);
	CHECK_EQ(braid_mpclass_classify(&none, b, n), BRAID_MP_CLASS_EF);
	n = v6(b, 100, 0xff, 17, 0, 1, 2, 0);
	CHECK_EQ(braid_mpclass_classify(&none, b, n), BRAID_MP_CLASS_SMALL);
	for (size_t len = 0; len < 64; len++) {	/* short garbage never crashes */
		memset(b, 0x45, sizeof(b));
		CHECK_EQ(braid_mpclass_classify(&none, b, len), braid_mp_classify(b, len, 0));
	}
}

static void matching(void)
{
	struct braid_mpclass_rules rs = { 0 };
	uint8_t b[1600];
	size_t n;

	add(&rs, "port 5201 lowest-delay");
	add(&rs, "proto udp port 53 bulk");
	add(&rs, "dscp af41 lowest-delay");
	add(&rs, "tcp-ack bulk");
	add(&rs, "proto icmp size <=1000 lowest-delay");
	add(&rs, "port 6000-6010 lowest-delay");
	add(&rs, "port 6005 bulk");	/* shadowed by the range: first match wins */
	CHECK_EQ(rs.n, 7);

	/* bulk TCP to 5201 (either direction) -> latency class EF */
	n = v4(b, 1400, 6, 0, 40000, 5201, 0x18, 0);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_EF);
	n = v4(b, 1400, 6, 0, 5201, 40000, 0x18, 0);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_EF);
	/* pure ACK of that flow: rule 1 wins and keeps the built-in ACK class */
	n = v4(b, 40, 6, 0, 40000, 5201, 0x10, 0);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_ACK);
	/* any other pure ACK: rule 4 makes it bulk */
	n = v4(b, 40, 6, 0, 40000, 443, 0x10, 0);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_BULK);
	/* SYN is not a pure ACK: built-in small */
	n = v4(b, 40, 6, 0, 40000, 443, 0x12, 0);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_SMALL);
	/* UDP DNS -> bulk; TCP DNS keeps the built-in class */
	n = v4(b, 300, 17, 0, 40000, 53, 0, 0);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_BULK);
	n = v4(b, 300, 6, 0, 40000, 53, 0x18, 0);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_DNS);
	/* DSCP AF41 (34) bulk-sized -> EF; AF42 not */
	n = v4(b, 1200, 17, 34, 1000, 2000, 0, 0);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_EF);
	n = v4(b, 1200, 17, 36, 1000, 2000, 0, 0);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_BULK);
	/* ICMP: size bound inclusive; a small one keeps the built-in class */
	n = v4(b, 100, 1, 0, 0, 0, 0, 0);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_SMALL);
	n = v4(b, 1000, 1, 0, 0, 0, 0, 0);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_EF);
	n = v4(b, 1001, 1, 0, 0, 0, 0, 0);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_BULK);
	/* range rule, and the shadowed single-port rule never applies */
	n = v4(b, 1400, 17, 0, 6005, 9999, 0, 0);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_EF);
	n = v4(b, 1400, 17, 0, 6011, 9999, 0, 0);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_BULK);
	/* a non-first fragment has no ports: no port rule matches */
	n = v4(b, 1400, 6, 0, 40000, 5201, 0x18, 185);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_BULK);
	/* truncated TCP header: ports read only when present */
	{
		struct braid_mpclass_rules one = { 0 };

		add(&one, "port 5201 bulk");
		n = v4(b, 1400, 6, 0, 40000, 5201, 0x18, 0);
		CHECK_EQ(braid_mpclass_classify(&one, b, 22), BRAID_MP_CLASS_SMALL);
		CHECK_EQ(braid_mpclass_classify(&one, b, 24), BRAID_MP_CLASS_BULK);
	}

	/* IPv6, plain and behind a destination-options header; ICMPv6 counts as icmp */
	n = v6(b, 1400, 0xff, 6, 0, 40000, 5201, 0x18);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_EF);
	n = v6(b, 1400, 60, 6, 0, 40000, 5201, 0x18);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_EF);
	n = v6(b, 1400, 0xff, 6, 0, 40000, 443, 0x18);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_BULK);
	n = v6(b, 1400, 0xff, 17, 34, 1, 2, 0);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_EF);
	n = v6(b, 1000, 0xff, 58, 0, 0, 0, 0);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_EF);
	n = v6(b, 1000, 0xff, 1, 0, 0, 0, 0);	/* protocol 1 in IPv6 is not ICMPv6 */
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_BULK);
	n = v6(b, 48, 60, 6, 0, 40000, 443, 0);	/* ext header, TCP cut off */
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_SMALL);

	/* the ECT flag of the packet is kept under every policy */
	n = v4(b, 1400, 6, 0, 40000, 5201, 0x18, 0);
	b[1] |= 0x02;
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_META_ECT | BRAID_MP_CLASS_EF);
	n = v4(b, 300, 17, 0, 40000, 53, 0, 0);
	b[1] |= 0x01;
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_META_ECT | BRAID_MP_CLASS_BULK);
}

/* redundant: a latency class (the built-in one kept, else EF) with the copy flag */
static void redundant(void)
{
	struct braid_mpclass_rules rs = { 0 };
	uint8_t b[1600];
	size_t n;

	add(&rs, "proto udp port 5060 redundant");
	add(&rs, "dscp ef redundant");
	add(&rs, "port 5201 lowest-delay");
	/* SIP over UDP, either direction, bulk-sized or small */
	n = v4(b, 1200, 17, 0, 40000, 5060, 0, 0);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_META_REDUNDANT | BRAID_MP_CLASS_EF);
	n = v4(b, 120, 17, 0, 5060, 40000, 0, 0);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_META_REDUNDANT | BRAID_MP_CLASS_SMALL);
	n = v6(b, 1200, 0xff, 17, 0, 5060, 40000, 0);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_META_REDUNDANT | BRAID_MP_CLASS_EF);
	/* TCP to 5060 is not the rule's; EF-marked TCP is (second rule), ECT kept */
	n = v4(b, 1200, 6, 0, 40000, 5060, 0x18, 0);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_BULK);
	n = v4(b, 1200, 6, 46, 40000, 443, 0x18, 0);
	b[1] |= 0x02;
	CHECK_EQ(braid_mpclass_classify(&rs, b, n),
		 BRAID_MP_META_ECT | BRAID_MP_META_REDUNDANT | BRAID_MP_CLASS_EF);
	/* lowest-delay never sets the copy flag; the built-in classes never do */
	n = v4(b, 1400, 6, 0, 40000, 5201, 0x18, 0);
	CHECK_EQ(braid_mpclass_classify(&rs, b, n), BRAID_MP_CLASS_EF);
	n = v4(b, 1000, 17, 46, 40000, 4000, 0, 0);
	CHECK_EQ(braid_mp_classify(b, n, 0), BRAID_MP_CLASS_EF);
	CHECK_EQ(braid_mpclass_classify(NULL, b, n), BRAID_MP_CLASS_EF);
}

static void full_table(void)
{
	struct braid_mpclass_rules rs = { 0 };
	struct braid_mpclass_rule r = { .has = BRAID_MPCLASS_M_TCPACK,
					 .policy = BRAID_MPCLASS_BULK };

	for (int i = 0; i < BRAID_MPCLASS_MAX_RULES; i++)
		CHECK_EQ(braid_mpclass_add(&rs, &r), 0);
	CHECK_EQ(braid_mpclass_add(&rs, &r), -ENOSPC);
	CHECK_EQ(rs.n, BRAID_MPCLASS_MAX_RULES);
}

int main(void)
{
	parse_errors();
	parse_ok();
	defaults();
	matching();
	redundant();
	full_table();
	CHECK_DONE();
}
