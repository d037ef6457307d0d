/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tun_pkt.h - the IP/TCP header arithmetic of the TUN offloads (tun.c's
 * segmentation and coalescing, tun_super.c's super-packet frames): big-endian
 * field access, the Internet checksum (RFC 1071) and the TCP pseudo-header
 * sum, and the IP + TCP header length of a TCP packet. No I/O.
 */
#ifndef BRAID_TUN_PKT_H
#define BRAID_TUN_PKT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One's-complement sum of n bytes in memory order, added to acc (fold it with braid_pkt_csum_fold). */
uint64_t braid_pkt_csum_add(uint64_t acc, const uint8_t *p, size_t n);
/* acc folded to 16 bits, in memory order (store it with memcpy). */
uint16_t braid_pkt_csum_fold(uint64_t acc);
/* The TCP pseudo-header sum of packet ip (v4 or v6) for l4len bytes of TCP. */
uint64_t braid_pkt_pseudo_sum(const uint8_t *ip, bool v6, size_t l4len);
/* The IPv4 header checksum of ip (ihl bytes) set. */
void braid_pkt_ip4_csum(uint8_t *ip, size_t ihl);
/* The IP + TCP header length of a TCP packet (v4 with options, v6 without extension headers),
 * *v6 set; 0 if it is not one of those or its headers pass len. */
size_t braid_pkt_tcp_hl(const uint8_t *ip, size_t len, bool *v6);

static inline void braid_pkt_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline uint16_t braid_pkt_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t braid_pkt_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline void braid_pkt_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

#endif /* BRAID_TUN_PKT_H */
