/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * metrics_http.h - the request side of the metrics endpoint's HTTP/1.1
 * (metrics_http.c): is a request complete yet, and what does it ask for.
 * Pure functions over a bounded buffer: no I/O, no allocation; the fuzz
 * harness tests/fuzz/fuzz_metrics_http.c drives them.
 *
 * Only `GET /metrics` (and HEAD, which HTTP/1.1 asks every server to
 * serve like GET) is answered; a query string is ignored. The request line
 * and the headers together are at most BRAID_HTTP_REQ_MAX bytes, one line at
 * most BRAID_HTTP_LINE_MAX, at most BRAID_HTTP_HEADERS_MAX header lines; a
 * request with a body (Content-Length > 0, Transfer-Encoding) is refused:
 * the server never reads one.
 */
#ifndef BRAID_METRICS_HTTP_H
#define BRAID_METRICS_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#define BRAID_HTTP_REQ_MAX 4096		/* request line + headers + the empty line */
#define BRAID_HTTP_LINE_MAX 1024	/* one line, CRLF included */
#define BRAID_HTTP_HEADERS_MAX 32

/* The answer's kind, counted per kind by the server (metrics.c). */
enum braid_http_verdict {
	BRAID_HTTP_OK = 0,		/* 200: GET/HEAD /metrics */
	BRAID_HTTP_BAD_REQUEST,		/* 400: malformed line, bad header, a body, no Host */
	BRAID_HTTP_NOT_FOUND,		/* 404: another path */
	BRAID_HTTP_BAD_METHOD,		/* 405: another method on /metrics */
	BRAID_HTTP_URI_TOO_LONG,	/* 414: request line over BRAID_HTTP_LINE_MAX */
	BRAID_HTTP_HEADERS_TOO_LARGE,	/* 431: a header line, the headers or their count over the caps */
	BRAID_HTTP_BAD_VERSION,		/* 505: not HTTP/1.0 or HTTP/1.1 */
	BRAID_HTTP_VERDICT_N
};

struct braid_http_req {
	enum braid_http_verdict verdict;
	bool head;			/* HEAD: headers only */
	bool openmetrics;		/* the OpenMetrics format; false: Prometheus text 0.0.4 */
	int minor;			/* HTTP/1.minor */
};

/*
 * Look at the bytes received so far, buf[0..len) (len <= BRAID_HTTP_REQ_MAX).
 * 0: not complete yet, read more (only while len < BRAID_HTTP_REQ_MAX and no
 * line is over its cap); 1: decided, req filled (verdict OK or the refusal).
 * Bytes after the empty line that ends the headers are ignored.
 */
int braid_http_parse(const char *buf, size_t len, struct braid_http_req *req);

/* The status code of a verdict (200, 400, ...) and its reason phrase. */
int braid_http_code(enum braid_http_verdict v);
const char *braid_http_reason(enum braid_http_verdict v);
/* A short name of a verdict ("ok", "bad_request", ...), for counters and logs. */
const char *braid_http_verdict_name(enum braid_http_verdict v);

#endif /* BRAID_METRICS_HTTP_H */
