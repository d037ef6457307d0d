// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_metrics_http.c - the metrics endpoint's HTTP request parser
 * (daemon/control/metrics_http.c), as the server's reader uses it: the
 * bytes arrive in chunks (fuzz_common.h's u16-length chunks, as recv() would
 * cut them) into a BRAID_HTTP_REQ_MAX buffer, and braid_http_parse looks at
 * the whole buffer after each chunk until it decides.
 *
 * Asserts: a result is 0 or 1; 0 only while the buffer is not full (the
 * server never waits on a full buffer); a decision has a known verdict
 * with a status code and names; the parser is stateless: the same bytes in
 * one piece give the same decision and request, and a decision on a
 * prefix stays the same when more bytes follow (the server stops reading
 * at the first decision, so only that one counts, but it must not depend
 * on how recv() cut the stream); a request on /metrics with GET or HEAD is
 * the only OK.
 */
#include <string.h>

#include "control/metrics_http.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data, size };
	char *buf = malloc(BRAID_HTTP_REQ_MAX);
	struct braid_http_req q, q2;
	const uint8_t *chunk;
	size_t clen, len = 0;
	int r = 0;

	FZ_ASSERT(buf);
	while (fz_chunk(&f, &chunk, &clen) && len < BRAID_HTTP_REQ_MAX) {
		size_t take = clen < BRAID_HTTP_REQ_MAX - len ? clen : BRAID_HTTP_REQ_MAX - len;

		memcpy(buf + len, chunk, take);
		len += take;
		r = braid_http_parse(buf, len, &q);
		FZ_ASSERT(r == 0 || r == 1);
		if (r == 0) {
			FZ_ASSERT(len < BRAID_HTTP_REQ_MAX);
			continue;
		}
		FZ_ASSERT((unsigned)q.verdict < BRAID_HTTP_VERDICT_N);
		FZ_ASSERT(braid_http_code(q.verdict) >= 200 && braid_http_code(q.verdict) < 600);
		FZ_ASSERT(braid_http_reason(q.verdict)[0] && braid_http_verdict_name(q.verdict)[0]);
		if (q.verdict == BRAID_HTTP_OK)
			FZ_ASSERT(len >= 18 && (!memcmp(buf, "GET ", 4) || !memcmp(buf, "HEAD ", 5) ||
						buf[0] == '\r' || buf[0] == '\n'));
		/* stateless: again in one piece */
		FZ_ASSERT(braid_http_parse(buf, len, &q2) == 1);
		FZ_ASSERT(!memcmp(&q, &q2, sizeof(q)));
		break;
	}
	/* whatever follows the decision does not change it */
	if (r == 1 && len < BRAID_HTTP_REQ_MAX) {
		size_t more = size < BRAID_HTTP_REQ_MAX - len ? size : BRAID_HTTP_REQ_MAX - len;

		memcpy(buf + len, data, more);
		FZ_ASSERT(braid_http_parse(buf, len + more, &q2) == 1);
		FZ_ASSERT(q2.verdict == q.verdict && q2.head == q.head &&
			  q2.openmetrics == q.openmetrics && q2.minor == q.minor);
	}
	free(buf);
	return 0;
}
