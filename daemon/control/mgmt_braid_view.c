// SPDX-License-Identifier: GPL-2.0-only
/*
 * mgmt_braid_view.c - what the braid extension shows, gathered from the role
 * (see mgmt_braid_view.h): its own data path's table, a single-path session,
 * or every gateway client's.
 */
#include "control/mgmt_braid_view.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dataplane/backend.h"
#include "mp/mp.h"
#include "mp/mp_wnames.h"

#define CLIENTS_MAX 4096		/* clients listed at most */

void mgmt_bview_free(struct mgmt_bview *v)
{
	free(v->p);
	free(v->c);
	memset(v, 0, sizeof(*v));
}

static int bview_push(struct mgmt_bview *v, int *cap, const struct mgmt_bpath *p)
{
	if (v->n == *cap) {
		int nc = *cap ? *cap * 2 : 16;
		struct mgmt_bpath *np = realloc(v->p, (size_t)nc * sizeof(*np));

		if (!np)
			return -ENOMEM;
		v->p = np;
		*cap = nc;
	}
	v->p[v->n++] = *p;
	return 0;
}

/* The slot the ratio scheduler knows path p by: its own, or (a learned path) the peer's; -1 none. */
int mgmt_bview_slot(const struct braid_mpath_path_info *p)
{
	int s = p->mp.slot >= 0 ? p->mp.slot : p->mp.peer_slot;

	return s < BRAID_MP_MAX_PATHS ? s : -1;
}

/* The ratio weights of the scheduler now (n 0: not `ratio`). */
void mgmt_bview_weights(struct braid_dp *dp, uint32_t *ratio, unsigned *n)
{
	enum braid_mp_sched s;

	*n = 0;
	if (braid_mp_sched_parse(braid_dp_sched_name(dp), &s, ratio, n) || s != BRAID_MP_SCHED_RATIO)
		*n = 0;
}

/* Whether the scheduler is ratio by name ("ratio wlan0=3 lte0=1"); its weights into wn if given. */
bool mgmt_bview_named(struct braid_dp *dp, struct braid_mp_wnames *wn)
{
	struct braid_mp_wnames tmp;

	return braid_mp_wnames_parse(braid_dp_sched_name(dp), wn ? wn : &tmp) == 1;
}

/* A path's weight under ratio by name: its interface's, or -1 (none set: a spare). */
static long named_weight(const struct braid_mp_wnames *wn, const struct braid_mpath_path_info *p)
{
	uint32_t w = p->dev[0] ? braid_mp_wnames_get(wn, p->dev) : BRAID_MP_WEIGHT_NONE;

	return w <= BRAID_MP_WEIGHT_MAX ? (long)w : -1;
}

static int add_dp(struct mgmt_bview *v, int *cap, struct braid_dp *dp, long cid)
{
	struct braid_mpath_path_info pi[BRAID_MP_MAX_PATHS];
	uint32_t ratio[BRAID_MP_MAX_PATHS];
	unsigned nr;
	uint64_t sum = 0;
	int n = braid_dp_paths(dp, pi, BRAID_MP_MAX_PATHS), r = 0;

	struct braid_mp_wnames wn;
	bool named = mgmt_bview_named(dp, &wn);

	mgmt_bview_weights(dp, ratio, &nr);
	if (n > BRAID_MP_MAX_PATHS)
		n = BRAID_MP_MAX_PATHS;
	for (int i = 0; i < n; i++)
		sum += pi[i].iv_tx_bps;
	for (int i = 0; i < n && !r; i++) {
		struct mgmt_bpath b;
		int slot = mgmt_bview_slot(&pi[i]);

		mgmt_bpath_from_info(&b, cid, &pi[i], sum,
				     named ? named_weight(&wn, &pi[i]) :
				     nr && slot >= 0 && (unsigned)slot < nr ? (long)ratio[slot] : -1);
		r = bview_push(v, cap, &b);
	}
	return r;
}

/* The gateway's clients into v->c. */
int mgmt_bview_clients(struct braid_mgmt *m, struct mgmt_bview *v)
{
	int max = 64, n;

	for (;;) {
		struct braid_mgmt_client *c = realloc(v->c, (size_t)max * sizeof(*c));

		if (!c)
			return -ENOMEM;
		v->c = c;
		n = m->ops.braid_clients(m->ops.user, v->c, max);
		if (n <= max || max >= CLIENTS_MAX)
			break;
		max = n < CLIENTS_MAX ? n : CLIENTS_MAX;
	}
	v->nc = n < max ? n : max;
	return 0;
}

/* Collect: cid -1: every client (a gateway) or the role's own paths; else that client's. */
int mgmt_bview_collect(struct braid_mgmt *m, long cid, struct mgmt_bview *v)
{
	int cap = 0, r = 0;

	memset(v, 0, sizeof(*v));
	if (m->ops.braid_clients) {
		r = mgmt_bview_clients(m, v);
		for (int i = 0; i < v->nc && !r; i++) {
			const struct braid_mgmt_client *c = &v->c[i];
			struct mgmt_bpath b;

			if (cid >= 0 && c->cid != (unsigned long)cid)
				continue;
			if (c->dp) {
				r = add_dp(v, &cap, c->dp, (long)c->cid);
			} else {
				mgmt_bpath_from_client(&b, c);
				r = bview_push(v, &cap, &b);
			}
		}
	} else if (m->ops.braid_dp) {
		struct braid_dp *dp = m->ops.braid_dp(m->ops.user);
		struct braid_mgmt_client one;
		struct mgmt_bpath b;

		if (dp) {
			r = add_dp(v, &cap, dp, -1);
		} else if (m->ops.braid_single && !m->ops.braid_single(m->ops.user, &one)) {
			mgmt_bpath_from_client(&b, &one);
			b.cid = -1;
			r = bview_push(v, &cap, &b);
		}
	}
	if (r)
		mgmt_bview_free(v);
	return r;
}
