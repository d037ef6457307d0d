// SPDX-License-Identifier: GPL-2.0-only
/*
 * mpath_weight.c - ratio weights that follow the path's name, not its engine
 * index (docs/braidd.md "mp-scheduler"): `mp-scheduler ratio wlan0=3 lte0=1`
 * or braid_mpath_set_weight(). A path's name is its interface (mp-path
 * IFNAME, an interface mp-path auto found, the interface holding a numeric
 * mp-path address) or the numeric mp-path LOCAL as written. The weight is
 * given again whenever a path is added (an auto interface back, an engine
 * restart), so the order of mp-path lines, the order interfaces appear in
 * and re-binds after address changes do not move it.
 */
#include "dataplane/mpath_weight.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mp/mp_wnames.h"

const char *mpath_weight_name(const struct braid_mpath *m, int i)
{
	const struct msock *s = &m->sock[m->ep[i].sock];

	if (s->wildcard || s->shared)
		return NULL;
	if (s->kind == BRAID_MP_LOCAL_ADDR)
		return s->cfg_local;
	return s->ifname[0] ? s->ifname : NULL;
}

/* The weight of path i by name: its name, else (numeric LOCAL) the interface holding it. */
static uint32_t weight_of(const struct braid_mpath *m, int i)
{
	const struct msock *s = &m->sock[m->ep[i].sock];
	const char *n = mpath_weight_name(m, i);
	uint32_t w = n ? braid_mp_wnames_get(&m->wn, n) : BRAID_MP_WEIGHT_NONE;

	if (w == BRAID_MP_WEIGHT_NONE && n && s->kind == BRAID_MP_LOCAL_ADDR && s->ifname[0])
		w = braid_mp_wnames_get(&m->wn, s->ifname);
	/* named form: a path not listed carries data only when no path with a weight
	 * can; positional form: it keeps its slot's weight */
	return w == BRAID_MP_WEIGHT_NONE && m->wn_named ? BRAID_MP_WEIGHT_SPARE : w;
}

void mpath_weight_apply(struct braid_mpath *m, int i)
{
	uint32_t w;

	if (!m->mp || !m->ep[i].used)
		return;
	w = weight_of(m, i);
	if (w == BRAID_MP_WEIGHT_NONE && !m->ep[i].weight_set)
		return;
	braid_mp_path_set_weight(m->mp, i, w);
	m->ep[i].weight_set = w != BRAID_MP_WEIGHT_NONE;
}

static void apply_all(struct braid_mpath *m)
{
	for (int i = 0; i < MAX_EPS; i++)
		mpath_weight_apply(m, i);
}

int mpath_weight_sched(struct braid_mpath *m, const char *spec)
{
	uint32_t ratio[BRAID_MP_MAX_PATHS];
	struct braid_mp_wnames wn;
	enum braid_mp_sched s;
	unsigned int n = 0;
	bool named;
	int r;

	r = braid_mp_wnames_parse(spec, &wn);
	if (r < 0)
		return r;
	named = r == 1;
	if (named) {
		s = BRAID_MP_SCHED_RATIO;
	} else {
		if (braid_mp_sched_parse(spec, &s, ratio, &n))
			return -EINVAL;
		memset(&wn, 0, sizeof(wn));
	}
	if (m->mp) {
		r = braid_mp_set_sched(m->mp, s, ratio, n);
		if (r)
			return r;
	}
	m->sched = s;
	m->wn = wn;
	m->wn_named = named;
	apply_all(m);
	return 0;
}

int mpath_weight_set(struct braid_mpath *m, const char *path, uint32_t weight)
{
	char *end;
	long idx;
	int r;

	if (!path || !*path || weight > BRAID_MP_WEIGHT_MAX)
		return -EINVAL;
	idx = strtol(path, &end, 10);
	if (!*end) {	/* a path number: that engine path, until it is re-added */
		if (idx < 0 || idx >= MAX_EPS || !m->ep[idx].used || !m->mp)
			return -ENOENT;
		return braid_mp_path_set_weight(m->mp, (int)idx, weight);
	}
	r = braid_mp_wnames_put(&m->wn, path, weight);
	if (r)
		return r;
	if (m->wn_named && braid_mp_wnames_format(&m->wn, m->sched_name, sizeof(m->sched_name)))
		snprintf(m->sched_name, sizeof(m->sched_name), "ratio (by name)");
	apply_all(m);
	return 0;
}
