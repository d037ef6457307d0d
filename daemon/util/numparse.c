// SPDX-License-Identifier: GPL-2.0-only
/*
 * numparse.c - strict bounded decimal parsing (numparse.h).
 */
#include "numparse.h"

#include <errno.h>
#include <stdlib.h>

int braid_parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	if (!s || !*s || s[0] == '+' || s[0] == ' ' || s[0] == '\t' || (s[0] == '-' && lo >= 0))
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end)
		return -EINVAL;
	if (errno == ERANGE || v < lo || v > hi)
		return -ERANGE;
	*out = v;
	return 0;
}

int braid_parse_int(const char *s, int lo, int hi, int *out)
{
	long v;
	int r = braid_parse_long(s, lo, hi, &v);

	if (!r)
		*out = (int)v;
	return r;
}
