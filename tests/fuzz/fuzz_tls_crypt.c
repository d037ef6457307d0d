// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_tls_crypt.c - tls-crypt unwrap (daemon/ctl/tls_crypt.c
 * braid_tls_crypt_unwrap: HMAC-SHA256 tag, AES-256-CTR, replay window) and
 * the decoding of what it returns (daemon/ctl/pkt.c braid_ctl_pkt_decode).
 *
 * Feeds: flags(1) then wire packets as chunks. flags bit 0: unwrap as the
 * client (else the server); bit 3: BRAID_UNWRAP_NO_REPLAY; bit 4: in place
 * (out == wire, as the daemon calls it). Fixed clock, one replay window per
 * input.
 * Asserts: unwrap writes at most the output length it is given (exactly
 * sized heap buffers) and returns len - 40; a failure names its reason; an
 * authentic packet is re-wrapped bit for bit by the peer's context with the
 * same replay id and time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_setup.h"
#include "pkt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	struct braid_tls_crypt rx, tx;
	unsigned flags = fz_u8(&f);
	bool server = !(flags & 1);
	const uint8_t *w;
	size_t len;

	if (fz_tc_new(&rx, server) || fz_tc_new(&tx, !server))
		abort();
	while (fz_chunk(&f, &w, &len)) {
		size_t ovh = BRAID_TLS_CRYPT_OVERHEAD, cap, olen = 0, rlen = 0;
		uint8_t *out, *re;
		struct braid_ctl_pkt p;
		const char *why;
		int r;

		if (flags & 16) {
			cap = len;
			out = malloc(len ? len : 1);
			FZ_ASSERT(out);
			memcpy(out, w, len);
			r = braid_tls_crypt_unwrap(&rx, out, len, FZ_NOW_S,
						   flags & 8 ? BRAID_UNWRAP_NO_REPLAY : 0, out, cap,
						   &olen);
		} else {
			cap = len > ovh ? len - ovh : 0;
			out = malloc(cap ? cap : 1);
			FZ_ASSERT(out);
			r = braid_tls_crypt_unwrap(&rx, w, len, FZ_NOW_S,
						   flags & 8 ? BRAID_UNWRAP_NO_REPLAY : 0, out, cap,
						   &olen);
		}
		if (r) {
			FZ_ASSERT(r == -ENOBUFS || rx.why);
			free(out);
			continue;
		}
		FZ_ASSERT(olen == len - ovh && olen <= cap);
		if (rx.rx_pid) {
			re = malloc(len);
			FZ_ASSERT(re);
			braid_tls_crypt_set_tx(&tx, rx.rx_pid, rx.rx_time);
			r = braid_tls_crypt_wrap(&tx, out, olen, rx.rx_time, re, len, &rlen);
			FZ_ASSERT(r == 0 && rlen == len && !memcmp(re, w, len));
			free(re);
		}
		(void)braid_ctl_pkt_decode(out, olen, &p, &why);
		free(out);
	}
	braid_tls_crypt_free(&rx);
	braid_tls_crypt_free(&tx);
	return 0;
}
