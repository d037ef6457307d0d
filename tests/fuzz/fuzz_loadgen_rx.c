// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_loadgen_rx.c - what braid-loadgen (tests/tools/loadgen) reads from the
 * gateway and the kernel: the first byte picks the reader, the rest is its
 * input, in a buffer of its exact size (ASan sees any over-read):
 *   0: lg_push_parse (a PUSH_REPLY, not NUL-terminated; with a `braid-mp` offer)
 *   1: lg_icmp_parse_reply (a decrypted IPv4 packet), self = 10.8.0.2
 *   2: lg_rss_parse (/proc/PID/status text)
 * Asserts: only the documented results; a parsed push has a cipher shorter
 * than its buffer, a peer-id in range and a multipath offer either absent
 * (0, 0) or a version 1..65535 with a window 64..65536; a parsed reply came from a packet
 * of at least 28 bytes; an RSS value is non-negative; the same bytes give
 * the same result twice; an echo we build parses back to its fields.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "lg_icmp.h"
#include "lg_push.h"
#include "lg_report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *in;
	size_t n;
	uint8_t *buf;

	if (size < 1)
		return 0;
	in = data + 1;
	n = size - 1;
	buf = malloc(n ? n : 1);
	if (!buf)
		return 0;
	memcpy(buf, in, n);
	switch (data[0] % 3) {
	case 0: {
		struct lg_push a, b;
		const char *why;
		int r1 = lg_push_parse((const char *)buf, n, &a, &why);
		int r2 = lg_push_parse((const char *)buf, n, &b, &why);
		FZ_ASSERT(r1 == r2);
		FZ_ASSERT(r1 == 0 || r1 == -EPROTO || r1 == -EMSGSIZE || r1 == -EBADMSG);
		if (r1 == 0) {
			FZ_ASSERT(strlen(a.cipher) < sizeof(a.cipher));
			FZ_ASSERT(a.peer_id == UINT32_MAX || a.peer_id <= 0xfffffe);
			FZ_ASSERT((a.mp_version == 0 && a.mp_window == 0) ||
				  (a.mp_version >= 1 && a.mp_version <= 65535 && a.mp_window >= 64 &&
				   a.mp_window <= 65536));
			FZ_ASSERT(memcmp(&a, &b, sizeof(a)) == 0);
		}
		break;
	}
	case 1: {
		uint32_t self = htonl(0x0a080002);
		uint16_t id, seq;
		uint64_t ts;
		int r = lg_icmp_parse_reply(buf, n, self, &id, &seq, &ts);
		FZ_ASSERT(r == 0 || r == -EPROTO || r == -EBADMSG);
		if (r == 0)
			FZ_ASSERT(n >= LG_ICMP_HDR);
		if (n >= 2) {
			uint8_t pkt[1500], rep[1500];
			size_t sz = LG_ICMP_HDR + 8 + n % 1000;
			uint16_t i2, s2;
			uint64_t t2;
			FZ_ASSERT(lg_icmp_echo(pkt, sizeof(pkt), sz, htonl(0x0a080001), self, buf[0], buf[1],
					       ts) == 0);
			/* turn it into the reply the gateway would send: swap addresses, type 0, fix the checksum */
			memcpy(rep, pkt, sz);
			memcpy(rep + 12, pkt + 16, 4);
			memcpy(rep + 16, pkt + 12, 4);
			rep[20] = 0;
			FZ_ASSERT(lg_icmp_parse_reply(rep, sz, htonl(0x0a080001), &i2, &s2, &t2) == 0);
			FZ_ASSERT(i2 == buf[0] && s2 == buf[1] && t2 == ts);
		}
		break;
	}
	default: {
		long v1 = lg_rss_parse((const char *)buf, n), v2 = lg_rss_parse((const char *)buf, n);
		FZ_ASSERT(v1 == v2);
		FZ_ASSERT(v1 >= 0 || v1 == -EBADMSG);
		break;
	}
	}
	free(buf);
	return 0;
}
