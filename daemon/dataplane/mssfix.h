/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mssfix.h - clamp the MSS option of TCP SYNs inside the tunnel (OpenVPN
 * --mssfix): the encapsulated packet of a full-size TCP segment then fits
 * the outer path without fragmentation.
 *
 * With `mssfix M` (OpenVPN 2.6 "mtu" semantics, the default 1492) the whole
 * outer datagram (outer IP + UDP + data-channel overhead + inner packet)
 * stays within M bytes.
 */
#ifndef BRAID_MSSFIX_H
#define BRAID_MSSFIX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct braid_mssfix {
	uint16_t mss4;	/* max MSS for inner IPv4 TCP; 0 = off */
	uint16_t mss6;	/* max MSS for inner IPv6 TCP; 0 = off */
};

/* From mssfix M (0 = off), outer IP header size, data-channel overhead, tun MTU. */
void braid_mssfix_init(struct braid_mssfix *m, int mssfix, int outer_ip_hdr, int dc_overhead,
		       int tun_mtu);

/*
 * out = in, lowered to what an inner packet of inner_mtu bytes can carry
 * (the multipath engine's tunnel MTU: the smallest path MTU); inner_mtu 0 =
 * unknown, in unchanged. A clamp that is off stays off.
 */
void braid_mssfix_limit(struct braid_mssfix *out, const struct braid_mssfix *in, int inner_mtu);

/* Clamp in place; true if the packet was changed (checksum adjusted). */
bool braid_mssfix_apply(const struct braid_mssfix *m, uint8_t *pkt, size_t len);

#endif /* BRAID_MSSFIX_H */
