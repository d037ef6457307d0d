// SPDX-License-Identifier: GPL-2.0-only
/*
 * json_get.c - a minimal JSON reader (json_get.h): a tokenizer that walks
 * the text once, tracks nesting (bounded) and stops at the first member
 * with the wanted name. Every copy is bounded by the caller's buffer.
 */
#include "cluster/json_get.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

struct scan {
	const char *p, *e;
};

static void ws(struct scan *s)
{
	while (s->p < s->e && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
		s->p++;
}

/*
 * A string at s->p (the opening quote). out: the unescaped text when
 * out_cap, else only skipped. 0, -EBADMSG, -EMSGSIZE.
 */
static int string(struct scan *s, char *out, size_t out_cap, size_t *olen)
{
	size_t n = 0;

	s->p++;
	while (s->p < s->e && *s->p != '"') {
		char ch = *s->p++;

		if ((unsigned char)ch < 0x20)
			return -EBADMSG;
		if (ch == '\\') {
			if (s->p >= s->e)
				return -EBADMSG;
			ch = *s->p++;
			if (ch != '"' && ch != '\\' && ch != '/')
				return -EBADMSG;
		}
		if (out_cap) {
			if (n + 1 >= out_cap)
				return -EMSGSIZE;
			out[n] = ch;
		}
		n++;
	}
	if (s->p >= s->e)
		return -EBADMSG;
	s->p++;
	if (out_cap)
		out[n] = 0;
	if (olen)
		*olen = n;
	return 0;
}

static bool literal_char(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '-' || c == '+' ||
	       c == '.' || c == 'E';
}

int braid_json_get(const char *j, size_t n, const char *key, char *out, size_t out_cap)
{
	struct scan s = { j, j + n };
	int depth = 0, r;

	if (!out_cap || strlen(key) > 256)
		return -EMSGSIZE;
	for (;;) {
		ws(&s);
		if (s.p >= s.e)
			return depth ? -EBADMSG : -ENOENT;
		switch (*s.p) {
		case '{':
		case '[':
			if (++depth > BRAID_JSON_DEPTH_MAX)
				return -EBADMSG;
			s.p++;
			continue;
		case '}':
		case ']':
			if (--depth < 0)
				return -EBADMSG;
			s.p++;
			continue;
		case ',':
		case ':':
			s.p++;
			continue;
		case '"': {
			const char *start = s.p + 1;
			size_t len;
			char name[258];

			r = string(&s, name, sizeof(name), &len);
			if (r == -EMSGSIZE) {	/* longer than any key: skip it */
				s.p = start - 1;
				r = string(&s, NULL, 0, NULL);
				len = 0;
				name[0] = 0;
			}
			if (r)
				return r;
			ws(&s);
			if (s.p >= s.e || *s.p != ':' || !depth || len != strlen(key) ||
			    strcmp(name, key))
				continue;
			s.p++;
			ws(&s);
			if (s.p >= s.e)
				return -EBADMSG;
			if (*s.p == '"')
				return string(&s, out, out_cap, NULL);
			if (*s.p == '{' || *s.p == '[') {
				if (out_cap < 2)
					return -EMSGSIZE;
				out[0] = *s.p;
				out[1] = 0;
				return 0;
			}
			len = 0;
			while (s.p < s.e && literal_char(*s.p)) {
				if (len + 1 >= out_cap)
					return -EMSGSIZE;
				out[len++] = *s.p++;
			}
			if (!len)
				return -EBADMSG;
			out[len] = 0;
			return 0;
		}
		default:
			if (!literal_char(*s.p))
				return -EBADMSG;
			while (s.p < s.e && literal_char(*s.p))
				s.p++;
			continue;
		}
	}
}

int braid_json_get_u64(const char *j, size_t n, const char *key, unsigned long long *out)
{
	char v[24];
	unsigned long long x = 0;
	int r = braid_json_get(j, n, key, v, sizeof(v));

	if (r == -EMSGSIZE)
		return -ERANGE;
	if (r)
		return r;
	if (!v[0])
		return -ERANGE;
	for (const char *p = v; *p; p++) {
		if (*p < '0' || *p > '9' || x > (~0ULL - 9) / 10)
			return -ERANGE;
		x = x * 10 + (unsigned)(*p - '0');
	}
	*out = x;
	return 0;
}
