// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_cookie.c - the UDP server's stateless cookie (daemon/ctl/cookie.c:
 * braid_ctls_cookie_is_reset, braid_ctls_cookie_reply,
 * braid_ctls_new_from_cookie) and, once a session exists, the session's
 * packet input (daemon/ctl/session.c braid_ctls_input, _output, events).
 *
 * Feeds: flags(1) then packets from one client address as chunks. flags
 * bits 0-1: wrap none / tls-auth / tls-crypt; bit 2: the cookie check gets
 * another address than the reply went to. Fixed clock and cookie secret
 * (fuzz_setup.h), so seeds made by mkseeds.c stay valid.
 * Asserts: every reply and session creation is counted exactly once
 * (replies + accepted + rejected = calls); a reply fits the buffer; a cookie
 * is never accepted from an address it was not made for (bit 2).
 */
#include <errno.h>
#include <openssl/ssl.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_setup.h"

static SSL_CTX *ctx;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	unsigned flags = fz_u8(&f), calls = 0;
	const uint8_t *addr = (flags & 4) ? fz_addr_other : fz_addr;
	struct braid_ctls_cookie *ck = NULL;
	struct braid_ctls_cookie_stats st;
	struct braid_ctls_config cfg;
	struct braid_ctls *s = NULL;
	struct braid_key2 key;
	int64_t now_ms = FZ_NOW_MS;
	char err[256];
	const uint8_t *pkt;
	size_t len;

	if (!ctx && !(ctx = SSL_CTX_new(TLS_server_method())))
		abort();
	fz_key2(&key, (flags & 3) == BRAID_CTLS_WRAP_CRYPT ? 4 : 3);
	fz_ctls_cfg(&cfg, true, (flags & 3) == 3 ? 0 : (flags & 3), ctx, &key);
	if (braid_ctls_cookie_new(&ck, &cfg, fz_cookie_secret, err, sizeof(err)))
		abort();
	while (fz_chunk(&f, &pkt, &len)) {
		uint8_t out[BRAID_CTL_MAX_PKT + 64];
		struct braid_ctls_event ev;
		size_t olen = 0;
		const char *why = NULL;
		int r;

		now_ms += 10;
		if (s) {
			(void)braid_ctls_input(s, pkt, len, now_ms);
			while (!braid_ctls_output(s, now_ms, out, sizeof(out), &olen) && olen)
				FZ_ASSERT(olen <= sizeof(out));
			while (!braid_ctls_next_event(s, &ev))
				FZ_ASSERT(strlen(ev.text) < sizeof(ev.text));
			continue;
		}
		calls++;
		if (braid_ctls_cookie_is_reset(pkt, len)) {
			r = braid_ctls_cookie_reply(ck, pkt, len, fz_addr, sizeof(fz_addr), FZ_NOW_S,
						    out, sizeof(out), &olen, &why);
			FZ_ASSERT(r || (olen > 0 && olen <= sizeof(out)));
		} else {
			r = braid_ctls_new_from_cookie(&s, ck, pkt, len, addr, sizeof(fz_addr),
						       FZ_NOW_S, now_ms, &why);
			FZ_ASSERT(!(r == 0 && (flags & 4)));
			if (r)
				s = NULL;
		}
		braid_ctls_cookie_stats(ck, &st);
		FZ_ASSERT(st.replies + st.accepted + st.rejected == calls);
	}
	braid_ctls_free(s);
	braid_ctls_cookie_free(ck);
	return 0;
}
