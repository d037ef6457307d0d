// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_tcpframe.c - TCP stream framing (daemon/os/tcpframe.c: braid_tcpframe_feed,
 * _space, _commit, _next, _pending), checked against the control library's
 * own deframer (daemon/ctl/pkt.c braid_ctl_tcp_next) as the oracle.
 *
 * Feeds: flags(1) then the stream as chunks, one chunk per recv() segment.
 * flags bits 0-1 pick max_pkt (9192 as braidd, 1600, 65535, 1); bit 2 reads
 * through space()+commit() instead of feed().
 * Asserts: every packet returned is exactly the oracle's next packet, of
 * length 1..max_pkt; a bad length fails exactly where the oracle fails
 * (-EMSGSIZE, bad_len set) and never later; the buffer never holds more than
 * two maximal frames; feed() takes at most what it is offered and never
 * stalls while the buffer has no whole packet in it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "pkt.h"
#include "os/tcpframe.h"

static const size_t max_pkts[4] = { BRAID_TCPFRAME_MAX_PKT, 1600, 65535, 1 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	unsigned flags = fz_u8(&f);
	size_t max = max_pkts[flags & 3], ref_len = 0, ref_off = 0;
	struct braid_tcpframe tf;
	uint8_t *ref = malloc(size + 1);	/* the whole stream so far (the oracle's view) */
	const uint8_t *seg;
	size_t seg_len;
	int dead = 0;

	FZ_ASSERT(ref);
	FZ_ASSERT(!braid_tcpframe_init(&tf, max));
	while (!dead && fz_chunk(&f, &seg, &seg_len)) {
		memcpy(ref + ref_len, seg, seg_len);
		ref_len += seg_len;
		while (seg_len && !dead) {
			size_t took, room;
			unsigned got = 0;

			if (flags & 4) {
				uint8_t *sp = braid_tcpframe_space(&tf, &room);

				took = seg_len < room ? seg_len : room;
				memcpy(sp, seg, took);
				braid_tcpframe_commit(&tf, took);
			} else {
				took = braid_tcpframe_feed(&tf, seg, seg_len);
			}
			FZ_ASSERT(took <= seg_len);
			seg += took;
			seg_len -= took;
			FZ_ASSERT(braid_tcpframe_pending(&tf) <= 2 * (max + 2));
			/* take every whole packet, each checked against the oracle */
			for (;;) {
				const uint8_t *p, *rp;
				size_t len, rlen, used;
				const char *why;
				int r = braid_tcpframe_next(&tf, &p, &len);
				int rr = braid_ctl_tcp_next(ref + ref_off,
							    ref_len - ref_off - seg_len, max, &rp,
							    &rlen, &used, &why);

				if (r == -EAGAIN) {
					FZ_ASSERT(rr == -EAGAIN);
					break;
				}
				if (r == -EMSGSIZE) {
					FZ_ASSERT(rr == -EBADMSG);
					FZ_ASSERT(tf.bad_len == 0 || tf.bad_len > max);
					dead = 1;
					break;
				}
				FZ_ASSERT(r == 0 && rr == 0);
				FZ_ASSERT(len >= 1 && len <= max && len == rlen && !memcmp(p, rp, len));
				ref_off += used;
				got++;
			}
			FZ_ASSERT(dead || took || got);	/* no stall */
		}
	}
	braid_tcpframe_free(&tf);
	free(ref);
	return 0;
}
