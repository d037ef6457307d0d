// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mp_classify.c - traffic classes and ECN CE marking of inner packets.
 */
#include <errno.h>
#include <string.h>

#include "mp_classify.h"
#include "util/wire.h"
#include "check.h"

static size_t ipv4(uint8_t *p, uint8_t tos, uint8_t proto, size_t l4len)
{
	memset(p, 0, 20 + l4len);
	p[0] = 0x45;
	p[1] = tos;
	wire_put_be16(p + 2, (uint16_t)(20 + l4len));
	p[8] = 64;
	p[9] = proto;
	return 20 + l4len;
}

static size_t tcp4(uint8_t *p, uint8_t flags, size_t payload, uint16_t dport)
{
	size_t n = ipv4(p, 0, 6, 20 + payload);

	wire_put_be16(p + 20, 40000);
	wire_put_be16(p + 22, dport);
	p[32] = 5 << 4;
	p[33] = flags;
	return n;
}

static uint16_t csum(const uint8_t *p, size_t n)
{
	uint32_t s = 0;
	size_t i;

	for (i = 0; i < n; i += 2)
		s += wire_get_be16(p + i);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

int main(void)
{
	uint8_t p[1600];
	size_t n;

	n = tcp4(p, 0x10, 0, 443);
	CHECK_EQ(braid_mp_classify(p, n, 0), BRAID_MP_CLASS_ACK);
	n = tcp4(p, 0x12, 0, 443);	/* SYN-ACK is not a pure ACK */
	CHECK_EQ(braid_mp_classify(p, n, 0), BRAID_MP_CLASS_SMALL);
	n = tcp4(p, 0x18, 1400, 443);
	CHECK_EQ(braid_mp_classify(p, n, 0), BRAID_MP_CLASS_BULK);
	n = tcp4(p, 0x18, 100, 22);	/* SSH keystroke-sized */
	CHECK_EQ(braid_mp_classify(p, n, 0), BRAID_MP_CLASS_SMALL);
	CHECK_EQ(braid_mp_classify(p, n, 100), BRAID_MP_CLASS_BULK);
	n = tcp4(p, 0x18, 1000, 53);
	CHECK_EQ(braid_mp_classify(p, n, 0), BRAID_MP_CLASS_DNS);
	n = ipv4(p, 0, 17, 8 + 600);
	wire_put_be16(p + 20, 53);	/* DNS answer: source port 53 */
	CHECK_EQ(braid_mp_classify(p, n, 0), BRAID_MP_CLASS_DNS);
	n = ipv4(p, 46 << 2 | 0x02, 17, 8 + 1000);	/* EF + ECT(0) */
	CHECK_EQ(braid_mp_classify(p, n, 0), BRAID_MP_CLASS_EF | BRAID_MP_META_ECT);
	/* later fragments carry no L4 header */
	n = ipv4(p, 0x01, 6, 1200);
	wire_put_be16(p + 6, 100);
	CHECK_EQ(braid_mp_classify(p, n, 0), BRAID_MP_CLASS_BULK | BRAID_MP_META_ECT);
	/* IPv6 pure ACK with ECT(1) */
	memset(p, 0, 60);
	p[0] = 0x60;
	p[1] = 0x10;	/* traffic class 0x01: ECT(1) */
	wire_put_be16(p + 4, 20);
	p[6] = 6;
	p[52] = 5 << 4;
	p[53] = 0x10;
	CHECK_EQ(braid_mp_classify(p, 60, 0), BRAID_MP_CLASS_ACK | BRAID_MP_META_ECT);
	CHECK_EQ(braid_mp_set_ce(p, 60), 0);
	CHECK_EQ(p[1] & 0x30, 0x30);
	/* garbage never fails */
	CHECK_EQ(braid_mp_classify(p, 3, 0), BRAID_MP_CLASS_SMALL);
	memset(p, 0xff, 1500);
	CHECK_EQ(braid_mp_classify(p, 1500, 0), BRAID_MP_CLASS_BULK);
	p[0] = 0x4f;	/* IHL 60 but total length lies */
	CHECKM(braid_mp_classify(p, 1500, 0) <= (BRAID_MP_CLASS_EF | BRAID_MP_META_ECT), "range");

	/* CE marking keeps the IPv4 header checksum valid */
	n = ipv4(p, 0x02, 17, 100);
	wire_put_be16(p + 10, (uint16_t)~csum(p, 20));
	CHECK_EQ(csum(p, 20), 0xffff);
	CHECK_EQ(braid_mp_set_ce(p, n), 0);
	CHECK_EQ(p[1] & 3, 3);
	CHECK_EQ(csum(p, 20), 0xffff);
	n = ipv4(p, 0x00, 17, 100);	/* Not-ECT must never be marked */
	CHECK_EQ(braid_mp_set_ce(p, n), -EINVAL);
	CHECK_EQ(p[1], 0);
	CHECK_DONE();
}
