// SPDX-License-Identifier: GPL-2.0-only
/*
 * mp_queue.c - the engine's queues: small index rings, the transmit
 * packet slots (a ref held until released), the control-message queue and
 * putting a packet on a path's queue, or on another path when its own died.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mp_int.h"
#include "mp_mem.h"
#include "mp_queue.h"
#include "mp_sched.h"

int mp_ring_init(struct mp_ring *r, uint32_t cap)
{
	r->v = mp_zalloc(cap, sizeof(*r->v));
	r->cap = cap;
	r->head = r->n = 0;
	return r->v ? 0 : -ENOMEM;
}

void mp_ring_fini(struct mp_ring *r)
{
	mp_zfree(r->v, r->cap, sizeof(*r->v));
	r->v = NULL;
}

void mp_ring_push(struct mp_ring *r, uint32_t v)
{
	r->v[(r->head + r->n) & (r->cap - 1)] = v;
	r->n++;
}

uint32_t mp_ring_pop(struct mp_ring *r)
{
	uint32_t v = r->v[r->head];

	r->head = (r->head + 1) & (r->cap - 1);
	r->n--;
	return v;
}

struct mp_sent *mp_sent_at(struct mp_path *p, uint32_t cap, uint32_t i)
{
	return &p->sent[(p->sent_head + i) & (cap - 1)];
}

void mp_slot_put(struct braid_mp *mp, uint32_t idx, enum braid_mp_release why)
{
	struct mp_slot *s = &mp->slots[idx];

	if (--s->refs)
		return;
	mp->cfg.tx_release(mp->cfg.user, s->ref, why);
	s->ref = NULL;
	mp->free_slots[mp->nfree++] = idx;
}

struct mp_ctl *mp_ctl_new(struct braid_mp *mp, int path)
{
	struct mp_ctl *c;

	if (mp->ctl_n == MP_CTLQ)
		return NULL;	/* bounded; a lost probe/report is harmless */
	c = &mp->ctl[(mp->ctl_head + mp->ctl_n) % MP_CTLQ];
	c->path = path;
	c->len = 0;
	c->rx_us = 0;
	mp->ctl_n++;
	return c;
}

void mp_ctl_send(struct braid_mp *mp, int path, const struct braid_mp_msg *m, uint64_t rx_us)
{
	struct mp_ctl *c = mp_ctl_new(mp, path);
	int n;

	if (!c)
		return;
	n = braid_mp_msg_encode(m, c->buf, sizeof(c->buf));
	if (n < 0) {
		mp->ctl_n--;
		return;
	}
	c->len = (uint32_t)n;
	c->rx_us = rx_us;
}

static int is_prio(const struct braid_mp *mp, const struct mp_slot *s, uint32_t resend_bit)
{
	return (resend_bit && mp->cfg.arq) ||
	       (mp->cfg.latency_classes && (s->meta & BRAID_MP_META_CLASS) != BRAID_MP_CLASS_BULK);
}

void mp_enqueue_on(struct braid_mp *mp, int i, uint32_t idx, uint32_t resend_bit)
{
	struct mp_path *p = &mp->path[i];

	mp->slots[idx].refs++;
	if (is_prio(mp, &mp->slots[idx], resend_bit)) {
		mp_ring_push(&p->pq, idx | resend_bit);
		p->pq_bytes += mp->slots[idx].len;
	} else {
		mp_ring_push(&p->q, idx | resend_bit);
	}
	p->q_bytes += mp->slots[idx].len;
	mp_sched_charge(mp, i, mp->slots[idx].len);
}

/* Move a packet (slot idx) that was bound to a dead path to a live one. */
void mp_reschedule(struct braid_mp *mp, uint64_t now, uint32_t idx, uint32_t resend_bit)
{
	struct mp_slot *s = &mp->slots[idx];
	uint32_t mask;

	if (mp->cfg.sched == BRAID_MP_SCHED_REDUNDANT || mp_sched_copy_elsewhere(mp, idx)) {
		mp_slot_put(mp, idx, BRAID_MP_REL_DONE);	/* copies are on the others */
		return;
	}
	mask = mp_sched_pick(mp, now, s->len, BRAID_MP_CLASS_BULK);
	if (!mask) {
		mp_slot_put(mp, idx, BRAID_MP_REL_NOPATH);
		return;
	}
	s->enq_us = now;
	/* The failed path's backlog lands at once; it is not a standing
	 * queue the inner flows should be punished for. */
	mp->path[__builtin_ctz(mask)].aqm_off = 1;
	mp_enqueue_on(mp, __builtin_ctz(mask), idx, resend_bit);
	mp_slot_put(mp, idx, BRAID_MP_REL_DONE);	/* the dead path's reference */
}
