// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_tls_auth.c - tls-auth unwrap (daemon/ctl/tls_auth.c
 * braid_tls_auth_unwrap: HMAC check, replay window) and the decoding of
 * what it returns (daemon/ctl/pkt.c braid_ctl_pkt_decode).
 *
 * Feeds: flags(1) then wire packets as chunks. flags bit 0: no key
 * direction (bidirectional), else the server side (direction 0); bits 1-2:
 * --auth SHA1 / SHA256 / SHA512; bit 3: BRAID_UNWRAP_NO_REPLAY. The replay
 * window lives across the packets of one input; the clock is fixed.
 * Asserts: unwrap writes at most the exact output length it is given (an
 * exactly sized heap buffer) and returns len - overhead; a failure names its
 * reason; an authentic packet is re-wrapped bit for bit by the peer's
 * context with the same replay id and time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_setup.h"
#include "pkt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	struct braid_tls_auth rx, tx;
	unsigned flags = fz_u8(&f);
	bool bidir = flags & 1;
	const char *digest = fz_ta_digest(flags >> 1);
	const uint8_t *w;
	size_t len;

	if (fz_ta_new(&rx, true, bidir, digest) || fz_ta_new(&tx, false, bidir, digest))
		abort();
	while (fz_chunk(&f, &w, &len)) {
		size_t ovh = braid_tls_auth_overhead(&rx), cap = len > ovh ? len - ovh : 0;
		size_t olen = 0, rlen = 0;
		uint8_t *out = malloc(cap ? cap : 1), *re;
		struct braid_ctl_pkt p;
		const char *why;
		int r;

		FZ_ASSERT(out);
		r = braid_tls_auth_unwrap(&rx, w, len, FZ_NOW_S, flags & 8 ? BRAID_UNWRAP_NO_REPLAY : 0,
					  out, cap, &olen);
		if (r) {
			FZ_ASSERT(r == -ENOBUFS || rx.why);
			free(out);
			continue;
		}
		FZ_ASSERT(olen == cap);
		if (rx.rx_pid) {
			re = malloc(len);
			FZ_ASSERT(re);
			braid_tls_auth_set_tx(&tx, rx.rx_pid, rx.rx_time);
			r = braid_tls_auth_wrap(&tx, out, olen, rx.rx_time, re, len, &rlen);
			FZ_ASSERT(r == 0 && rlen == len && !memcmp(re, w, len));
			free(re);
		}
		(void)braid_ctl_pkt_decode(out, olen, &p, &why);
		free(out);
	}
	braid_tls_auth_free(&rx);
	braid_tls_auth_free(&tx);
	return 0;
}
