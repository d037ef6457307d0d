// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_mp_wnames.c - the "ratio NAME=W ..." scheduler spec (weights bound
 * to path names: daemon/mp/mp_wnames.c braid_mp_wnames_parse, _get, _put,
 * _format), from the configuration and the control surfaces.
 *
 * Feeds: the whole input as the spec (NUL-terminated copy; up to 512 bytes).
 * Asserts: a result of -EINVAL, 0 or 1 only; on 1: 1..8 entries, names
 * non-empty, NUL-terminated inside their field, distinct, without space or
 * '='; weights <= BRAID_MP_WEIGHT_MAX with one above 0; each name's _get is
 * its weight; format -> parse gives the same table; _put of a listed name
 * keeps the count.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "mp_wnames.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct braid_mp_wnames wn, back;
	char spec[513], out[1024];
	uint64_t sum = 0;
	int r;

	if (size > 512)
		return 0;
	memcpy(spec, data, size);
	spec[size] = '\0';
	r = braid_mp_wnames_parse(spec, &wn);
	FZ_ASSERT(r == -EINVAL || r == 0 || r == 1);
	if (r != 1)
		return 0;
	FZ_ASSERT(wn.n >= 1 && wn.n <= BRAID_MP_MAX_PATHS);
	for (unsigned int i = 0; i < wn.n; i++) {
		size_t len = strnlen(wn.e[i].name, BRAID_MP_WNAME_LEN);

		FZ_ASSERT(len > 0 && len < BRAID_MP_WNAME_LEN);
		FZ_ASSERT(!strchr(wn.e[i].name, ' ') && !strchr(wn.e[i].name, '='));
		FZ_ASSERT(wn.e[i].w <= BRAID_MP_WEIGHT_MAX);
		FZ_ASSERT(braid_mp_wnames_get(&wn, wn.e[i].name) == wn.e[i].w);
		for (unsigned int j = 0; j < i; j++)
			FZ_ASSERT(strcmp(wn.e[i].name, wn.e[j].name));
		sum += wn.e[i].w;
	}
	FZ_ASSERT(sum > 0);
	FZ_ASSERT(braid_mp_wnames_format(&wn, out, sizeof(out)) == 0);
	FZ_ASSERT(braid_mp_wnames_parse(out, &back) == 1);
	FZ_ASSERT(back.n == wn.n);
	for (unsigned int i = 0; i < wn.n; i++)
		FZ_ASSERT(!strcmp(back.e[i].name, wn.e[i].name) && back.e[i].w == wn.e[i].w);
	FZ_ASSERT(braid_mp_wnames_put(&back, wn.e[0].name, 7) == 0 && back.n == wn.n);
	FZ_ASSERT(braid_mp_wnames_get(&back, wn.e[0].name) == 7);
	return 0;
}
