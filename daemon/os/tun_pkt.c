// SPDX-License-Identifier: GPL-2.0-only
/*
 * tun_pkt.c - IP/TCP header arithmetic of the TUN offloads (tun_pkt.h).
 */
#include "os/tun_pkt.h"

#include <netinet/in.h>
#include <string.h>

/* One's-complement sum of n bytes in memory order (RFC 1071: byte-order
 * independent; the folded value is stored as it is). Odd n only at the end. */
uint64_t braid_pkt_csum_add(uint64_t acc, const uint8_t *p, size_t n)
{
	while (n >= 4) {
		uint32_t w;

		memcpy(&w, p, 4);
		acc += w;
		p += 4;
		n -= 4;
	}
	if (n >= 2) {
		uint16_t w;

		memcpy(&w, p, 2);
		acc += w;
		p += 2;
		n -= 2;
	}
	if (n) {
		uint8_t b[2] = { p[0], 0 };
		uint16_t w;

		memcpy(&w, b, 2);
		acc += w;
	}
	return acc;
}

uint16_t braid_pkt_csum_fold(uint64_t acc)
{
	acc = (acc & 0xffffffffu) + (acc >> 32);
	acc = (acc & 0xffffffffu) + (acc >> 32);
	acc = (acc & 0xffffu) + (acc >> 16);
	acc = (acc & 0xffffu) + (acc >> 16);
	return (uint16_t)acc;
}

/* The TCP pseudo-header sum of packet ip (v4 or v6) for l4len bytes. */
uint64_t braid_pkt_pseudo_sum(const uint8_t *ip, bool v6, size_t l4len)
{
	uint8_t t[8] = { 0 };
	uint64_t acc;

	if (v6) {
		acc = braid_pkt_csum_add(0, ip + 8, 32);
		braid_pkt_put32(t, (uint32_t)l4len);
		t[7] = IPPROTO_TCP;
		return braid_pkt_csum_add(acc, t, 8);
	}
	acc = braid_pkt_csum_add(0, ip + 12, 8);
	t[1] = IPPROTO_TCP;
	braid_pkt_put16(t + 2, (uint16_t)l4len);
	return braid_pkt_csum_add(acc, t, 4);
}

void braid_pkt_ip4_csum(uint8_t *ip, size_t ihl)
{
	uint16_t c;

	ip[10] = ip[11] = 0;
	c = (uint16_t)~braid_pkt_csum_fold(braid_pkt_csum_add(0, ip, ihl));
	memcpy(ip + 10, &c, 2);
}

/* The IP + TCP header length of a TCP packet, v6 set; 0 if it is not one we can handle. */
size_t braid_pkt_tcp_hl(const uint8_t *ip, size_t len, bool *v6)
{
	size_t iphl, thl;

	if (len < 20)
		return 0;
	if ((ip[0] >> 4) == 4) {
		iphl = (size_t)(ip[0] & 15) * 4;
		if (iphl < 20 || ip[9] != IPPROTO_TCP)
			return 0;
		*v6 = false;
	} else if ((ip[0] >> 4) == 6) {
		iphl = 40;
		if (len < 40 || ip[6] != IPPROTO_TCP)
			return 0;
		*v6 = true;
	} else {
		return 0;
	}
	if (len < iphl + 20)
		return 0;
	thl = (size_t)(ip[iphl + 12] >> 4) * 4;
	if (thl < 20 || iphl + thl > len)
		return 0;
	return iphl + thl;
}
