// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_ctl_pkt.c - control-packet decoding (daemon/ctl/pkt.c:
 * braid_ctl_pkt_decode, braid_ctl_inner_decode, braid_ctl_hdr_decode,
 * braid_ctl_pkt_encode).
 *
 * Feeds: the whole input as one plain control packet (a UDP payload or a
 * TCP-deframed packet without tls-auth/tls-crypt), and the same bytes after
 * byte 0 as an inner part under every opcode.
 * Asserts: a packet that decodes is re-encoded to exactly the input bytes
 * (decode/encode round trip), its payload lies inside the input, and
 * n_acks <= 8; a failure always names its reason.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "pkt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct braid_ctl_pkt p;
	const char *why = NULL;
	uint8_t op, kid, sid[BRAID_CTL_SID_LEN], *re;
	size_t rlen = 0;
	int r;

	r = braid_ctl_hdr_decode(data, size, &op, &kid, sid, &why);
	FZ_ASSERT(r == 0 || why);
	if (!r)
		(void)braid_ctl_op_name(op);

	why = NULL;
	r = braid_ctl_pkt_decode(data, size, &p, &why);
	if (r) {
		FZ_ASSERT(why && (r == -EBADMSG || r == -EPROTO));
	} else {
		FZ_ASSERT(p.n_acks <= BRAID_CTL_ACK_MAX);
		FZ_ASSERT(p.payload_len <= size);
		FZ_ASSERT(!p.payload_len ||
			  (p.payload >= data && p.payload + p.payload_len <= data + size));
		FZ_ASSERT(braid_ctl_inner_len(&p) + BRAID_CTL_PLAIN_HDR == size);
		re = malloc(size);
		FZ_ASSERT(re);
		r = braid_ctl_pkt_encode(&p, re, size, &rlen);
		FZ_ASSERT(r == 0 && rlen == size && !memcmp(re, data, size));
		free(re);
	}

	if (size)
		for (op = 0; op < 16; op++) {
			why = NULL;
			r = braid_ctl_inner_decode(op, data + 1, size - 1, &p, &why);
			FZ_ASSERT(r == 0 || why);
			FZ_ASSERT(r || p.payload_len <= size - 1);
		}
	return 0;
}
