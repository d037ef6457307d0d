// SPDX-License-Identifier: GPL-2.0-only
/*
 * mp_sched.c - path schedulers: edf (default), rtt, ratio, mpip, lowest-rtt,
 * backup, redundant; plus the traffic-class override (small / ack / dns /
 * ef go on the path where they arrive first) and the per-packet redundant
 * flag (BRAID_MP_META_REDUNDANT: every path, as the redundant scheduler).
 *
 * Weighted schedulers (rtt, ratio, mpip) use stride scheduling by bytes: the
 * deterministic form of MPIP's weighted random choice, with the same shares.
 *
 * ratio and backup know paths by slot, not by engine index: the index of a
 * learned path is the order the paths were learned in (docs/multipath.md §6);
 * a path's own ratio weight (set by name in dataplane/mpath_weight.c)
 * overrides its slot's.
 */
#include <float.h>

#include "mp_int.h"
#include "mp_sched.h"

uint64_t mp_path_rate(const struct braid_mp *mp, const struct mp_path *p)
{
	(void)mp;
	return mp_est_pacing(&p->est, p->cap_bps);
}

uint32_t mp_sched_usable(const struct braid_mp *mp)
{
	uint32_t tier[3] = { 0, 0, 0 };
	int i;

	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		const struct mp_path *p = &mp->path[i];

		if (!mp_usable(p))
			continue;
		if (mp_backup(p))
			tier[2] |= 1u << i;
		else if (p->state == BRAID_MP_PATH_ACTIVE)
			tier[0] |= 1u << i;
		else
			tier[1] |= 1u << i;
	}
	return tier[0] ? tier[0] : tier[1] ? tier[1] : tier[2];
}

/* Relative one-way delay of path i: base OWD over the best path's base,
 * plus its current queuing delay; srtt/2 until OWD samples exist. */
double mp_sched_rel_delay(const struct braid_mp *mp, uint32_t mask, int i)
{
	const struct mp_path *p = &mp->path[i];
	int64_t best = INT64_MAX;
	uint64_t best_rtt = UINT64_MAX;
	int j, all_owd = 1;

	for (j = 0; j < BRAID_MP_MAX_PATHS; j++) {
		const struct mp_path *q = &mp->path[j];

		if (!(mask & (1u << j)))
			continue;
		if (!q->est.have_owd)
			all_owd = 0;
		else if (q->est.owd_min < best)
			best = q->est.owd_min;
		if (q->est.have_rtt && q->est.srtt < best_rtt)
			best_rtt = q->est.srtt;
	}
	if (all_owd && p->est.have_owd)
		return (double)(p->est.owd_min - best) + (double)p->est.qdelay;
	if (p->est.have_rtt && best_rtt != UINT64_MAX)
		return (double)(p->est.srtt - best_rtt) / 2.0;
	return 0.0;
}

static double predicted_arrival(const struct braid_mp *mp, uint64_t now, uint32_t mask, int i,
				uint32_t len, int prio)
{
	const struct mp_path *p = &mp->path[i];
	double rate = (double)mp_path_rate(mp, p);
	double start = (double)(p->next_tx > now ? p->next_tx : now);

	/* The packet leaves once the bytes queued before it are paced out; a
	 * path whose pacing slot is free takes it now. (Its own size is not
	 * charged at the pacing rate: that would starve a path in startup.)
	 * A priority packet only waits for the priority queue. */
	(void)len;
	return start + (double)(prio ? p->pq_bytes : p->q_bytes) * 8e6 / rate +
	       mp_sched_rel_delay(mp, mask, i);
}

static int pick_edf(const struct braid_mp *mp, uint64_t now, uint32_t mask, uint32_t len,
		    int prio)
{
	double best = DBL_MAX, t;
	int i, bi = -1;

	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		if (!(mask & (1u << i)))
			continue;
		t = predicted_arrival(mp, now, mask, i, len, prio);
		if (t < best) {
			best = t;
			bi = i;
		}
	}
	return bi;
}

unsigned int mp_sched_slot(const struct mp_path *p)
{
	return p->slot != BRAID_MP_SLOT_NONE ? p->slot : p->peer_slot;
}

/* ratio: the path's own weight (braid_mp_path_set_weight; a spare has 0
 * here), else its slot's; a path with neither gets 0 while a usable path has
 * a slot, and all get 1 when none has. */
static double ratio_weight1(const struct braid_mp *mp, int i)
{
	unsigned int s = mp_sched_slot(&mp->path[i]);
	int j;

	if (mp->path[i].has_weight)
		return mp->path[i].weight == BRAID_MP_WEIGHT_SPARE ? 0.0 : (double)mp->path[i].weight;
	if (s != BRAID_MP_SLOT_NONE)
		return s < BRAID_MP_MAX_PATHS ? (double)mp->cfg.ratio[s] : 0.0;
	for (j = 0; j < BRAID_MP_MAX_PATHS; j++)
		if (mp_usable(&mp->path[j]) && mp_sched_slot(&mp->path[j]) != BRAID_MP_SLOT_NONE)
			return 0.0;
	return 1.0;
}

/* ... and a spare (BRAID_MP_WEIGHT_SPARE) gets 1 while no other usable path
 * has a weight above 0. */
static double ratio_weight(const struct braid_mp *mp, int i)
{
	if (!mp->path[i].has_weight || mp->path[i].weight != BRAID_MP_WEIGHT_SPARE)
		return ratio_weight1(mp, i);
	for (int j = 0; j < BRAID_MP_MAX_PATHS; j++)
		if (j != i && mp_usable(&mp->path[j]) && ratio_weight1(mp, j) > 0.0)
			return 0.0;
	return 1.0;
}

void mp_sched_reweigh(struct braid_mp *mp)
{
	int i;

	for (i = 0; i < BRAID_MP_MAX_PATHS; i++)
		mp->path[i].vt = 0.0;
	for (i = 0; i < BRAID_MP_MAX_PATHS; i++)
		if (mp_usable(&mp->path[i]))
			mp_sched_path_up(mp, i);
}

uint32_t mp_sched_redundant_fit(struct braid_mp *mp, uint32_t mask, uint32_t len, int prio)
{
	uint32_t fit = 0;
	int i;

	if (!mp->cfg.queue_limit_us)
		return mask;
	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		const struct mp_path *p = &mp->path[i];

		if (!(mask & (1u << i)))
			continue;
		if (p->aqm_off ||
		    ((prio ? p->pq_bytes : p->q_bytes) + len) * 8000000ULL /
		    mp_est_ref_rate(&p->est, p->cap_bps) <= mp->cfg.queue_limit_us)
			fit |= 1u << i;
	}
	if (fit)	/* a skip counts only when the packet goes out elsewhere */
		for (i = 0; i < BRAID_MP_MAX_PATHS; i++)
			if ((mask & ~fit) & (1u << i))
				mp->path[i].redundant_skipped++;
	return fit;
}

int mp_sched_copy_elsewhere(const struct braid_mp *mp, uint32_t idx)
{
	const struct mp_slot *s = &mp->slots[idx];

	return (mp->cfg.sched == BRAID_MP_SCHED_REDUNDANT || (s->meta & BRAID_MP_META_REDUNDANT)) &&
	       s->refs > 1;
}

int mp_sched_fastest(const struct braid_mp *mp, int i)
{
	uint64_t mine = mp_path_rate(mp, &mp->path[i]);
	uint32_t mask = mp_sched_usable(mp);
	int j;

	for (j = 0; j < BRAID_MP_MAX_PATHS; j++)
		if (j != i && (mask & (1u << j)) && mp_path_rate(mp, &mp->path[j]) > mine)
			return 0;
	return 1;
}

static double weight(const struct braid_mp *mp, int i)
{
	const struct mp_path *p = &mp->path[i];

	switch (mp->cfg.sched) {
	case BRAID_MP_SCHED_RTT:
		return 1e6 / (double)(p->est.have_rtt && p->est.srtt > 100 ? p->est.srtt : 100);
	case BRAID_MP_SCHED_RATIO:
		return ratio_weight(mp, i);
	case BRAID_MP_SCHED_MPIP:
		return (double)p->mpip_w;
	default:
		return 1.0;
	}
}

static int pick_stride(const struct braid_mp *mp, uint32_t mask, uint32_t len)
{
	double best = DBL_MAX, t, w;
	int i, bi = -1;

	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		if (!(mask & (1u << i)))
			continue;
		w = weight(mp, i);
		if (w <= 0.0)
			continue;
		t = mp->path[i].vt + (double)len / w;
		if (t < best) {
			best = t;
			bi = i;
		}
	}
	return bi;
}

void mp_sched_charge(struct braid_mp *mp, int i, uint32_t len)
{
	double w = weight(mp, i);

	if (w > 0.0)
		mp->path[i].vt += (double)len / w;
}

void mp_sched_path_up(struct braid_mp *mp, int i)
{
	double vmin = DBL_MAX;
	uint32_t n = 0;
	int j;

	for (j = 0; j < BRAID_MP_MAX_PATHS; j++) {
		if (j == i || !mp_usable(&mp->path[j]))
			continue;
		n++;
		if (mp->path[j].vt < vmin)
			vmin = mp->path[j].vt;
	}
	mp->path[i].vt = n ? vmin : 0.0;
	mp->path[i].mpip_w = MP_MPIP_WMAX / (n + 1);
}

void mp_sched_mpip_step(struct braid_mp *mp)
{
	uint32_t mask = mp_sched_usable(mp);
	double q[BRAID_MP_MAX_PATHS], avg = 0.0;
	int i, n = 0;

	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		struct mp_path *p = &mp->path[i];

		if (!(mask & (1u << i)))
			continue;
		/* Queuing delay of the path as the tunnel sees it: in the network
		 * (OWD over min) plus in our own send queue. */
		q[i] = (double)p->est.qdelay + (double)p->q_bytes * 8e6 / (double)mp_path_rate(mp, p);
		avg += q[i];
		n++;
	}
	if (!n)
		return;
	avg /= n;
	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		struct mp_path *p = &mp->path[i];

		if (!(mask & (1u << i)))
			continue;
		if (q[i] <= avg)
			p->mpip_w = p->mpip_w + MP_MPIP_S > MP_MPIP_WMAX ? MP_MPIP_WMAX :
				    p->mpip_w + MP_MPIP_S;
		else
			p->mpip_w = p->mpip_w <= MP_MPIP_S ? 1 : p->mpip_w - MP_MPIP_S;
	}
}

uint64_t mp_sched_free_delay(const struct braid_mp *mp, int i)
{
	uint32_t mask = mp_sched_usable(mp);
	double mine, worst = 0.0, d;
	int j;

	if (!(mask & (1u << i)))
		return 0;
	mine = mp_sched_rel_delay(mp, mask, i);
	for (j = 0; j < BRAID_MP_MAX_PATHS; j++) {
		if (!(mask & (1u << j)))
			continue;
		d = mp_sched_rel_delay(mp, mask, j);
		if (d > worst)
			worst = d;
	}
	return worst > mine ? (uint64_t)(worst - mine) : 0;
}

/* The paths of mask whose MTU fits len; if none, those with the largest
 * MTU (the packet goes out anyway, and may be fragmented). */
static uint32_t mtu_fit(const struct braid_mp *mp, uint32_t mask, uint32_t len)
{
	uint32_t fit = 0, big = 0, top = 0;
	int i;

	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		uint32_t m = mp->path[i].pmtu.mtu;

		if (!(mask & (1u << i)))
			continue;
		if (m >= len)
			fit |= 1u << i;
		if (m > top) {
			top = m;
			big = 1u << i;
		} else if (m == top) {
			big |= 1u << i;
		}
	}
	return fit ? fit : big;
}

/* The paths of mask of weight above 0 whose MTU search has just started
 * (nothing failed yet, len at most its max): len may well fit them. A path of
 * weight 0 (ratio 1:0, a spare) then carries nothing big while the weighted
 * path's first probe is out; the packet goes out oversize on the weighted
 * path. Once a size failed there, packets that do not fit move as before. */
static uint32_t weighted_unprobed(const struct braid_mp *mp, uint32_t mask, uint32_t len)
{
	uint32_t w = 0;
	int i;

	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		const struct mp_pmtu *u = &mp->path[i].pmtu;

		if ((mask & (1u << i)) && weight(mp, i) > 0.0 && u->state == MP_PMTU_SEARCH &&
		    u->hi > u->max && len <= u->max)
			w |= 1u << i;
	}
	return w;
}

uint32_t mp_sched_pick(struct braid_mp *mp, uint64_t now, uint32_t len, unsigned int meta)
{
	uint32_t all = mp_sched_usable(mp), mask;
	double best = DBL_MAX;
	int i, bi = -1;

	if (!all)
		return 0;
	mask = mtu_fit(mp, all, len);
	if (mp->cfg.sched == BRAID_MP_SCHED_REDUNDANT || (meta & BRAID_MP_META_REDUNDANT))
		return mask;
	if (mp->cfg.latency_classes && (meta & BRAID_MP_META_CLASS) != BRAID_MP_CLASS_BULK)
		bi = pick_edf(mp, now, mask, len, 1);
	else {
		switch (mp->cfg.sched) {
		case BRAID_MP_SCHED_EDF:
			bi = pick_edf(mp, now, mask, len, 0);
			break;
		case BRAID_MP_SCHED_RTT:
		case BRAID_MP_SCHED_RATIO:
		case BRAID_MP_SCHED_MPIP:
			bi = pick_stride(mp, mask, len);
			if (bi < 0)	/* it fits only paths of weight 0 */
				bi = pick_stride(mp, weighted_unprobed(mp, all, len), len);
			break;
		case BRAID_MP_SCHED_LOWEST_RTT:
			for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
				double r;

				if (!(mask & (1u << i)))
					continue;
				r = mp->path[i].est.have_rtt ? (double)mp->path[i].est.srtt : 1e12;
				if (r < best) {
					best = r;
					bi = i;
				}
			}
			break;
		case BRAID_MP_SCHED_BACKUP:
			/* the usable path of the lowest slot (slotless ones last,
			 * by index): the same path on both sides */
			for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
				double s = (double)mp_sched_slot(&mp->path[i]) * 16 + i;

				if ((mask & (1u << i)) && s < best) {
					best = s;
					bi = i;
				}
			}
			break;
		case BRAID_MP_SCHED_REDUNDANT:
			break;
		}
	}
	if (bi < 0 && mask != all)
		bi = __builtin_ctz(mask);	/* the weighted paths do not fit it */
	if (bi < 0)
		return 0;
	return 1u << bi;
}
