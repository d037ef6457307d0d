/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mp_wnames.h - ratio weights bound to path names ("ratio wlan0=3 lte0=1"):
 * the parser of that form of the scheduler spec and the small table it
 * fills. The data plane (dataplane/mpath_weight.c) gives each path the
 * weight of its name (interface, or the mp-path LOCAL as written) through
 * braid_mp_path_set_weight(); the engine knows no names.
 */
#ifndef BRAID_MP_WNAMES_H
#define BRAID_MP_WNAMES_H

#include <stdint.h>

#include "mp_types.h"

#define BRAID_MP_WNAME_LEN 48	/* an interface name or a numeric address, NUL included */

struct braid_mp_wname {
	char name[BRAID_MP_WNAME_LEN];
	uint32_t w;
};

struct braid_mp_wnames {
	unsigned int n;
	struct braid_mp_wname e[BRAID_MP_MAX_PATHS];
};

/*
 * spec "ratio NAME=W [NAME=W]..." (single spaces, W 0..BRAID_MP_WEIGHT_MAX,
 * names unique, at least one W > 0): 1 and *out filled. 0: spec is not of
 * this form (another scheduler, or positional "ratio 3:1"). -EINVAL: it is,
 * but malformed.
 */
int braid_mp_wnames_parse(const char *spec, struct braid_mp_wnames *out);
/* The weight of name, or BRAID_MP_WEIGHT_NONE if it is not listed. */
uint32_t braid_mp_wnames_get(const struct braid_mp_wnames *wn, const char *name);
/* Set (add or replace) name's weight. 0, -EINVAL (name), -ENOSPC (full). */
int braid_mp_wnames_put(struct braid_mp_wnames *wn, const char *name, uint32_t w);
/* Back to the spec form ("ratio a=3 b=1") in buf; 0 or -ENOSPC. */
int braid_mp_wnames_format(const struct braid_mp_wnames *wn, char *buf, unsigned long len);

#endif /* BRAID_MP_WNAMES_H */
