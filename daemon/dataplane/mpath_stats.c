// SPDX-License-Identifier: GPL-2.0-only
/*
 * mpath_stats.c - the per-path numbers of the multipath data plane
 * (mpath_stats.h).
 *
 * Totals: a path's counters live in two places, the engine's (data packets,
 * losses; gone with braid_mp_path_del and with a restart of the engine) and
 * the struct ep's (datagrams as sent and received; gone when the path is
 * removed). When a path goes, its totals are kept in a retired record keyed
 * by (socket, peer address; an auto socket also by its interface, whose
 * slot may later hold another one) and by the peer's slot (the peer's mp-path
 * line, docs/multipath.md §4). A later path with the same address (a path
 * re-learned after mp-path-timeout, the configured paths after a restart)
 * or the same peer slot (a client path that came back from a new address)
 * starts from those totals; a live path of the same peer slot takes them at
 * once. So the numbers a user reads never go backwards while the session
 * lives.
 *
 * Interval: the housekeeping tick (BRAID_MPATH_IV_S) closes an interval per
 * path; the last closed one gives the throughput (wire bytes both ways), the
 * share of the tunnel's data (bytes sent and received), the loss of the data
 * sent, and whether the
 * RTT is fresh (something was received in it and the path is not failed or
 * probing).
 */
#include "dataplane/mpath_stats.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "dataplane/mpath_types.h"

/* The shortest interval closed: half the tick (rates over a few ms would be noise). */
#define IV_MIN_US ((uint64_t)(BRAID_MPATH_IV_S * 500000.0))

/* The totals of path i now: the engine's and the socket side's, plus what it carries. */
static void live(const struct braid_mpath *m, int i, struct mpath_ctr *c,
		 struct braid_mp_path_stats *ps)
{
	const struct ep *e = &m->ep[i];
	struct braid_mp_path_stats tmp;

	if (!ps)
		ps = &tmp;
	if (braid_mp_path_stats(m->mp, i, ps))
		memset(ps, 0, sizeof(*ps));
	*c = e->base;
	c->tx_pkts += ps->tx_pkts;
	c->tx_bytes += ps->tx_bytes;
	c->rx_pkts += ps->rx_pkts;
	c->rx_bytes += ps->rx_bytes;
	c->lost_pkts += ps->lost_pkts;
	c->wire_tx_pkts += e->tx_pkts;
	c->wire_tx_bytes += e->tx_bytes;
	c->wire_rx_pkts += e->rx_pkts;
	c->wire_rx_bytes += e->rx_bytes;
	c->tx_errors += e->tx_errors;
}

static void ctr_add(struct mpath_ctr *a, const struct mpath_ctr *b)
{
	a->tx_pkts += b->tx_pkts;
	a->tx_bytes += b->tx_bytes;
	a->rx_pkts += b->rx_pkts;
	a->rx_bytes += b->rx_bytes;
	a->lost_pkts += b->lost_pkts;
	a->wire_tx_pkts += b->wire_tx_pkts;
	a->wire_tx_bytes += b->wire_tx_bytes;
	a->wire_rx_pkts += b->wire_rx_pkts;
	a->wire_rx_bytes += b->wire_rx_bytes;
	a->tx_errors += b->tx_errors;
}

/* b - a, field by field (never below 0). */
static void ctr_delta(struct mpath_ctr *d, const struct mpath_ctr *b, const struct mpath_ctr *a)
{
#define D(f) d->f = b->f > a->f ? b->f - a->f : 0
	D(tx_pkts); D(tx_bytes); D(rx_pkts); D(rx_bytes); D(lost_pkts);
	D(wire_tx_pkts); D(wire_tx_bytes); D(wire_rx_pkts); D(wire_rx_bytes); D(tx_errors);
#undef D
}

/* A predecessor's totals join path i (its interval start too, so its rates do not jump). */
/* Is r of path i's socket? (An auto socket's slot may have gone to another interface.) */
static bool same_sock(const struct braid_mpath *m, const struct mpath_retired *r, int i)
{
	const struct msock *s = &m->sock[m->ep[i].sock];

	return r->sock == m->ep[i].sock &&
	       (s->kind != BRAID_MP_LOCAL_AUTO || !strcmp(r->ifname, s->ifname));
}

static void take(struct braid_mpath *m, int i, struct mpath_retired *r)
{
	ctr_add(&m->ep[i].base, &r->c);
	ctr_add(&m->ep[i].iv_prev, &r->c);
	r->used = false;
}

void mpath_stats_retire(struct braid_mpath *m, int i)
{
	struct braid_mp_path_stats ps;
	struct mpath_retired *r = NULL;
	struct mpath_ctr c;
	int slot;

	live(m, i, &c, &ps);
	slot = ps.peer_slot;
	/* a live path of the same peer slot (the peer's path from its new address) */
	for (int j = 0; slot >= 0 && j < MAX_EPS; j++) {
		struct braid_mp_path_stats pj;

		if (j == i || !m->ep[j].used || m->ep[j].sock != m->ep[i].sock ||
		    braid_mp_path_stats(m->mp, j, &pj) || pj.peer_slot != slot)
			continue;
		ctr_add(&m->ep[j].base, &c);
		ctr_add(&m->ep[j].iv_prev, &c);
		return;
	}
	for (int k = 0; k < MAX_EPS; k++) {
		struct mpath_retired *x = &m->retired[k];

		if (x->used && same_sock(m, x, i) &&
		    ((slot >= 0 && x->peer_slot == slot) ||
		     braid_sockaddr_equal(&x->peer, &m->ep[i].peer))) {
			r = x;
			break;
		}
	}
	if (!r) {
		/* a free record, else the oldest one */
		r = &m->retired[0];
		for (int k = 0; k < MAX_EPS && r->used; k++)
			if (!m->retired[k].used || m->retired[k].seq < r->seq)
				r = &m->retired[k];
		memset(r, 0, sizeof(*r));
		r->used = true;
		r->sock = m->ep[i].sock;
		snprintf(r->ifname, sizeof(r->ifname), "%s", m->sock[r->sock].ifname);
		r->peer_slot = -1;
	}
	r->peer = m->ep[i].peer;
	if (slot >= 0)
		r->peer_slot = slot;
	r->seq = ++m->retired_seq;
	ctr_add(&r->c, &c);
}

void mpath_stats_retire_all(struct braid_mpath *m)
{
	for (int i = 0; i < MAX_EPS; i++)
		if (m->ep[i].used)
			mpath_stats_retire(m, i);
}

void mpath_stats_adopt(struct braid_mpath *m, int i, uint64_t now)
{
	struct ep *e = &m->ep[i];

	e->iv_t0 = now;
	for (int k = 0; k < MAX_EPS; k++) {
		struct mpath_retired *r = &m->retired[k];

		if (r->used && same_sock(m, r, i) && braid_sockaddr_equal(&r->peer, &e->peer)) {
			take(m, i, r);
			e->adopted_slot = r->peer_slot >= 0;
			return;
		}
	}
}

void mpath_stats_tick(struct braid_mpath *m, uint64_t now)
{
	for (int i = 0; i < MAX_EPS; i++) {
		struct ep *e = &m->ep[i];
		struct braid_mp_path_stats ps;
		struct mpath_ctr c;

		if (!e->used)
			continue;
		live(m, i, &c, &ps);
		if (!e->adopted_slot && ps.peer_slot >= 0) {
			e->adopted_slot = true;
			for (int k = 0; k < MAX_EPS; k++) {
				struct mpath_retired *r = &m->retired[k];

				if (r->used && same_sock(m, r, i) && r->peer_slot == ps.peer_slot) {
					take(m, i, r);
					ctr_add(&c, &r->c);
					break;
				}
			}
		}
		/* a late timer fires again at once (libev): keep counting into this interval */
		if (now - e->iv_t0 < IV_MIN_US)
			continue;
		ctr_delta(&e->iv, &c, &e->iv_prev);
		e->iv_prev = c;
		e->iv_dt = now > e->iv_t0 ? now - e->iv_t0 : 0;
		e->iv_t0 = now;
	}
}

void mpath_stats_fill(const struct braid_mpath *m, int i, struct braid_mpath_path_info *p,
		      uint64_t now)
{
	const struct ep *e = &m->ep[i];
	struct mpath_ctr c;
	uint64_t total = 0;
	bool failing = p->mp.state == BRAID_MP_PATH_FAILED || p->mp.state == BRAID_MP_PATH_PROBING;

	live(m, i, &c, NULL);
	p->mp.tx_pkts = c.tx_pkts;
	p->mp.tx_bytes = c.tx_bytes;
	p->mp.rx_pkts = c.rx_pkts;
	p->mp.rx_bytes = c.rx_bytes;
	p->mp.lost_pkts = c.lost_pkts;
	p->wire_tx_pkts = c.wire_tx_pkts;
	p->wire_tx_bytes = c.wire_tx_bytes;
	p->wire_rx_pkts = c.wire_rx_pkts;
	p->wire_rx_bytes = c.wire_rx_bytes;
	p->tx_errors = c.tx_errors;
	p->last_rx_ms = !e->last_rx_us ? -1 :
		now > e->last_rx_us ? (int64_t)((now - e->last_rx_us) / 1000u) : 0;
	p->iv_loss_pm = -1;
	if (!e->iv_dt)
		return;	/* no interval closed yet */
	for (int j = 0; j < MAX_EPS; j++)
		if (m->ep[j].used && m->ep[j].iv_dt)
			total += m->ep[j].iv.tx_bytes + m->ep[j].iv.rx_bytes;
	p->iv_s = (double)e->iv_dt / 1e6;
	p->iv_tx_bps = e->iv.wire_tx_bytes * 8u * 1000000u / e->iv_dt;
	p->iv_rx_bps = e->iv.wire_rx_bytes * 8u * 1000000u / e->iv_dt;
	p->iv_share_pm = total ? (uint32_t)((e->iv.tx_bytes + e->iv.rx_bytes) * 1000u / total) : 0;
	if (e->iv.tx_pkts)
		p->iv_loss_pm = (int32_t)(e->iv.lost_pkts >= e->iv.tx_pkts ? 1000 :
					  e->iv.lost_pkts * 1000u / e->iv.tx_pkts);
	/* (an arrival stamp may be a little ahead of now: the kernel's clock) */
	p->rtt_fresh = !failing && p->mp.srtt_us && e->last_rx_us &&
		       (now <= e->last_rx_us || now - e->last_rx_us <= e->iv_dt + 1000000u);
}
