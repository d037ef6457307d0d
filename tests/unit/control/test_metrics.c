// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_metrics.c - the metrics endpoint's pure parts: the HTTP request
 * parser (every verdict, Accept negotiation, a request cut anywhere), label
 * escaping and UTF-8 repair, and both text formats of a small scrape
 * (exact text).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "control/metrics_fmt.h"
#include "control/metrics_http.h"
#include "control/metrics_snap.h"

static void verdicts(void)
{
	static const struct {
		const char *req;
		int r;
		enum braid_http_verdict v;
		bool om, head;
	} t[] = {
		{ "GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: */*\r\n\r\n", 1, BRAID_HTTP_OK, true, false },
		{ "GET /metrics HTTP/1.1\r\nHost: x\r\n", 0, BRAID_HTTP_OK, false, false },
		{ "GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: text/plain\r\n\r\n", 1, BRAID_HTTP_OK, false, false },
		{ "GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: text/plain;version=0.0.4;q=0.3,*/*;q=0.1\r\n\r\n",
		  1, BRAID_HTTP_OK, false, false },
		{ "GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: application/openmetrics-text;version=1.0.0,"
		  "text/plain;version=0.0.4;q=0.5\r\n\r\n", 1, BRAID_HTTP_OK, true, false },
		{ "GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: application/openmetrics-text;q=0, TEXT/Plain\r\n\r\n",
		  1, BRAID_HTTP_OK, false, false },
		{ "HEAD /metrics?a=b HTTP/1.1\r\nHost: x\r\n\r\n", 1, BRAID_HTTP_OK, true, true },
		{ "GET /metrics HTTP/1.0\n\n", 1, BRAID_HTTP_OK, true, false },
		{ "\r\nGET http://h:1/metrics HTTP/1.1\r\nHost: h\r\n\r\n", 1, BRAID_HTTP_OK, true, false },
		{ "GET /metrics HTTP/1.1\r\n\r\n", 1, BRAID_HTTP_BAD_REQUEST, true, false },
		{ "GET /metrics HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 1, BRAID_HTTP_BAD_REQUEST, true, false },
		{ "GET /metrics HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n", 1, BRAID_HTTP_BAD_REQUEST, false, false },
		{ "GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nab", 1, BRAID_HTTP_BAD_REQUEST, false, false },
		{ "GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", 1, BRAID_HTTP_OK, true, false },
		{ "GET /metrics HTTP/1.1\r\nTransfer-Encoding: chunked\r\n", 1, BRAID_HTTP_BAD_REQUEST, false, false },
		{ "GET  /metrics HTTP/1.1\r\n", 1, BRAID_HTTP_BAD_REQUEST, false, false },
		{ "GET /met\rrics HTTP/1.1\r\n", 1, BRAID_HTTP_BAD_REQUEST, false, false },
		{ "GET * HTTP/1.1\r\n", 1, BRAID_HTTP_BAD_REQUEST, false, false },
		{ "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 1, BRAID_HTTP_NOT_FOUND, true, false },
		{ "GET /metricsx HTTP/1.1\r\nHost: x\r\n\r\n", 1, BRAID_HTTP_NOT_FOUND, true, false },
		{ "POST /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 1, BRAID_HTTP_BAD_METHOD, true, false },
		{ "get /metrics HTTP/1.1\r\nHost: x\r\n\r\n", 1, BRAID_HTTP_BAD_METHOD, true, false },
		{ "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 1, BRAID_HTTP_BAD_VERSION, false, false },
		{ "GET /metrics HTTP/1.1 \r\n", 1, BRAID_HTTP_BAD_REQUEST, false, false },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct braid_http_req q, q2;
		size_t n = strlen(t[i].req);
		int r = braid_http_parse(t[i].req, n, &q);

		CHECKM(r == t[i].r, "case %zu: r %d", i, r);
		if (r != 1 || t[i].r != 1)
			continue;
		CHECKM(q.verdict == t[i].v, "case %zu: verdict %s", i, braid_http_verdict_name(q.verdict));
		if (q.verdict == BRAID_HTTP_OK) {
			CHECKM(q.openmetrics == t[i].om, "case %zu: openmetrics", i);
			CHECKM(q.head == t[i].head, "case %zu: head", i);
		}
		/* cut anywhere: a prefix is undecided or decided the same way */
		for (size_t k = 1; k < n; k++) {
			if (braid_http_parse(t[i].req, k, &q2) == 1)
				CHECKM(q2.verdict == q.verdict, "case %zu cut at %zu: %s", i, k,
				       braid_http_verdict_name(q2.verdict));
		}
	}
	CHECK_EQ(braid_http_code(BRAID_HTTP_HEADERS_TOO_LARGE), 431);
	CHECK_EQ(braid_http_code(BRAID_HTTP_BAD_METHOD), 405);
}

static void caps(void)
{
	char *b = malloc(BRAID_HTTP_REQ_MAX);
	struct braid_http_req q;
	size_t n;

	/* a request line without its end past the line cap: 414 at once */
	memset(b, 'a', BRAID_HTTP_LINE_MAX);
	memcpy(b, "GET /", 5);
	CHECK_EQ(braid_http_parse(b, BRAID_HTTP_LINE_MAX - 1, &q), 0);
	CHECK_EQ(braid_http_parse(b, BRAID_HTTP_LINE_MAX, &q), 1);
	CHECK_EQ(q.verdict, BRAID_HTTP_URI_TOO_LONG);
	/* one long header line: 431 */
	n = (size_t)snprintf(b, BRAID_HTTP_REQ_MAX, "GET /metrics HTTP/1.1\r\nX: ");
	memset(b + n, 'y', BRAID_HTTP_LINE_MAX);
	CHECK_EQ(braid_http_parse(b, n + BRAID_HTTP_LINE_MAX, &q), 1);
	CHECK_EQ(q.verdict, BRAID_HTTP_HEADERS_TOO_LARGE);
	/* too many headers: 431 */
	n = (size_t)snprintf(b, BRAID_HTTP_REQ_MAX, "GET /metrics HTTP/1.1\r\n");
	for (int i = 0; i <= BRAID_HTTP_HEADERS_MAX; i++)
		n += (size_t)snprintf(b + n, BRAID_HTTP_REQ_MAX - n, "X-%d: y\r\n", i);
	CHECK_EQ(braid_http_parse(b, n, &q), 1);
	CHECK_EQ(q.verdict, BRAID_HTTP_HEADERS_TOO_LARGE);
	/* a full buffer of short complete lines: decided (431), never "read more" */
	n = (size_t)snprintf(b, BRAID_HTTP_REQ_MAX, "GET /metrics HTTP/1.1\r\n");
	while (n + 200 < BRAID_HTTP_REQ_MAX)
		n += (size_t)snprintf(b + n, BRAID_HTTP_REQ_MAX - n, "X: %0190d\r\n", 0);
	memset(b + n, 'z', BRAID_HTTP_REQ_MAX - n);
	CHECK_EQ(braid_http_parse(b, BRAID_HTTP_REQ_MAX, &q), 1);
	CHECK_EQ(q.verdict, BRAID_HTTP_HEADERS_TOO_LARGE);
	free(b);
}

static char *render(const struct braid_met_snap *m, bool om)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	braid_met_write(f, m, om);
	fclose(f);
	return buf;
}

static void formats(void)
{
	struct braid_met_snap m;
	char *om, *prom;
	int ls;

	braid_met_snap_init(&m);
	ls = braid_met_lset(&m, -1, "client", "a\"b\\c\nd\xff\xc3\xa9", "client_id", "7", NULL);
	braid_met_u(&m, BRAID_MET_CLIENT_RX_BYTES, ls, 18446744073709551615ull);
	braid_met_d(&m, BRAID_MET_UPTIME, -1, 1.5);
	braid_met_u(&m, BRAID_MET_BUILD, braid_met_lset(&m, -1, "version", "0.1.0", NULL), 1);
	braid_met_u(&m, BRAID_MET_CLIENT_RX_BYTES, braid_met_lset(&m, ls, "x", "y", NULL), 2);
	CHECK_EQ(m.err, 0);
	om = render(&m, true);
	prom = render(&m, false);
	CHECK_STR(om,
		  "# TYPE braid_build info\n"
		  "# HELP braid_build braidd's version and the role it runs\n"
		  "braid_build_info{version=\"0.1.0\"} 1\n"
		  "# TYPE braid_uptime_seconds gauge\n"
		  "# UNIT braid_uptime_seconds seconds\n"
		  "# HELP braid_uptime_seconds seconds since the process started (status JSON uptime_s)\n"
		  "braid_uptime_seconds 1.5\n"
		  "# TYPE braid_client_rx_bytes counter\n"
		  "# HELP braid_client_rx_bytes bytes received from the client (clients[].rx_bytes)\n"
		  "braid_client_rx_bytes_total{client=\"a\\\"b\\\\c\\nd?\xc3\xa9\",client_id=\"7\"} "
		  "18446744073709551615\n"
		  "braid_client_rx_bytes_total{client=\"a\\\"b\\\\c\\nd?\xc3\xa9\",client_id=\"7\",x=\"y\"} 2\n"
		  "# EOF\n");
	CHECK_STR(prom,
		  "# TYPE braid_build_info gauge\n"
		  "# HELP braid_build_info braidd's version and the role it runs\n"
		  "braid_build_info{version=\"0.1.0\"} 1\n"
		  "# TYPE braid_uptime_seconds gauge\n"
		  "# HELP braid_uptime_seconds seconds since the process started (status JSON uptime_s)\n"
		  "braid_uptime_seconds 1.5\n"
		  "# TYPE braid_client_rx_bytes_total counter\n"
		  "# HELP braid_client_rx_bytes_total bytes received from the client (clients[].rx_bytes)\n"
		  "braid_client_rx_bytes_total{client=\"a\\\"b\\\\c\\nd?\xc3\xa9\",client_id=\"7\"} "
		  "18446744073709551615\n"
		  "braid_client_rx_bytes_total{client=\"a\\\"b\\\\c\\nd?\xc3\xa9\",client_id=\"7\",x=\"y\"} 2\n");
	free(om);
	free(prom);
	braid_met_snap_free(&m);
}

static void families(void)
{
	/* every family named, unit a suffix of its name, no reserved suffix on a gauge */
	for (int id = 0; id < BRAID_MET_N; id++) {
		const struct braid_met_family *f = braid_met_family(id);
		size_t n = f && f->name ? strlen(f->name) : 0;

		CHECKM(n && f->help && f->help[0], "family %d", id);
		if (!n)
			continue;
		CHECKM(!strncmp(f->name, "braid_", 6), "%s", f->name);
		if (f->unit) {
			size_t u = strlen(f->unit);

			CHECKM(n > u + 1 && f->name[n - u - 1] == '_' && !strcmp(f->name + n - u, f->unit),
			       "%s unit %s", f->name, f->unit);
		}
		CHECKM(!(n > 6 && !strcmp(f->name + n - 6, "_total")), "%s", f->name);
		CHECKM(!(n > 5 && !strcmp(f->name + n - 5, "_info")), "%s", f->name);
		for (int j = 0; j < id; j++)
			CHECKM(strcmp(braid_met_family(j)->name, f->name), "%s twice", f->name);
	}
}

int main(void)
{
	double start, up;

	verdicts();
	caps();
	formats();
	families();
	CHECK_EQ(braid_met_process_times(&start, &up), 0);
	CHECK(up >= 0 && up < 600 && start > 1.7e9);
	CHECK_DONE();
}
