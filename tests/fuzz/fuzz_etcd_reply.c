// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_etcd_reply.c - the etcd client's readers (daemon/cluster/): the
 * whole reply as read to EOF goes through braid_http_resp_parse (status
 * line, Content-Length or chunked body, into a bounded buffer) and
 * braid_etcd_reply; the body, and the raw input too, through braid_json_get
 * / braid_json_get_u64 for the names the client reads (ID, TTL, succeeded)
 * with a small and a large output buffer, braid_etcd_keepalive_ttl, and
 * braid_etcd_range_value (a range reply's one base64 value).
 * The input sits in a buffer of its exact size (ASan sees any over-read).
 *
 * Asserts: only the documented results; a parsed reply has a status in
 * 100..599 and a NUL-terminated body shorter than its buffer; the same
 * bytes parse the same twice; a JSON value found with the small buffer is
 * found equal with the large one, and one too long for the small buffer
 * (-EMSGSIZE) is longer than it; a u64 read agrees with the text read.
 */
#include <errno.h>
#include <string.h>

#include "cluster/etcd.h"
#include "cluster/http_resp.h"
#include "cluster/json_get.h"
#include "fuzz_common.h"

static const char *const keys[] = { "ID", "TTL", "succeeded", "result", "count", "value", "" };

/* A range reply's one value (revoked/, ccd/ entries) with a small and a
 * large buffer: a value found is NUL-terminated, has no NUL inside, and is
 * the same in both; too large for the small one is larger than it. */
static void range_check(const char *j, size_t n)
{
	char small[16], big[BRAID_HTTP_RESP_MAX];
	size_t ls = 99, lb = 99;
	bool fs = true, fb = true;
	int rs = braid_etcd_range_value(j, n, small, sizeof(small), &ls, &fs);
	int rb = braid_etcd_range_value(j, n, big, sizeof(big), &lb, &fb);

	FZ_ASSERT(rs == 0 || rs == -EBADMSG || rs == -EMSGSIZE || rs == -ERANGE);
	FZ_ASSERT(rb == 0 || rb == -EBADMSG || rb == -EMSGSIZE || rb == -ERANGE);
	if (rs == 0 && fs) {
		FZ_ASSERT(ls < sizeof(small) && small[ls] == 0 && strlen(small) == ls);
		FZ_ASSERT(rb == 0 && fb && lb == ls && !memcmp(small, big, ls));
	}
	if (rs == 0 && !fs)
		FZ_ASSERT(ls == 0 && rb == 0 && !fb);
	if (rb == 0 && fb)
		FZ_ASSERT(lb < sizeof(big) && big[lb] == 0 && strlen(big) == lb);
	if (rs == -EMSGSIZE && rb == 0)
		FZ_ASSERT(fb && lb >= sizeof(small) - 1 - 3);	/* the size check allows for padding */
}

static void json_check(const char *j, size_t n)
{
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		char small[8], big[4096];
		unsigned long long u;
		int rs = braid_json_get(j, n, keys[k], small, sizeof(small));
		int rb = braid_json_get(j, n, keys[k], big, sizeof(big));
		int ru = braid_json_get_u64(j, n, keys[k], &u);

		FZ_ASSERT(rs == 0 || rs == -ENOENT || rs == -EBADMSG || rs == -EMSGSIZE);
		FZ_ASSERT(rb == 0 || rb == -ENOENT || rb == -EBADMSG || rb == -EMSGSIZE);
		FZ_ASSERT(ru == 0 || ru == -ENOENT || ru == -EBADMSG || ru == -ERANGE);
		if (rs == 0) {
			FZ_ASSERT(strlen(small) < sizeof(small));
			FZ_ASSERT(rb == 0 && !strcmp(small, big));
		}
		if (rs == -ENOENT)
			FZ_ASSERT(rb == -ENOENT);
		if (rs == -EMSGSIZE && rb == 0)
			FZ_ASSERT(strlen(big) >= sizeof(small) - 1);
		if (ru == 0) {
			char t[24];

			FZ_ASSERT(rb == 0);
			snprintf(t, sizeof(t), "%llu", u);
			FZ_ASSERT(!strcmp(t, big) || big[0] == '0');	/* leading zeros read as one number */
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in, *body, *body2;
	size_t bl = 0, bl2 = 0;
	int st = 0, st2 = 0, r, r2;
	long ttl;

	if (size > BRAID_HTTP_RESP_MAX)
		return 0;
	in = malloc(size ? size : 1);
	body = malloc(BRAID_HTTP_RESP_MAX);
	body2 = malloc(BRAID_HTTP_RESP_MAX);
	FZ_ASSERT(in && body && body2);
	if (size)
		memcpy(in, data, size);
	r = braid_http_resp_parse(in, size, &st, body, 4096, &bl);
	FZ_ASSERT(r == 0 || r == -EAGAIN || r == -EBADMSG || r == -EMSGSIZE);
	if (r == 0) {
		FZ_ASSERT(st >= 100 && st <= 599);
		FZ_ASSERT(bl < 4096 && body[bl] == 0);
		r2 = braid_http_resp_parse(in, size, &st2, body2, BRAID_HTTP_RESP_MAX, &bl2);
		FZ_ASSERT(r2 == 0 && st2 == st && bl2 == bl && !memcmp(body, body2, bl));
		json_check(body, bl);
		range_check(body, bl);
		r2 = braid_etcd_keepalive_ttl(body, bl, &ttl);
		FZ_ASSERT((r2 == 0 && ttl >= 0) || r2 == -EBADMSG || r2 == -ERANGE);
	}
	r2 = braid_etcd_reply(in, size, body2, 4096, &bl2);
	FZ_ASSERT(r2 == 0 || r2 == -EPROTO || r2 == -EBADMSG || r2 == -EMSGSIZE);
	FZ_ASSERT((r2 == 0) == (r == 0 && st == 200));
	json_check(in, size);
	free(in);
	free(body);
	free(body2);
	return 0;
}
