/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * json_get.h - a minimal JSON reader for etcd's replies (json_get.c): the
 * value of the first member with a given name, at any depth, as text.
 * etcd's v3 JSON gateway writes 64-bit numbers as strings ("ID":"758..."),
 * omits false/zero fields, and nests at most a few levels.
 */
#ifndef BRAID_JSON_GET_H
#define BRAID_JSON_GET_H

#include <stddef.h>

#define BRAID_JSON_DEPTH_MAX 16

/*
 * In j[0..n): find the first `"key": VALUE`. A string value is copied
 * unescaped (\" \\ \/ kept as the character; \uXXXX and other escapes
 * refused); a number, true, false or null as its text. out gets a NUL;
 * an object or array value gives "{" / "[" (present, not copied).
 * 0, -ENOENT (no such member), -EBADMSG (malformed, or nested deeper than
 * BRAID_JSON_DEPTH_MAX), -EMSGSIZE (value longer than out_cap - 1).
 */
int braid_json_get(const char *j, size_t n, const char *key, char *out, size_t out_cap);

/* The same, the value as an unsigned decimal (string or number): -ERANGE if not one. */
int braid_json_get_u64(const char *j, size_t n, const char *key, unsigned long long *out);

#endif /* BRAID_JSON_GET_H */
