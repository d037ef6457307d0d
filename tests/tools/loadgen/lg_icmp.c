// SPDX-License-Identifier: GPL-2.0-only
/*
 * lg_icmp.c - ICMP echo requests into the tunnel and a bounded reader of the
 * replies (lg_icmp.h).
 */
#include "lg_icmp.h"

#include <errno.h>
#include <string.h>

static uint16_t csum(const uint8_t *b, size_t len)
{
	uint32_t s = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		s += (uint32_t)b[i] << 8 | b[i + 1];
	if (len & 1)
		s += (uint32_t)b[len - 1] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

int lg_icmp_echo(uint8_t *out, size_t cap, size_t size, uint32_t src, uint32_t dst, uint16_t id,
		 uint16_t seq, uint64_t ts_us)
{
	size_t i;

	if (size < LG_ICMP_HDR + 8 || size > 65535)
		return -EINVAL;
	if (size > cap)
		return -ENOBUFS;
	memset(out, 0, LG_ICMP_HDR);
	out[0] = 0x45;
	put16(out + 2, (uint16_t)size);
	put16(out + 4, seq);
	out[8] = 64;  /* TTL */
	out[9] = 1;   /* ICMP */
	memcpy(out + 12, &src, 4);
	memcpy(out + 16, &dst, 4);
	put16(out + 10, csum(out, 20));
	out[20] = 8;  /* echo request */
	put16(out + 24, id);
	put16(out + 26, seq);
	for (i = 0; i < 8; i++)
		out[LG_ICMP_HDR + i] = (uint8_t)(ts_us >> (56 - 8 * i));
	for (i = LG_ICMP_HDR + 8; i < size; i++)
		out[i] = (uint8_t)i;
	put16(out + 22, csum(out + 20, size - 20));
	return 0;
}

int lg_icmp_parse_reply(const uint8_t *pkt, size_t len, uint32_t self, uint16_t *id, uint16_t *seq,
			uint64_t *ts_us)
{
	size_t ihl, tot, i;
	const uint8_t *ic;

	if (len < 20 || (pkt[0] >> 4) != 4)
		return -EPROTO;
	ihl = (size_t)(pkt[0] & 0x0f) * 4;
	tot = (size_t)pkt[2] << 8 | pkt[3];
	if (ihl < 20 || tot < ihl || tot > len)
		return -EBADMSG;
	if (csum(pkt, ihl) != 0)
		return -EBADMSG;
	if (pkt[9] != 1 || memcmp(pkt + 16, &self, 4) != 0)
		return -EPROTO;
	if (tot - ihl < 8)
		return -EBADMSG;
	ic = pkt + ihl;
	if (ic[0] != 0 || ic[1] != 0)
		return -EPROTO;
	*id = (uint16_t)(ic[4] << 8 | ic[5]);
	*seq = (uint16_t)(ic[6] << 8 | ic[7]);
	*ts_us = 0;
	if (tot - ihl >= 16)
		for (i = 0; i < 8; i++)
			*ts_us = *ts_us << 8 | ic[8 + i];
	return 0;
}
