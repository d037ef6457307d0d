// SPDX-License-Identifier: GPL-2.0-only
/*
 * mp_classify.c - traffic classes of inner IP packets.
 */
#include <errno.h>

#include "util/wire.h"
#include "mp_classify.h"

#define DSCP_EF 46
#define PROTO_TCP 6
#define PROTO_UDP 17
#define TCP_FIN 0x01
#define TCP_SYN 0x02
#define TCP_RST 0x04
#define TCP_ACK 0x10

static unsigned int l4_class(uint8_t proto, const uint8_t *l4, size_t l4len)
{
	size_t doff;

	if (proto == PROTO_UDP && l4len >= 8) {
		if (wire_get_be16(l4) == 53 || wire_get_be16(l4 + 2) == 53)
			return BRAID_MP_CLASS_DNS;
	} else if (proto == PROTO_TCP && l4len >= 20) {
		uint8_t fl = l4[13];

		if (wire_get_be16(l4) == 53 || wire_get_be16(l4 + 2) == 53)
			return BRAID_MP_CLASS_DNS;
		doff = (size_t)(l4[12] >> 4) * 4;
		if (doff >= 20 && doff == l4len && (fl & TCP_ACK) &&
		    !(fl & (TCP_SYN | TCP_FIN | TCP_RST)))
			return BRAID_MP_CLASS_ACK;
	}
	return BRAID_MP_CLASS_BULK;
}

unsigned int braid_mp_classify(const uint8_t *ip, size_t len, uint32_t small_max)
{
	unsigned int cls = BRAID_MP_CLASS_BULK, meta = 0;
	uint8_t tos = 0, proto = 0;
	const uint8_t *l4 = NULL;
	size_t tot = len, l4len = 0;

	if (!small_max)
		small_max = BRAID_MP_SMALL_MAX_DEFAULT;
	if (len >= 20 && ip[0] >> 4 == 4) {
		size_t ihl = (size_t)(ip[0] & 0x0f) * 4;

		tos = ip[1];
		tot = wire_get_be16(ip + 2);
		if (tot > len || tot < 20)
			tot = len;
		proto = ip[9];
		/* Only the first fragment carries the L4 header. */
		if (ihl >= 20 && ihl <= tot && (wire_get_be16(ip + 6) & 0x1fff) == 0) {
			l4 = ip + ihl;
			l4len = tot - ihl;
		}
	} else if (len >= 40 && ip[0] >> 4 == 6) {
		tos = (uint8_t)((ip[0] & 0x0f) << 4 | ip[1] >> 4);
		tot = 40 + (size_t)wire_get_be16(ip + 4);
		if (tot > len)
			tot = len;
		proto = ip[6];
		l4 = ip + 40;
		l4len = tot - 40;
	} else {
		return len <= small_max ? BRAID_MP_CLASS_SMALL : BRAID_MP_CLASS_BULK;
	}
	if (tos & 0x03)
		meta |= BRAID_MP_META_ECT;
	if (tos >> 2 == DSCP_EF)
		cls = BRAID_MP_CLASS_EF;
	else if (l4)
		cls = l4_class(proto, l4, l4len);
	if (cls == BRAID_MP_CLASS_BULK && tot <= small_max)
		cls = BRAID_MP_CLASS_SMALL;
	return meta | cls;
}

int braid_mp_set_ce(uint8_t *ip, size_t len)
{
	uint32_t sum = 0;
	size_t i, ihl;

	if (len >= 20 && ip[0] >> 4 == 4) {
		ihl = (size_t)(ip[0] & 0x0f) * 4;
		if (ihl < 20 || ihl > len || !(ip[1] & 0x03))
			return -EINVAL;
		ip[1] |= 0x03;
		ip[10] = ip[11] = 0;
		for (i = 0; i < ihl; i += 2)
			sum += wire_get_be16(ip + i);
		while (sum >> 16)
			sum = (sum & 0xffff) + (sum >> 16);
		wire_put_be16(ip + 10, (uint16_t)~sum);
		return 0;
	}
	if (len >= 40 && ip[0] >> 4 == 6) {
		if (!(ip[1] & 0x30))
			return -EINVAL;
		ip[1] |= 0x30;
		return 0;
	}
	return -EINVAL;
}

const char *braid_mp_class_name(enum braid_mp_class c)
{
	switch (c) {
	case BRAID_MP_CLASS_BULK: return "bulk";
	case BRAID_MP_CLASS_SMALL: return "small";
	case BRAID_MP_CLASS_ACK: return "ack";
	case BRAID_MP_CLASS_DNS: return "dns";
	case BRAID_MP_CLASS_EF: return "ef";
	}
	return "?";
}
