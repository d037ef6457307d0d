// SPDX-License-Identifier: GPL-2.0-only
/*
 * mp_trim.c - braid_mp_trim (mp.h): arrays whose content no longer matters
 * read as zeroes again and return their pages (mp_mem.h). An engine's reorder
 * arrays are indexed by packet-id and its rings advance with every packet, so
 * an idle client would otherwise keep every page it ever touched (~0.5 MB at
 * the gateway's bounds).
 */
#include "mp.h"
#include "mp_int.h"
#include "mp_mem.h"
#include "mp_reorder.h"

/* Nothing held, nothing to poll, no packet-id above the next one seen: every
 * slot describes a packet-id below `next` (those are in `bits`, kept), the
 * ready ring is empty and what is left in the arrival FIFO is stale (it lists
 * held packets only; fifo_peek drops such entries lazily: here all at once).
 * Zeroed slots are RO_EMPTY. */
static void trim_reorder(struct mp_reorder *r)
{
	if (!r->slot || r->ready_n || r->st.held || r->next != r->hi)
		return;
	r->fifo_head = 0;
	r->fifo_n = 0;
	mp_zdrop(r->slot, r->win, sizeof(*r->slot));
	mp_zdrop(r->fifo, r->win, sizeof(*r->fifo));
	mp_zdrop(r->ready, r->ready_cap, sizeof(*r->ready));
}

void braid_mp_trim(struct braid_mp *mp)
{
	int i;

	if (!mp)
		return;
	trim_reorder(&mp->ro);
	/* the control queue (64 x ~1 KB, used round the ring): its entries matter only while queued */
	if (!mp->ctl_n) {
		mp->ctl_head = 0;
		mp_zdrop_range(mp->ctl, mp->ctl + MP_CTLQ);
	}
	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		struct mp_path *p = &mp->path[i];

		if (!p->sent_n)
			mp_zdrop(p->sent, mp->cfg.retain_pkts, sizeof(*p->sent));
		if (!p->q.n)
			mp_zdrop(p->q.v, p->q.cap, sizeof(*p->q.v));
		if (!p->pq.n)
			mp_zdrop(p->pq.v, p->pq.cap, sizeof(*p->pq.v));
	}
}
