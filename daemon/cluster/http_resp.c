// SPDX-License-Identifier: GPL-2.0-only
/*
 * http_resp.c - a minimal HTTP/1.1 response reader (http_resp.h). Every
 * length comes from the peer, so each is bounded: the header block by the
 * buffer, Content-Length and chunk sizes by the caller's body buffer before
 * any copy.
 */
#include "cluster/http_resp.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

/* The end of the line starting at p (the '\r' of "\r\n"), or NULL. */
static const char *line_end(const char *p, const char *end)
{
	for (; p + 1 < end; p++)
		if (p[0] == '\r' && p[1] == '\n')
			return p;
	return NULL;
}

static bool hdr_is(const char *p, const char *e, const char *name)
{
	size_t n = strlen(name);

	return (size_t)(e - p) > n && !strncasecmp(p, name, n) && p[n] == ':';
}

static const char *skip_ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	return p;
}

/* Decimal (max) or hex digits up to e; -EBADMSG if none or too big. */
static int parse_num(const char *p, const char *e, int base, size_t max, size_t *out,
		     const char **stop)
{
	size_t v = 0;
	const char *s = p;

	for (; p < e; p++) {
		int d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			break;
		v = v * (size_t)base + (size_t)d;
		if (v > max)
			return -EBADMSG;
	}
	if (p == s)
		return -EBADMSG;
	*out = v;
	*stop = p;
	return 0;
}

static int dechunk(const char *p, const char *end, char *body, size_t cap, size_t *blen)
{
	size_t n = 0;

	for (;;) {
		const char *le = line_end(p, end), *stop;
		size_t sz;
		int r;

		if (!le)
			return -EAGAIN;
		r = parse_num(p, le, 16, BRAID_HTTP_RESP_MAX, &sz, &stop);
		if (r)
			return r;
		if (stop != le && *stop != ';')	/* chunk extensions are ignored */
			return -EBADMSG;
		p = le + 2;
		if (!sz)
			break;	/* trailers follow; not needed */
		if (sz >= cap - n)
			return -EMSGSIZE;
		if ((size_t)(end - p) < sz + 2)
			return -EAGAIN;
		if (p[sz] != '\r' || p[sz + 1] != '\n')
			return -EBADMSG;
		memcpy(body + n, p, sz);
		n += sz;
		p += sz + 2;
	}
	body[n] = 0;
	*blen = n;
	return 0;
}

int braid_http_resp_parse(const char *buf, size_t len, int *status, char *body, size_t body_cap,
			  size_t *body_len)
{
	const char *p = buf, *end = buf + len, *le, *stop;
	bool chunked = false, has_cl = false;
	size_t cl = 0, code, n;
	int r;

	if (!body_cap || len > BRAID_HTTP_RESP_MAX)
		return -EMSGSIZE;
	le = line_end(p, end);
	if (!le)
		return -EAGAIN;
	if (le - p < 12 || strncmp(p, "HTTP/1.", 7) || (p[7] != '0' && p[7] != '1') || p[8] != ' ')
		return -EBADMSG;
	r = parse_num(p + 9, p + 12, 10, 999, &code, &stop);
	if (r || stop != p + 12 || code < 100 || code > 599 || (p + 12 < le && p[12] != ' '))
		return -EBADMSG;
	for (p = le + 2;; p = le + 2) {
		le = line_end(p, end);
		if (!le)
			return -EAGAIN;
		if (le == p)
			break;
		if (hdr_is(p, le, "content-length")) {
			const char *v = skip_ws(p + 15, le);

			r = parse_num(v, le, 10, BRAID_HTTP_RESP_MAX, &cl, &stop);
			if (r || skip_ws(stop, le) != le || has_cl)
				return -EBADMSG;
			has_cl = true;
		} else if (hdr_is(p, le, "transfer-encoding")) {
			const char *v = skip_ws(p + 18, le);

			if ((size_t)(le - v) == 7 && !strncasecmp(v, "chunked", 7))
				chunked = true;
			else
				return -EBADMSG;	/* nothing else is spoken here */
		}
	}
	p = le + 2;
	*status = (int)code;
	if (chunked)
		return dechunk(p, end, body, body_cap, body_len);
	n = has_cl ? cl : (size_t)(end - p);
	if (n >= body_cap)
		return -EMSGSIZE;
	if ((size_t)(end - p) < n)
		return -EAGAIN;
	memcpy(body, p, n);
	body[n] = 0;
	*body_len = n;
	return 0;
}
