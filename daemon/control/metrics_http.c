// SPDX-License-Identifier: GPL-2.0-only
/*
 * metrics_http.c - parsing the metrics endpoint's HTTP requests
 * (metrics_http.h). Stateless: the whole buffer is looked at again on each
 * call (at most BRAID_HTTP_REQ_MAX bytes), so a request cut anywhere by
 * recv() gives the same answer as one read at once.
 */
#include "control/metrics_http.h"

#include <stdint.h>
#include <string.h>
#include <strings.h>

/* RFC 9110 tchar */
static bool tchar(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c && strchr("!#$%&'*+-.^_`|~", c));
}

static bool ows(char c)
{
	return c == ' ' || c == '\t';
}

/* s[0..n) equals the lower-case word w, ignoring case. */
static bool eq_word(const char *s, size_t n, const char *w)
{
	return n == strlen(w) && !strncasecmp(s, w, n);
}

/* The request line: 0 (a resource verdict in *v, to give once the headers are read) or 1 (decided now). */
static int request_line(const char *s, size_t n, struct braid_http_req *req,
			enum braid_http_verdict *v)
{
	const char *sp1 = memchr(s, ' ', n), *sp2, *tgt, *path, *end;
	size_t mlen, tlen, plen, vlen;

	if (!sp1 || sp1 == s)
		goto bad;
	mlen = (size_t)(sp1 - s);
	for (size_t i = 0; i < mlen; i++)
		if (!tchar((unsigned char)s[i]))
			goto bad;
	tgt = sp1 + 1;
	sp2 = memchr(tgt, ' ', n - (size_t)(tgt - s));
	if (!sp2 || sp2 == tgt)
		goto bad;
	tlen = (size_t)(sp2 - tgt);
	for (size_t i = 0; i < tlen; i++)
		if ((unsigned char)tgt[i] <= 0x20 || (unsigned char)tgt[i] == 0x7f)
			goto bad;
	vlen = n - (size_t)(sp2 + 1 - s);
	/* HTTP-version = "HTTP/" DIGIT "." DIGIT */
	if (vlen != 8 || memcmp(sp2 + 1, "HTTP/", 5) || sp2[6] < '0' || sp2[6] > '9' ||
	    sp2[7] != '.' || sp2[8] < '0' || sp2[8] > '9')
		goto bad;
	if (sp2[6] != '1') {
		req->verdict = BRAID_HTTP_BAD_VERSION;
		return 1;
	}
	req->minor = sp2[8] - '0';
	/* origin-form, or absolute-form http(s)://authority/path */
	path = tgt;
	end = tgt + tlen;
	if (tlen > 7 && !strncasecmp(tgt, "http://", 7))
		path = tgt + 7;
	else if (tlen > 8 && !strncasecmp(tgt, "https://", 8))
		path = tgt + 8;
	if (path != tgt) {
		path = memchr(path, '/', (size_t)(end - path));
		if (!path)
			path = end;	/* "http://host": the path "/" */
	} else if (*tgt != '/') {
		goto bad;	/* asterisk-form, authority-form: nothing here takes them */
	}
	plen = 0;
	while (path + plen < end && path[plen] != '?' && path[plen] != '#')
		plen++;
	if (!(plen == 8 && !memcmp(path, "/metrics", 8)))
		*v = BRAID_HTTP_NOT_FOUND;
	else if (mlen == 3 && !memcmp(s, "GET", 3))
		*v = BRAID_HTTP_OK;
	else if (mlen == 4 && !memcmp(s, "HEAD", 4))
		*v = BRAID_HTTP_OK, req->head = true;
	else
		*v = BRAID_HTTP_BAD_METHOD;	/* methods are case-sensitive */
	return 0;
bad:
	req->verdict = BRAID_HTTP_BAD_REQUEST;
	return 1;
}

/* Is q (the value of a q= parameter) zero? "0", "0.", "0.000". */
static bool q_zero(const char *q, size_t n)
{
	if (!n || q[0] != '0')
		return false;
	for (size_t i = 1; i < n; i++)
		if (!(i == 1 && q[i] == '.') && q[i] != '0')
			return false;
	return true;
}

/* One Accept value: which of the two formats it names with q > 0. */
static void accept_value(const char *s, size_t n, bool *om, bool *plain)
{
	size_t i = 0;

	while (i < n) {
		size_t e = i, t0, t1;
		bool zero = false;

		while (e < n && s[e] != ',')
			e++;
		t0 = i;
		while (t0 < e && ows(s[t0]))
			t0++;
		t1 = t0;
		while (t1 < e && s[t1] != ';' && !ows(s[t1]))
			t1++;
		/* parameters: only q matters */
		for (size_t p = t1; p < e; p++) {
			size_t v0, v1;

			if (s[p] != ';')
				continue;
			v0 = p + 1;
			while (v0 < e && ows(s[v0]))
				v0++;
			if (e - v0 < 2 || (s[v0] != 'q' && s[v0] != 'Q') || s[v0 + 1] != '=')
				continue;
			v0 += 2;
			v1 = v0;
			while (v1 < e && s[v1] != ';' && !ows(s[v1]))
				v1++;
			zero = q_zero(s + v0, v1 - v0);
		}
		if (!zero && eq_word(s + t0, t1 - t0, "application/openmetrics-text"))
			*om = true;
		if (!zero && eq_word(s + t0, t1 - t0, "text/plain"))
			*plain = true;
		i = e + 1;
	}
}

int braid_http_parse(const char *buf, size_t len, struct braid_http_req *req)
{
	enum braid_http_verdict v = BRAID_HTTP_OK;
	size_t pos = 0, nhdr = 0, hosts = 0;
	bool have_line = false, om = false, plain = false;

	memset(req, 0, sizeof(*req));
	if (len > BRAID_HTTP_REQ_MAX)
		len = BRAID_HTTP_REQ_MAX;
	for (;;) {
		const char *s = buf + pos, *lf = memchr(s, '\n', len - pos);
		size_t n, full;

		if (!lf) {
			/* an unfinished line: over its cap already, or no room left for the rest */
			if (len - pos >= BRAID_HTTP_LINE_MAX || len >= BRAID_HTTP_REQ_MAX) {
				req->verdict = have_line ? BRAID_HTTP_HEADERS_TOO_LARGE :
					       BRAID_HTTP_URI_TOO_LONG;
				return 1;
			}
			return 0;
		}
		full = (size_t)(lf - s) + 1;
		n = full - 1;
		if (n && s[n - 1] == '\r')
			n--;
		if (full > BRAID_HTTP_LINE_MAX) {
			req->verdict = have_line ? BRAID_HTTP_HEADERS_TOO_LARGE :
				       BRAID_HTTP_URI_TOO_LONG;
			return 1;
		}
		pos += full;
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)s[i];

			if ((c < 0x20 && c != '\t') || c == 0x7f) {	/* a bare CR, NUL, ... */
				req->verdict = BRAID_HTTP_BAD_REQUEST;
				return 1;
			}
		}
		if (!have_line) {
			if (!n && pos <= 4)
				continue;	/* RFC 9112 2.2: empty lines before the request line */
			if (request_line(s, n, req, &v))
				return 1;
			have_line = true;
			continue;
		}
		if (!n)
			break;	/* the end of the headers */
		if (++nhdr > BRAID_HTTP_HEADERS_MAX) {
			req->verdict = BRAID_HTTP_HEADERS_TOO_LARGE;
			return 1;
		} else {
			const char *colon = memchr(s, ':', n), *val;
			size_t nlen, vlen;

			if (!colon || colon == s) {
				req->verdict = BRAID_HTTP_BAD_REQUEST;	/* also obs-fold (leading blank) */
				return 1;
			}
			nlen = (size_t)(colon - s);
			for (size_t i = 0; i < nlen; i++)
				if (!tchar((unsigned char)s[i])) {
					req->verdict = BRAID_HTTP_BAD_REQUEST;
					return 1;
				}
			val = colon + 1;
			vlen = n - nlen - 1;
			while (vlen && ows(*val))
				val++, vlen--;
			while (vlen && ows(val[vlen - 1]))
				vlen--;
			if (eq_word(s, nlen, "host")) {
				hosts++;
			} else if (eq_word(s, nlen, "transfer-encoding")) {
				req->verdict = BRAID_HTTP_BAD_REQUEST;	/* a body: never read here */
				return 1;
			} else if (eq_word(s, nlen, "content-length")) {
				size_t z = 0;

				while (z < vlen && val[z] == '0')
					z++;
				if (!vlen || z < vlen) {	/* a body: never read here */
					req->verdict = BRAID_HTTP_BAD_REQUEST;
					return 1;
				}
			} else if (eq_word(s, nlen, "accept")) {
				accept_value(val, vlen, &om, &plain);
			}
		}
	}
	/* RFC 9112 3.2: an HTTP/1.1 request has exactly one Host */
	if (req->minor >= 1 && hosts != 1)
		v = BRAID_HTTP_BAD_REQUEST;
	req->verdict = v;
	req->openmetrics = om || !plain;
	return 1;
}

int braid_http_code(enum braid_http_verdict v)
{
	static const int code[BRAID_HTTP_VERDICT_N] = { 200, 400, 404, 405, 414, 431, 505 };

	return (unsigned)v < BRAID_HTTP_VERDICT_N ? code[v] : 500;
}

const char *braid_http_reason(enum braid_http_verdict v)
{
	static const char *const r[BRAID_HTTP_VERDICT_N] = {
		"OK", "Bad Request", "Not Found", "Method Not Allowed", "URI Too Long",
		"Request Header Fields Too Large", "HTTP Version Not Supported",
	};

	return (unsigned)v < BRAID_HTTP_VERDICT_N ? r[v] : "Internal Server Error";
}

const char *braid_http_verdict_name(enum braid_http_verdict v)
{
	static const char *const r[BRAID_HTTP_VERDICT_N] = {
		"ok", "bad_request", "not_found", "bad_method", "uri_too_long",
		"headers_too_large", "bad_version",
	};

	return (unsigned)v < BRAID_HTTP_VERDICT_N ? r[v] : "?";
}
