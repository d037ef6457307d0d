// SPDX-License-Identifier: GPL-2.0-only
/*
 * json.c - a small recursive-descent JSON reader (depth-limited) and a
 * string writer.
 */
#include "json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 16

struct in {
	const char *p;
};

static void ws(struct in *s)
{
	while (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r')
		s->p++;
}

static int value(struct in *s, struct json *j, int depth);

static int string(struct in *s, char **out)
{
	const char *p = s->p + 1;
	size_t cap = 16, len = 0;
	char *b = malloc(cap);

	if (!b)
		return -ENOMEM;
	for (;;) {
		char c = *p++;

		if (c == '\0' || (unsigned char)c < 0x20) {
			free(b);
			return -EINVAL;
		}
		if (c == '"')
			break;
		if (c == '\\') {
			c = *p++;
			switch (c) {
			case '"': case '\\': case '/': break;
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case 'b': c = '\b'; break;
			case 'f': c = '\f'; break;
			case 'u':
				/* status text is ASCII: keep a placeholder for escapes */
				for (int i = 0; i < 4; i++)
					if (!strchr("0123456789abcdefABCDEF", *p++) || !p[-1]) {
						free(b);
						return -EINVAL;
					}
				c = '?';
				break;
			default:
				free(b);
				return -EINVAL;
			}
		}
		if (len + 2 > cap) {
			char *nb = realloc(b, cap *= 2);

			if (!nb) {
				free(b);
				return -ENOMEM;
			}
			b = nb;
		}
		b[len++] = c;
	}
	b[len] = '\0';
	s->p = p;
	*out = b;
	return 0;
}

static int push(struct json *j, size_t *cap)
{
	if (j->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 8;
		struct json *ni = realloc(j->items, nc * sizeof(*ni));

		if (!ni)
			return -ENOMEM;
		j->items = ni;
		if (j->t == JSON_OBJ) {
			char **nk = realloc(j->keys, nc * sizeof(*nk));

			if (!nk)
				return -ENOMEM;
			j->keys = nk;
		}
		*cap = nc;
	}
	memset(&j->items[j->n], 0, sizeof(j->items[0]));
	return 0;
}

static int container(struct in *s, struct json *j, int depth, char close)
{
	size_t cap = 0;
	int r;

	s->p++;
	ws(s);
	if (*s->p == close) {
		s->p++;
		return 0;
	}
	for (;;) {
		ws(s);
		r = push(j, &cap);
		if (r)
			return r;
		if (j->t == JSON_OBJ) {
			if (*s->p != '"')
				return -EINVAL;
			r = string(s, &j->keys[j->n]);
			if (r)
				return r;
			j->n++;	/* counted now so that json_free frees the key */
			ws(s);
			if (*s->p++ != ':')
				return -EINVAL;
			r = value(s, &j->items[j->n - 1], depth + 1);
		} else {
			j->n++;
			r = value(s, &j->items[j->n - 1], depth + 1);
		}
		if (r)
			return r;
		ws(s);
		if (*s->p == ',') {
			s->p++;
			continue;
		}
		if (*s->p == close) {
			s->p++;
			return 0;
		}
		return -EINVAL;
	}
}

static int value(struct in *s, struct json *j, int depth)
{
	char *end;

	memset(j, 0, sizeof(*j));
	if (depth > MAX_DEPTH)
		return -EINVAL;
	ws(s);
	switch (*s->p) {
	case '{':
		j->t = JSON_OBJ;
		return container(s, j, depth, '}');
	case '[':
		j->t = JSON_ARR;
		return container(s, j, depth, ']');
	case '"':
		j->t = JSON_STR;
		return string(s, &j->str);
	case 't':
	case 'f':
	case 'n':
		if (!strncmp(s->p, "true", 4)) {
			j->t = JSON_BOOL;
			j->num = 1;
			s->p += 4;
		} else if (!strncmp(s->p, "false", 5)) {
			j->t = JSON_BOOL;
			s->p += 5;
		} else if (!strncmp(s->p, "null", 4)) {
			s->p += 4;
		} else {
			return -EINVAL;
		}
		return 0;
	default:
		if (*s->p != '-' && (*s->p < '0' || *s->p > '9'))
			return -EINVAL;
		j->t = JSON_NUM;
		j->num = strtod(s->p, &end);
		if (end == s->p)
			return -EINVAL;
		s->p = end;
		return 0;
	}
}

int json_parse(const char *text, struct json *out)
{
	struct in s = { text };
	int r = value(&s, out, 0);

	if (!r) {
		ws(&s);
		if (*s.p)
			r = -EINVAL;
	}
	if (r)
		json_free(out);
	return r;
}

void json_free(struct json *j)
{
	for (size_t i = 0; i < j->n; i++) {
		json_free(&j->items[i]);
		if (j->t == JSON_OBJ)
			free(j->keys[i]);
	}
	free(j->items);
	free(j->keys);
	free(j->str);
	memset(j, 0, sizeof(*j));
}

const struct json *json_get(const struct json *j, const char *key)
{
	if (!j || j->t != JSON_OBJ)
		return NULL;
	for (size_t i = 0; i < j->n; i++)
		if (!strcmp(j->keys[i], key))
			return &j->items[i];
	return NULL;
}

double json_num(const struct json *j, const char *key, double dflt)
{
	const struct json *v = json_get(j, key);

	return v && (v->t == JSON_NUM || v->t == JSON_BOOL) ? v->num : dflt;
}

const char *json_str(const struct json *j, const char *key, const char *dflt)
{
	const struct json *v = json_get(j, key);

	return v && v->t == JSON_STR ? v->str : dflt;
}

void json_put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

void json_put_member(FILE *f, const char *key, const char *s)
{
	fprintf(f, ",\"%s\":", key);
	json_put_str(f, s);
}
