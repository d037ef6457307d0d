// SPDX-License-Identifier: GPL-2.0-only
/*
 * mp_tx.c - the transmit side: braid_mp_enqueue (choose the path(s) at
 * once), braid_mp_poll_tx (control messages first, then paced data with
 * AQM) and the record of sent packets that REPORTs acknowledge.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mp.h"
#include "mp_int.h"
#include "mp_path.h"
#include "mp_probe.h"
#include "mp_queue.h"
#include "mp_sched.h"
#include "mp_timer.h"
#include "mp_tx.h"

int braid_mp_enqueue(struct braid_mp *mp, uint64_t now, void *ref, uint32_t len,
		     unsigned int meta, uint64_t pid)
{
	uint32_t mask, idx;
	struct mp_slot *s;
	int i;

	mask = mp_sched_pick(mp, now, len, meta);
	if (!mask) {
		mp->st.enq_nopath++;
		return -ENETUNREACH;
	}
	if ((mp->cfg.sched == BRAID_MP_SCHED_REDUNDANT || (meta & BRAID_MP_META_REDUNDANT)) &&
	    __builtin_popcount(mask) > 1) {
		/* a copy for every path, but none into a queue over its budget */
		mask = mp_sched_redundant_fit(mp, mask, len,
					      mp->cfg.latency_classes &&
					      (meta & BRAID_MP_META_CLASS) != BRAID_MP_CLASS_BULK);
		if (!mask) {
			mp->st.enq_nobufs++;
			return -ENOBUFS;
		}
	}
	if (mp->nfree < (uint32_t)__builtin_popcount(mask)) {
		mp->st.enq_nobufs++;
		return -ENOBUFS;
	}
	if (mp->cfg.queue_limit_us && __builtin_popcount(mask) == 1 &&
	    (meta & BRAID_MP_META_CLASS) == BRAID_MP_CLASS_BULK) {
		struct mp_path *p = &mp->path[__builtin_ctz(mask)];

		if (!p->aqm_off &&
		    (p->q_bytes + len) * 8000000ULL / mp_est_ref_rate(&p->est, p->cap_bps) >
		    mp->cfg.queue_limit_us + mp_sched_free_delay(mp, __builtin_ctz(mask))) {
			mp->st.enq_nobufs++;
			return -ENOBUFS;
		}
	}
	idx = mp->free_slots[--mp->nfree];
	s = &mp->slots[idx];
	s->ref = ref;
	s->len = len;
	s->pid = pid;
	s->meta = (uint8_t)meta;
	s->enq_us = now;
	s->sent = 0;
	s->refs = 1;	/* held across the loop */
	for (i = 0; i < BRAID_MP_MAX_PATHS; i++)
		if (mask & (1u << i))
			mp_enqueue_on(mp, i, idx, 0);
	mp->st.enq_pkts++;
	if ((meta & BRAID_MP_META_REDUNDANT) && mp->cfg.sched != BRAID_MP_SCHED_REDUNDANT)
		mp->st.class_copies += (uint64_t)__builtin_popcount(mask) - 1;
	mp_slot_put(mp, idx, BRAID_MP_REL_DONE);
	return 0;
}

static void sent_push(struct braid_mp *mp, struct mp_path *p, uint32_t idx, uint64_t now)
{
	uint32_t cap = mp->cfg.retain_pkts;
	struct mp_sent *r;

	if (p->sent_n == cap) {	/* retention full: forget the oldest */
		r = mp_sent_at(p, cap, 0);
		p->sent_head = (p->sent_head + 1) & (cap - 1);
		p->sent_n--;
		mp_slot_put(mp, r->slot, BRAID_MP_REL_DONE);
	}
	r = mp_sent_at(p, cap, p->sent_n);
	r->pid = mp->slots[idx].pid;
	r->tx_us = now;
	r->slot = idx;
	r->len = mp->slots[idx].len;
	r->al = p->q.n == 0 && p->pq.n == 0;
	p->sent_n++;
}

static int pop_ctl(struct braid_mp *mp, uint64_t now, struct braid_mp_tx *out)
{
	struct mp_ctl *c = &mp->ctl[mp->ctl_head];

	mp->ctl_head = (mp->ctl_head + 1) % MP_CTLQ;
	mp->ctl_n--;
	mp->ctl_out_mtu = -1;
	mp->ctl_out_path = c->path;
	mp->ctl_out_us = now;
	if (c->buf[BRAID_MP_MAGIC_LEN] == BRAID_MP_MSG_MTU_PROBE) {
		/* queued as its header only: the zero padding is added here */
		memcpy(mp->ctl_out, c->buf, BRAID_MP_MTU_HDR_LEN);
		memset(mp->ctl_out + BRAID_MP_MTU_HDR_LEN, 0, c->len - BRAID_MP_MTU_HDR_LEN);
		mp->ctl_out_mtu = c->path;
	} else {
		memcpy(mp->ctl_out, c->buf, c->len);
	}
	if (c->rx_us && mp->ctl_out[BRAID_MP_MAGIC_LEN] == BRAID_MP_MSG_PROBE_ECHO) {
		uint64_t hold = now - c->rx_us;
		uint8_t *h = mp->ctl_out + BRAID_MP_HDR_LEN + 16;

		h[0] = (uint8_t)(hold >> 24);
		h[1] = (uint8_t)(hold >> 16);
		h[2] = (uint8_t)(hold >> 8);
		h[3] = (uint8_t)hold;
	}
	/* Control bytes use the path's capacity too: charge them to a
	 * backlogged path's pacing, or a path paced at its bottleneck rate
	 * builds a standing queue there. */
	if (!mp->cfg.no_pacing && mp_usable(&mp->path[c->path]) &&
	    mp->path[c->path].q.n + mp->path[c->path].pq.n) {
		struct mp_path *p = &mp->path[c->path];

		if (p->next_tx + PACE_SLACK_US < now)
			p->next_tx = now - PACE_SLACK_US;
		p->next_tx += (uint64_t)c->len * 8000000ULL / mp_path_rate(mp, p);
	}
	memset(out, 0, sizeof(*out));
	out->kind = BRAID_MP_TX_CONTROL;
	out->path = c->path;
	out->ctl = mp->ctl_out;
	out->ctl_len = c->len;
	mp->st.ctl_sent++;
	return 1;
}

/*
 * CoDel target for the bulk queues: the configured one, but at least a
 * third of the largest path RTT in use. One inner TCP flow (CUBIC backs
 * off to 0.7) only keeps the tunnel full if the queue at its loss point
 * is a good part of its round trip; 5 ms is that only for short paths.
 * Latency classes do not wait in this queue (priority queue, no hold at
 * the receiver), so their delay does not grow with it.
 */
static uint32_t aqm_target(const struct braid_mp *mp)
{
	uint64_t t = mp->cfg.aqm_target_us, r;
	int i;

	for (i = 0; i < BRAID_MP_MAX_PATHS; i++)
		if (mp_usable(&mp->path[i]) && mp->path[i].est.have_rtt) {
			r = mp->path[i].est.min_rtt / 3;
			if (r > t)
				t = r;
		}
	return (uint32_t)(t < mp->cfg.aqm_interval_us / 2 ? t : mp->cfg.aqm_interval_us / 2);
}

int braid_mp_poll_tx(struct braid_mp *mp, uint64_t now, struct braid_mp_tx *out)
{
	mp_timer_run(mp, now);
	if (mp->ctl_n)
		return pop_ctl(mp, now, out);

	for (;;) {
		struct mp_path *p = NULL;
		struct mp_slot *s;
		uint32_t e, idx, k;
		uint64_t best = UINT64_MAX, rate, sojourn, free_us;
		int i, bi = -1, ce = 0, prio;

		for (k = 0; k < BRAID_MP_MAX_PATHS; k++) {
			i = (int)((mp->rr + k) % BRAID_MP_MAX_PATHS);
			if (!mp->path[i].used || !(mp->path[i].q.n + mp->path[i].pq.n) ||
			    !mp_usable(&mp->path[i]))
				continue;
			if (mp->path[i].next_tx <= now && mp->path[i].next_tx < best) {
				best = mp->path[i].next_tx;
				bi = i;
			}
		}
		if (bi < 0)
			return 0;
		mp->rr = (uint32_t)bi + 1;
		p = &mp->path[bi];
		prio = p->pq.n != 0;
		e = mp_ring_pop(prio ? &p->pq : &p->q);
		idx = e & ~MP_RESEND_BIT;
		s = &mp->slots[idx];
		p->q_bytes -= s->len;
		if (prio)
			p->pq_bytes -= s->len;
		/* CoDel judges the delay the tunnel adds: sojourn beyond what
		 * the slowest path in use costs anyway. */
		sojourn = now - s->enq_us;
		free_us = mp->cfg.aqm_target_us ? mp_sched_free_delay(mp, bi) : 0;
		sojourn = sojourn > free_us ? sojourn - free_us : 0;
		if (!p->q.n && !p->pq.n)
			p->aqm_off = 0;
		/* redundant (scheduler or class): on a path slower than the
		 * fastest, a copy another path still holds is not judged (the
		 * delay budget at enqueue bounds that queue, docs/multipath.md §4) */
		if (mp->cfg.aqm_target_us && !p->aqm_off && !prio && !(e & MP_RESEND_BIT) &&
		    !s->sent && !(mp_sched_copy_elsewhere(mp, idx) && !mp_sched_fastest(mp, bi)) &&
		    mp_codel_judge(&p->codel, now, sojourn, p->q_bytes,
				   aqm_target(mp), mp->cfg.aqm_interval_us, mp->cfg.mtu)) {
			if (s->meta & BRAID_MP_META_ECT) {
				ce = 1;
				p->c.aqm_marks++;
				mp->st.aqm_marks++;
			} else {
				/* tell the receiver not to wait for this id */
				struct braid_mp_msg m;
				int cp = mp_best_ctl_path(mp);

				p->c.aqm_drops++;
				mp->st.aqm_drops++;
				/* a redundant copy another path still holds: the
				 * receiver gets that one, no SKIP */
				if (cp >= 0 && !mp_sched_copy_elsewhere(mp, idx)) {
					memset(&m, 0, sizeof(m));
					m.type = BRAID_MP_MSG_SKIP;
					m.path_id = (uint32_t)bi;
					m.u.skip_pid = s->pid;
					mp_ctl_send(mp, cp, &m, 0);
				}
				mp_slot_put(mp, idx, BRAID_MP_REL_AQM);
				continue;
			}
		}
		/* Idle for a while: the estimate is old and the traffic that
		 * starts now (a new download) needs the path's rate at once,
		 * not after probe cycles. Startup again, from bw. */
		if (p->last_data_tx && now - p->last_data_tx > mp_probe_restart_idle(p))
			mp_est_restart(&p->est, now);
		rate = mp_path_rate(mp, p);
		if (!mp->cfg.no_pacing) {
			if (p->next_tx + PACE_SLACK_US < now)
				p->next_tx = now - PACE_SLACK_US;
			p->next_tx += (uint64_t)s->len * 8000000ULL / rate;
		}
		sent_push(mp, p, idx, now);	/* the queue's reference moves here */
		memset(out, 0, sizeof(*out));
		out->kind = BRAID_MP_TX_DATA;
		out->path = bi;
		out->ref = s->ref;
		out->len = s->len;
		out->pid = s->pid;
		out->resend = (e & MP_RESEND_BIT) || s->sent;
		out->ce = (uint8_t)ce;
		if (s->len > p->pmtu.mtu) {
			out->oversize = 1;
			p->mtu_oversize++;
			mp->st.tx_oversize++;
		}
		s->sent = 1;
		p->last_data_tx = now;
		mp->data_tx++;
		if (p->probe_next > now + mp_probe_interval(mp, p, now))
			p->probe_next = now + mp_probe_interval(mp, p, now);
		p->c.tx_pkts++;
		p->c.tx_bytes += s->len;
		return 1;
	}
}
