// SPDX-License-Identifier: GPL-2.0-only
/*
 * mssfix.c - TCP SYN MSS clamping with an incremental checksum update
 * (RFC 1624: HC' = ~(~HC + ~m + m')).
 */
#include "dataplane/mssfix.h"

#include "util/wire.h"

#define TCP_FLAG_SYN 0x02
#define TCPOPT_EOL 0
#define TCPOPT_NOP 1
#define TCPOPT_MSS 2

void braid_mssfix_init(struct braid_mssfix *m, int mssfix, int outer_ip_hdr, int dc_overhead,
		       int tun_mtu)
{
	int inner, v4, v6;

	if (!mssfix) {
		m->mss4 = m->mss6 = 0;
		return;
	}
	inner = mssfix - outer_ip_hdr - 8 /* UDP */ - dc_overhead;
	if (inner > tun_mtu)
		inner = tun_mtu;
	v4 = inner - 20 - 20;
	v6 = inner - 40 - 20;
	m->mss4 = (uint16_t)(v4 < 536 ? 536 : v4);
	m->mss6 = (uint16_t)(v6 < 536 ? 536 : v6);
}

void braid_mssfix_limit(struct braid_mssfix *out, const struct braid_mssfix *in, int inner_mtu)
{
	int v4 = inner_mtu - 20 - 20, v6 = inner_mtu - 40 - 20;

	*out = *in;
	if (inner_mtu <= 0)
		return;
	if (v4 < 536)
		v4 = 536;
	if (v6 < 536)
		v6 = 536;
	if (out->mss4 && v4 < out->mss4)
		out->mss4 = (uint16_t)v4;
	if (out->mss6 && v6 < out->mss6)
		out->mss6 = (uint16_t)v6;
}

static uint16_t csum_replace(uint16_t csum, uint16_t old, uint16_t new)
{
	uint32_t s = (uint16_t)~csum;

	s += (uint16_t)~old;
	s += new;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

/* tcp points at the TCP header, tlen bytes available. */
static bool clamp_tcp(uint8_t *tcp, size_t tlen, uint16_t max)
{
	size_t hl, i;

	if (tlen < 20 || !(tcp[13] & TCP_FLAG_SYN))
		return false;
	hl = (size_t)(tcp[12] >> 4) * 4;
	if (hl < 20 || hl > tlen)
		return false;
	for (i = 20; i < hl;) {
		uint8_t kind = tcp[i];

		if (kind == TCPOPT_EOL)
			break;
		if (kind == TCPOPT_NOP) {
			i++;
			continue;
		}
		if (i + 1 >= hl || tcp[i + 1] < 2 || i + tcp[i + 1] > hl)
			break;
		if (kind == TCPOPT_MSS && tcp[i + 1] == 4) {
			uint16_t mss = wire_get_be16(tcp + i + 2);
			uint16_t csum = wire_get_be16(tcp + 16);
			uint16_t o, n;

			if (mss <= max)
				return false;
			/*
			 * A one's-complement sum is byte-order independent: a value at an
			 * odd offset counts as its byte-swapped self.
			 */
			if ((i + 2) & 1) {
				o = (uint16_t)(mss << 8 | mss >> 8);
				n = (uint16_t)(max << 8 | max >> 8);
			} else {
				o = mss;
				n = max;
			}
			wire_put_be16(tcp + i + 2, max);
			wire_put_be16(tcp + 16, csum_replace(csum, o, n));
			return true;
		}
		i += tcp[i + 1];
	}
	return false;
}

bool braid_mssfix_apply(const struct braid_mssfix *m, uint8_t *pkt, size_t len)
{
	if (len < 1)
		return false;
	if ((pkt[0] >> 4) == 4 && m->mss4) {
		size_t ihl = (size_t)(pkt[0] & 0x0f) * 4;

		if (len < 20 || ihl < 20 || ihl > len || pkt[9] != 6 /* TCP */)
			return false;
		if (wire_get_be16(pkt + 6) & 0x1fff) /* not the first fragment */
			return false;
		return clamp_tcp(pkt + ihl, len - ihl, m->mss4);
	}
	if ((pkt[0] >> 4) == 6 && m->mss6) {
		if (len < 40 || pkt[6] != 6) /* TCP directly after the fixed header only */
			return false;
		return clamp_tcp(pkt + 40, len - 40, m->mss6);
	}
	return false;
}
