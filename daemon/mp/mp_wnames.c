// SPDX-License-Identifier: GPL-2.0-only
/*
 * mp_wnames.c - ratio weights by path name: the "ratio NAME=W ..." spec
 * (bounded: at most BRAID_MP_MAX_PATHS names of BRAID_MP_WNAME_LEN - 1
 * bytes, weights up to BRAID_MP_WEIGHT_MAX) and its table.
 */
#include "mp_wnames.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* A name: printable, no space, no '=' (an interface name, an address). */
static int name_ok(const char *s, size_t len)
{
	if (!len || len >= BRAID_MP_WNAME_LEN)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (s[i] <= ' ' || s[i] > '~' || s[i] == '=')
			return 0;
	return 1;
}

static int find(const struct braid_mp_wnames *wn, const char *name, size_t len)
{
	for (unsigned int i = 0; i < wn->n; i++)
		if (strlen(wn->e[i].name) == len && !memcmp(wn->e[i].name, name, len))
			return (int)i;
	return -1;
}

int braid_mp_wnames_parse(const char *spec, struct braid_mp_wnames *out)
{
	const char *s = spec;
	uint64_t sum = 0;

	if (strncmp(s, "ratio ", 6) || !strchr(s, '='))
		return 0;
	s += 6;
	memset(out, 0, sizeof(*out));
	for (;;) {
		const char *eq = s;
		uint64_t v = 0;
		int digits = 0;

		while (*eq && *eq != '=' && *eq != ' ')
			eq++;
		if (*eq != '=' || !name_ok(s, (size_t)(eq - s)) || find(out, s, (size_t)(eq - s)) >= 0 ||
		    out->n == BRAID_MP_MAX_PATHS)
			return -EINVAL;
		memcpy(out->e[out->n].name, s, (size_t)(eq - s));
		out->e[out->n].name[eq - s] = '\0';
		s = eq + 1;
		while (*s >= '0' && *s <= '9') {
			v = v * 10 + (uint64_t)(*s++ - '0');
			if (v > BRAID_MP_WEIGHT_MAX)
				return -EINVAL;
			digits++;
		}
		if (!digits)
			return -EINVAL;
		out->e[out->n++].w = (uint32_t)v;
		sum += v;
		if (*s == '\0')
			break;
		if (*s++ != ' ')
			return -EINVAL;
	}
	return sum ? 1 : -EINVAL;
}

uint32_t braid_mp_wnames_get(const struct braid_mp_wnames *wn, const char *name)
{
	int i = find(wn, name, strlen(name));

	return i < 0 ? BRAID_MP_WEIGHT_NONE : wn->e[i].w;
}

int braid_mp_wnames_put(struct braid_mp_wnames *wn, const char *name, uint32_t w)
{
	size_t len = strlen(name);
	int i;

	if (!name_ok(name, len) || w > BRAID_MP_WEIGHT_MAX)
		return -EINVAL;
	i = find(wn, name, len);
	if (i < 0) {
		if (wn->n == BRAID_MP_MAX_PATHS)
			return -ENOSPC;
		i = (int)wn->n++;
		memcpy(wn->e[i].name, name, len + 1);
	}
	wn->e[i].w = w;
	return 0;
}

int braid_mp_wnames_format(const struct braid_mp_wnames *wn, char *buf, unsigned long len)
{
	size_t at;
	int k;

	k = snprintf(buf, len, "ratio");
	if (k < 0 || (unsigned long)k >= len)
		return -ENOSPC;
	at = (size_t)k;
	for (unsigned int i = 0; i < wn->n; i++) {
		k = snprintf(buf + at, len - at, " %s=%u", wn->e[i].name, (unsigned int)wn->e[i].w);
		if (k < 0 || (size_t)k >= len - at)
			return -ENOSPC;
		at += (size_t)k;
	}
	return 0;
}
