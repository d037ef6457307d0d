/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * json.h - a small JSON reader for braidd's path and client objects, and the
 * string writer of braidctl's --json output.
 */
#ifndef BRAIDCTL_JSON_H
#define BRAIDCTL_JSON_H

#include <stddef.h>
#include <stdio.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUM, JSON_STR, JSON_ARR, JSON_OBJ };

struct json {
	enum json_type t;
	double num;		/* NUM, BOOL (0/1) */
	char *str;		/* STR (decoded, NUL-terminated) */
	size_t n;		/* ARR / OBJ members */
	struct json *items;
	char **keys;		/* OBJ */
};

/* Parse the whole text (trailing blanks allowed). 0 or -EINVAL / -ENOMEM. */
int json_parse(const char *text, struct json *out);
void json_free(struct json *j);
/* Member of an object, NULL if absent or j is not an object. */
const struct json *json_get(const struct json *j, const char *key);
/* Convenience: number / string member or a default. */
double json_num(const struct json *j, const char *key, double dflt);
const char *json_str(const struct json *j, const char *key, const char *dflt);
/* s as a JSON string (quoted, escaped) to f. */
void json_put_str(FILE *f, const char *s);
/* ,"key":s (s quoted and escaped) to f: one more member of an object already opened. */
void json_put_member(FILE *f, const char *key, const char *s);

#endif
