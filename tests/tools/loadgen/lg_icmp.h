/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lg_icmp.h - the load generator's probe packets: an IPv4 ICMP echo request
 * built from the pushed tunnel address to the gateway's tunnel address, and a
 * bounded reader of what comes back (only an echo reply to us counts).
 */
#ifndef BRAID_LG_ICMP_H
#define BRAID_LG_ICMP_H

#include <stddef.h>
#include <stdint.h>

#define LG_ICMP_HDR 28 /* IPv4 header (20, no options) + ICMP echo header (8) */

/*
 * An echo request src -> dst (network byte order) with identifier id, sequence seq and
 * `size` bytes in total (>= LG_ICMP_HDR + 8: the payload starts with an 8-byte
 * send timestamp ts_us). 0 or -ENOBUFS (cap) / -EINVAL (size).
 */
int lg_icmp_echo(uint8_t *out, size_t cap, size_t size, uint32_t src, uint32_t dst, uint16_t id,
		 uint16_t seq, uint64_t ts_us);

/*
 * Read an IPv4 packet: 0 when it is an echo reply to `self` (network order) with a
 * valid IPv4 header checksum; *id, *seq and *ts_us (from the payload, 0 if short)
 * filled. -EPROTO (not IPv4 / not ICMP / not an echo reply / not to us),
 * -EBADMSG (lengths or checksum wrong). Reads no byte beyond len.
 */
int lg_icmp_parse_reply(const uint8_t *pkt, size_t len, uint32_t self, uint16_t *id, uint16_t *seq,
			uint64_t *ts_us);

#endif /* BRAID_LG_ICMP_H */
