// SPDX-License-Identifier: GPL-2.0-only
/*
 * mpclass.c - user traffic-class rules (see mpclass.h).
 */
#include "config/mpclass.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mp/mp_classify.h"
#include "util/wire.h"

#define PROTO_ICMP 1
#define PROTO_TCP 6
#define PROTO_UDP 17
#define PROTO_ICMP6 58
#define TCP_FIN 0x01
#define TCP_SYN 0x02
#define TCP_RST 0x04
#define TCP_ACK 0x10

/* What the matcher needs from a packet. */
struct pkt {
	size_t tot;		/* IP total length (bounded by the buffer) */
	uint8_t dscp;
	uint8_t proto;		/* ICMPv6 is reported as ICMP */
	bool have_ports;
	uint16_t sport, dport;
	bool pure_ack;
};

/* A decimal number in [min, max], the whole string. */
static int num(const char *s, unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

static int dscp_parse(const char *s, uint8_t *out)
{
	unsigned long v;

	if (!num(s, 0, 63, &v)) {
		*out = (uint8_t)v;
		return 0;
	}
	if (!strcasecmp(s, "ef")) {
		*out = 46;
	} else if (!strcasecmp(s, "va")) {
		*out = 44;
	} else if (!strcasecmp(s, "le")) {
		*out = 1;
	} else if ((s[0] == 'a' || s[0] == 'A') && (s[1] == 'f' || s[1] == 'F') && s[2] >= '1' &&
		   s[2] <= '4' && s[3] >= '1' && s[3] <= '3' && !s[4]) {
		*out = (uint8_t)(8 * (s[2] - '0') + 2 * (s[3] - '0'));
	} else if ((s[0] == 'c' || s[0] == 'C') && (s[1] == 's' || s[1] == 'S') && s[2] >= '0' &&
		   s[2] <= '7' && !s[3]) {
		*out = (uint8_t)(8 * (s[2] - '0'));
	} else {
		return -EINVAL;
	}
	return 0;
}

static int fail(char *err, size_t errlen, const char *fmt, const char *word)
{
	snprintf(err, errlen, fmt, word);
	return -EINVAL;
}

int braid_mpclass_parse(struct braid_mpclass_rule *out, int argc, char *const *argv, char *err,
			size_t errlen)
{
	struct braid_mpclass_rule r = { 0 };
	const char *pol;
	unsigned long v, w;
	int i;

	if (argc < 2)
		return fail(err, errlen, "%s", argc ? "a rule needs at least one match before the policy"
						    : "a rule needs matches and a policy");
	pol = argv[argc - 1];
	if (!strcmp(pol, "lowest-delay"))
		r.policy = BRAID_MPCLASS_LOWEST_DELAY;
	else if (!strcmp(pol, "bulk"))
		r.policy = BRAID_MPCLASS_BULK;
	else if (!strcmp(pol, "redundant"))
		r.policy = BRAID_MPCLASS_REDUNDANT;
	else
		return fail(err, errlen, "unknown policy '%s' (lowest-delay, bulk or redundant)", pol);

	for (i = 0; i < argc - 1; i++) {
		const char *k = argv[i], *a = i + 1 < argc - 1 ? argv[i + 1] : NULL;
		unsigned int bit;

		if (!strcmp(k, "proto"))
			bit = BRAID_MPCLASS_M_PROTO;
		else if (!strcmp(k, "port"))
			bit = BRAID_MPCLASS_M_PORT;
		else if (!strcmp(k, "dscp"))
			bit = BRAID_MPCLASS_M_DSCP;
		else if (!strcmp(k, "size"))
			bit = BRAID_MPCLASS_M_SIZE;
		else if (!strcmp(k, "tcp-ack"))
			bit = BRAID_MPCLASS_M_TCPACK;
		else
			return fail(err, errlen, "unknown match '%s' (proto, port, dscp, size, tcp-ack)",
				    k);
		if (r.has & bit)
			return fail(err, errlen, "match '%s' given twice", k);
		r.has |= bit;
		if (bit == BRAID_MPCLASS_M_TCPACK)
			continue;
		if (!a)
			return fail(err, errlen, "match '%s' needs a value", k);
		i++;
		switch (bit) {
		case BRAID_MPCLASS_M_PROTO:
			if (!strcmp(a, "tcp"))
				r.proto = PROTO_TCP;
			else if (!strcmp(a, "udp"))
				r.proto = PROTO_UDP;
			else if (!strcmp(a, "icmp"))
				r.proto = PROTO_ICMP;
			else
				return fail(err, errlen, "bad protocol '%s' (tcp, udp or icmp)", a);
			break;
		case BRAID_MPCLASS_M_PORT: {
			char lo[8];
			const char *dash = strchr(a, '-');
			size_t l = dash ? (size_t)(dash - a) : strlen(a);

			if (l == 0 || l >= sizeof(lo))
				return fail(err, errlen, "bad port '%s' (N or N-M, 1-65535)", a);
			memcpy(lo, a, l);
			lo[l] = '\0';
			if (num(lo, 1, 65535, &v))
				return fail(err, errlen, "bad port '%s' (N or N-M, 1-65535)", a);
			w = v;
			if (dash && (num(dash + 1, 1, 65535, &w) || w < v))
				return fail(err, errlen, "bad port range '%s' (N-M with N <= M)", a);
			r.port_lo = (uint16_t)v;
			r.port_hi = (uint16_t)w;
			break;
		}
		case BRAID_MPCLASS_M_DSCP:
			if (dscp_parse(a, &r.dscp))
				return fail(err, errlen,
					    "bad dscp '%s' (0-63, ef, af11..af43, cs0..cs7, va, le)", a);
			break;
		case BRAID_MPCLASS_M_SIZE:
			if (a[0] != '<' || a[1] != '=' || num(a + 2, 20, 65535, &v))
				return fail(err, errlen, "bad size '%s' (<=N bytes, 20-65535)", a);
			r.size_max = (uint32_t)v;
			break;
		}
	}
	if ((r.has & BRAID_MPCLASS_M_PORT) && (r.has & BRAID_MPCLASS_M_PROTO) &&
	    r.proto == PROTO_ICMP)
		return fail(err, errlen, "%s", "'port' needs proto tcp or udp, not icmp");
	if ((r.has & BRAID_MPCLASS_M_TCPACK) && (r.has & BRAID_MPCLASS_M_PROTO) &&
	    r.proto != PROTO_TCP)
		return fail(err, errlen, "%s", "'tcp-ack' contradicts the protocol given");
	*out = r;
	return 0;
}

int braid_mpclass_add(struct braid_mpclass_rules *rs, const struct braid_mpclass_rule *r)
{
	if (rs->n >= BRAID_MPCLASS_MAX_RULES)
		return -ENOSPC;
	rs->r[rs->n++] = *r;
	return 0;
}

static void l4_parse(struct pkt *p, const uint8_t *l4, size_t l4len)
{
	if ((p->proto == PROTO_TCP || p->proto == PROTO_UDP) && l4len >= 4) {
		p->have_ports = true;
		p->sport = wire_get_be16(l4);
		p->dport = wire_get_be16(l4 + 2);
	}
	if (p->proto == PROTO_TCP && l4len >= 20) {
		size_t doff = (size_t)(l4[12] >> 4) * 4;
		uint8_t fl = l4[13];

		p->pure_ack = doff >= 20 && doff == l4len && (fl & TCP_ACK) &&
			      !(fl & (TCP_SYN | TCP_FIN | TCP_RST));
	}
}

/* 0 when the packet is IPv4/IPv6 (L4 fields filled where present), -EINVAL if not. */
static int pkt_parse(struct pkt *p, const uint8_t *ip, size_t len)
{
	memset(p, 0, sizeof(*p));
	if (len >= 20 && ip[0] >> 4 == 4) {
		size_t ihl = (size_t)(ip[0] & 0x0f) * 4;

		p->dscp = ip[1] >> 2;
		p->tot = wire_get_be16(ip + 2);
		if (p->tot > len || p->tot < 20)
			p->tot = len;
		p->proto = ip[9];
		/* only the first fragment carries the L4 header */
		if (ihl >= 20 && ihl <= p->tot && (wire_get_be16(ip + 6) & 0x1fff) == 0)
			l4_parse(p, ip + ihl, p->tot - ihl);
		return 0;
	}
	if (len >= 40 && ip[0] >> 4 == 6) {
		size_t off = 40;
		uint8_t nh = ip[6];

		p->dscp = (uint8_t)(((ip[0] & 0x0f) << 4 | ip[1] >> 4) >> 2);
		p->tot = 40 + (size_t)wire_get_be16(ip + 4);
		if (p->tot > len)
			p->tot = len;
		/* walk hop-by-hop, routing, destination options and fragment headers */
		for (int k = 0; k < 8; k++) {
			if (nh == 0 || nh == 43 || nh == 60) {
				if (off + 8 > p->tot)
					return 0;
				nh = ip[off];
				off += 8 + (size_t)ip[off + 1] * 8;
			} else if (nh == 44) {
				if (off + 8 > p->tot)
					return 0;
				if (wire_get_be16(ip + off + 2) & 0xfff8) {	/* not the first */
					p->proto = ip[off];
					return 0;
				}
				nh = ip[off];
				off += 8;
			} else {
				break;
			}
		}
		/* ICMPv6 matches `icmp`; protocol 1 (ICMP for IPv4) in IPv6 does not */
		p->proto = nh == PROTO_ICMP6 ? PROTO_ICMP : nh == PROTO_ICMP ? 0xff : nh;
		if (off <= p->tot)
			l4_parse(p, ip + off, p->tot - off);
		return 0;
	}
	return -EINVAL;
}

static bool match(const struct braid_mpclass_rule *r, const struct pkt *p)
{
	if ((r->has & BRAID_MPCLASS_M_PROTO) && p->proto != r->proto)
		return false;
	if (r->has & BRAID_MPCLASS_M_PORT) {
		if (!p->have_ports)
			return false;
		if ((p->sport < r->port_lo || p->sport > r->port_hi) &&
		    (p->dport < r->port_lo || p->dport > r->port_hi))
			return false;
	}
	if ((r->has & BRAID_MPCLASS_M_DSCP) && p->dscp != r->dscp)
		return false;
	if ((r->has & BRAID_MPCLASS_M_SIZE) && p->tot > r->size_max)
		return false;
	if ((r->has & BRAID_MPCLASS_M_TCPACK) && !(p->proto == PROTO_TCP && p->pure_ack))
		return false;
	return true;
}

unsigned int braid_mpclass_classify(const struct braid_mpclass_rules *rs, const uint8_t *ip,
				    size_t len)
{
	unsigned int meta = braid_mp_classify(ip, len, 0);
	struct pkt p;

	if (!rs || !rs->n || pkt_parse(&p, ip, len))
		return meta;
	for (unsigned int i = 0; i < rs->n; i++) {
		if (!match(&rs->r[i], &p))
			continue;
		if (rs->r[i].policy == BRAID_MPCLASS_BULK)
			return (meta & ~BRAID_MP_META_CLASS) | BRAID_MP_CLASS_BULK;
		/* lowest-delay and redundant: keep a built-in latency class, else take EF's */
		if ((meta & BRAID_MP_META_CLASS) == BRAID_MP_CLASS_BULK)
			meta |= BRAID_MP_CLASS_EF;
		if (rs->r[i].policy == BRAID_MPCLASS_REDUNDANT)
			meta |= BRAID_MP_META_REDUNDANT;
		return meta;
	}
	return meta;
}

void braid_mpclass_format(const struct braid_mpclass_rule *r, char *buf, size_t len)
{
	size_t o = 0;

#define ADD(...)                                                                \
	do {                                                                    \
		int w_ = snprintf(buf + o, o < len ? len - o : 0, __VA_ARGS__); \
		if (w_ > 0)                                                     \
			o += (size_t)w_;                                        \
	} while (0)
	if (!len)
		return;
	buf[0] = '\0';
	if (r->has & BRAID_MPCLASS_M_PROTO)
		ADD("proto %s ", r->proto == PROTO_TCP ? "tcp" : r->proto == PROTO_UDP ? "udp" : "icmp");
	if (r->has & BRAID_MPCLASS_M_PORT) {
		if (r->port_lo == r->port_hi)
			ADD("port %u ", r->port_lo);
		else
			ADD("port %u-%u ", r->port_lo, r->port_hi);
	}
	if (r->has & BRAID_MPCLASS_M_DSCP)
		ADD("dscp %u ", r->dscp);
	if (r->has & BRAID_MPCLASS_M_SIZE)
		ADD("size <=%u ", r->size_max);
	if (r->has & BRAID_MPCLASS_M_TCPACK)
		ADD("tcp-ack ");
	ADD("%s", r->policy == BRAID_MPCLASS_BULK		? "bulk"
		  : r->policy == BRAID_MPCLASS_REDUNDANT ? "redundant"
							 : "lowest-delay");
#undef ADD
}
