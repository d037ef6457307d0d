// SPDX-License-Identifier: GPL-2.0-only
/*
 * mp.c - the multipath engine's lifetime and whole-engine settings: the
 * configuration (defaults, checks), braid_mp_new / braid_mp_free, scheduler
 * names and selection, and the stats accessors. The rest of the engine:
 * mp_queue.c (rings, packet slots, control queue), mp_path.c (paths and
 * their state machine), mp_probe.c (probes and path-MTU search),
 * mp_timer.c (reports, timers, deadlines), mp_tx.c (enqueue and paced
 * transmit), mp_rx.c (receive and control messages). mp.h is the API.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mp.h"
#include "mp_int.h"
#include "mp_mem.h"
#include "mp_queue.h"
#include "mp_sched.h"

static int is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

void braid_mp_config_init(struct braid_mp_config *c)
{
	memset(c, 0, sizeof(*c));
	c->sched = BRAID_MP_SCHED_EDF;
	c->reorder_cap_us = 100000;
	c->reorder_max_pkts = 1024;
	c->reorder_window = 4096;
	c->probe_busy_us = 25000;
	c->probe_idle_us = 1000000;
	c->fail_floor_us = 300000;
	c->challenge_us = 100000;
	c->report_min_us = 5000;
	c->report_max_us = 50000;
	c->queue_pkts = 8192;
	c->retain_pkts = 4096;
	c->init_rate_bps = 2000000;
	c->qdelay_thresh_us = 5000;
	c->aqm_target_us = 5000;
	c->aqm_interval_us = 100000;
	c->queue_limit_us = 50000;
	c->mtu = 1500;
	c->degraded_loss_pm = 250;
	c->latency_classes = 1;
	c->arq = 1;
	c->pmtu_max = 1500;
	c->pmtu_base = 1200;
	c->pmtu_step = 8;
	c->pmtu_raise_us = 600000000ULL;
}

static int check_config(const struct braid_mp_config *c)
{
	if (!c->tx_release || !c->random)
		return -EINVAL;
	if (!is_pow2(c->queue_pkts) || !is_pow2(c->retain_pkts) || !is_pow2(c->reorder_window))
		return -EINVAL;
	if (c->queue_pkts > 1u << 20 || c->retain_pkts > 1u << 20 || c->reorder_window > 1u << 20)
		return -EINVAL;
	if (!c->reorder_max_pkts || c->reorder_max_pkts > c->reorder_window)
		return -EINVAL;
	if (!c->probe_busy_us || !c->probe_idle_us || !c->fail_floor_us || !c->challenge_us ||
	    !c->report_min_us || c->report_max_us < c->report_min_us || !c->init_rate_bps ||
	    !c->mtu)
		return -EINVAL;
	if (c->aqm_target_us && !c->aqm_interval_us)
		return -EINVAL;
	if ((unsigned int)c->sched > BRAID_MP_SCHED_REDUNDANT)
		return -EINVAL;
	if (c->pmtu_max && (c->pmtu_max > BRAID_MP_MTU_PROBE_MAX ||
			    c->pmtu_base < BRAID_MP_MTU_HDR_LEN || c->pmtu_base > c->pmtu_max ||
			    !c->pmtu_step || !c->pmtu_raise_us))
		return -EINVAL;
	return 0;
}

int braid_mp_new(struct braid_mp **out, const struct braid_mp_config *cfg)
{
	struct braid_mp *mp;
	uint32_t i;
	int r;

	*out = NULL;
	r = check_config(cfg);
	if (r)
		return r;
	mp = mp_zalloc(1, sizeof(*mp));
	if (!mp)
		return -ENOMEM;
	mp->cfg = *cfg;
	r = -ENOMEM;
	mp->slots = mp_zalloc(cfg->queue_pkts, sizeof(*mp->slots));
	if (!mp->slots)
		goto err_mp;
	mp->free_slots = mp_zalloc(cfg->queue_pkts, sizeof(*mp->free_slots));
	if (!mp->free_slots)
		goto err_slots;
	for (i = 0; i < cfg->queue_pkts; i++)
		mp->free_slots[i] = cfg->queue_pkts - 1 - i;
	mp->nfree = cfg->queue_pkts;
	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		struct mp_path *p = &mp->path[i];

		if (mp_ring_init(&p->q, cfg->queue_pkts) || mp_ring_init(&p->pq, cfg->queue_pkts))
			goto err_paths;
		p->sent = mp_zalloc(cfg->retain_pkts, sizeof(*p->sent));
		if (!p->sent)
			goto err_paths;
	}
	r = mp_reorder_init(&mp->ro, cfg->reorder_window, cfg->reorder_max_pkts);
	if (r)
		goto err_paths;
	mp->ctl_out_mtu = -1;
	mp->ctl_out_path = -1;
	*out = mp;
	return 0;

err_paths:
	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		mp_zfree(mp->path[i].sent, cfg->retain_pkts, sizeof(struct mp_sent));
		mp_ring_fini(&mp->path[i].q);
		mp_ring_fini(&mp->path[i].pq);
	}
	mp_zfree(mp->free_slots, cfg->queue_pkts, sizeof(*mp->free_slots));
err_slots:
	mp_zfree(mp->slots, cfg->queue_pkts, sizeof(*mp->slots));
err_mp:
	mp_zfree(mp, 1, sizeof(*mp));
	return r;
}

static void rx_drop(void *ctx, void *ref)
{
	struct braid_mp *mp = ctx;

	if (mp->cfg.rx_release)
		mp->cfg.rx_release(mp->cfg.user, ref);
}

void braid_mp_free(struct braid_mp *mp)
{
	int i;

	if (!mp)
		return;
	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		struct mp_path *p = &mp->path[i];

		while (p->q.n)
			mp_slot_put(mp, mp_ring_pop(&p->q) & ~MP_RESEND_BIT, BRAID_MP_REL_FLUSH);
		while (p->pq.n)
			mp_slot_put(mp, mp_ring_pop(&p->pq) & ~MP_RESEND_BIT, BRAID_MP_REL_FLUSH);
		while (p->sent_n) {
			mp_slot_put(mp, mp_sent_at(p, mp->cfg.retain_pkts, 0)->slot, BRAID_MP_REL_FLUSH);
			p->sent_head = (p->sent_head + 1) & (mp->cfg.retain_pkts - 1);
			p->sent_n--;
		}
		mp_zfree(p->sent, mp->cfg.retain_pkts, sizeof(*p->sent));
		mp_ring_fini(&p->q);
		mp_ring_fini(&p->pq);
		memset(p->token, 0, sizeof(p->token));
	}
	mp_reorder_fini(&mp->ro, rx_drop, mp);
	mp_zfree(mp->free_slots, mp->cfg.queue_pkts, sizeof(*mp->free_slots));
	mp_zfree(mp->slots, mp->cfg.queue_pkts, sizeof(*mp->slots));
	mp_zfree(mp, 1, sizeof(*mp));
}

static const char *const sched_names[] = {
	[BRAID_MP_SCHED_EDF] = "edf",
	[BRAID_MP_SCHED_RTT] = "rtt",
	[BRAID_MP_SCHED_RATIO] = "ratio",
	[BRAID_MP_SCHED_MPIP] = "mpip",
	[BRAID_MP_SCHED_LOWEST_RTT] = "lowest-rtt",
	[BRAID_MP_SCHED_BACKUP] = "backup",
	[BRAID_MP_SCHED_REDUNDANT] = "redundant",
};

const char *braid_mp_sched_name(enum braid_mp_sched s)
{
	return (unsigned int)s <= BRAID_MP_SCHED_REDUNDANT ? sched_names[s] : "?";
}

const char *braid_mp_state_name(enum braid_mp_path_state s)
{
	switch (s) {
	case BRAID_MP_PATH_PROBING: return "probing";
	case BRAID_MP_PATH_VALIDATED: return "validated";
	case BRAID_MP_PATH_ACTIVE: return "active";
	case BRAID_MP_PATH_STANDBY: return "standby";
	case BRAID_MP_PATH_DEGRADED: return "degraded";
	case BRAID_MP_PATH_FAILED: return "failed";
	}
	return "?";
}

int braid_mp_sched_parse(const char *s, enum braid_mp_sched *out, uint32_t *ratio,
			 unsigned int *n)
{
	unsigned int i, k = 0;
	size_t len;

	for (i = 0; i <= BRAID_MP_SCHED_REDUNDANT; i++) {
		len = strlen(sched_names[i]);
		if (strncmp(s, sched_names[i], len) == 0 && (s[len] == '\0' || s[len] == ' '))
			break;
	}
	if (i > BRAID_MP_SCHED_REDUNDANT)
		return -EINVAL;
	*out = (enum braid_mp_sched)i;
	s += len;
	if (i != BRAID_MP_SCHED_RATIO) {
		if (*s)
			return -EINVAL;
		if (n)
			*n = 0;
		return 0;
	}
	if (*s++ != ' ')
		return -EINVAL;
	for (;;) {
		uint64_t v = 0;
		int digits = 0;

		while (*s >= '0' && *s <= '9') {
			v = v * 10 + (uint64_t)(*s++ - '0');
			if (v > 1000000)
				return -EINVAL;
			digits++;
		}
		if (!digits || k == BRAID_MP_MAX_PATHS)
			return -EINVAL;
		ratio[k++] = (uint32_t)v;
		if (*s == '\0')
			break;
		if (*s++ != ':')
			return -EINVAL;
	}
	if (n)
		*n = k;
	return 0;
}

int braid_mp_set_sched(struct braid_mp *mp, enum braid_mp_sched s, const uint32_t *ratio,
		       unsigned int n)
{
	unsigned int i, sum = 0;

	if ((unsigned int)s > BRAID_MP_SCHED_REDUNDANT || n > BRAID_MP_MAX_PATHS)
		return -EINVAL;
	if (s == BRAID_MP_SCHED_RATIO) {
		for (i = 0; i < n; i++)
			sum += ratio[i];
		if (n && !sum)
			return -EINVAL;
		memset(mp->cfg.ratio, 0, sizeof(mp->cfg.ratio));
		if (n)
			memcpy(mp->cfg.ratio, ratio, n * sizeof(*ratio));
	}
	mp->cfg.sched = s;
	for (i = 0; i < BRAID_MP_MAX_PATHS; i++)
		mp->path[i].vt = 0.0;
	for (i = 0; i < BRAID_MP_MAX_PATHS; i++)
		if (mp_usable(&mp->path[i]))
			mp_sched_path_up(mp, (int)i);
	return 0;
}

int braid_mp_path_stats(const struct braid_mp *mp, int path, struct braid_mp_path_stats *st)
{
	const struct mp_path *p;
	uint64_t total = 0, best = UINT64_MAX;
	int i;

	if (path < 0 || path >= BRAID_MP_MAX_PATHS || !mp->path[path].used)
		return -ENOENT;
	p = &mp->path[path];
	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		if (!mp->path[i].used)
			continue;
		total += mp->path[i].c.tx_bytes;
		if (mp->path[i].est.have_owd && (int64_t)best > mp->path[i].est.owd_min &&
		    mp_usable(&mp->path[i]))
			best = (uint64_t)mp->path[i].est.owd_min;
	}
	*st = p->c;
	st->state = p->state;
	st->key = p->key;
	st->flags = p->flags;
	st->srtt_us = p->est.srtt;
	st->rttvar_us = p->est.rttvar;
	st->min_rtt_us = p->est.min_rtt;
	st->owd_rel_us = p->est.have_owd && best != UINT64_MAX ?
			 p->est.owd_min - (int64_t)best : 0;
	st->qdelay_us = p->est.qdelay;
	st->loss_pm = p->est.loss_pm;
	st->bw_bps = p->est.bw_bps;
	st->rate_bps = mp_path_rate(mp, p);
	st->cap_bps = p->cap_bps;
	st->mpip_weight = p->mpip_w;
	st->share_pm = total ? (uint32_t)(p->c.tx_bytes * 1000 / total) : 0;
	st->queue_pkts = p->q.n + p->pq.n;
	st->arq_resent = p->arq_resent;
	st->queue_bytes = p->q_bytes;
	st->retained_pkts = p->sent_n;
	st->mtu = p->pmtu.state == MP_PMTU_OFF ? 0 : p->pmtu.mtu;
	st->mtu_searches = p->pmtu.searches;
	st->mtu_blackholes = p->pmtu.blackholes;
	st->mtu_probes = p->pmtu.probes;
	st->mtu_acks = p->pmtu.acks;
	st->mtu_probes_lost = p->pmtu.lost;
	st->mtu_oversize = p->mtu_oversize;
	st->in_startup = p->est.phase == MP_STARTUP;
	st->startup_restarts = p->est.restarts;
	st->slot = p->slot == BRAID_MP_SLOT_NONE ? -1 : p->slot;
	st->peer_slot = p->peer_slot == BRAID_MP_SLOT_NONE ? -1 : p->peer_slot;
	st->peer_backup = !!(p->peer_flags & BRAID_MP_STATUS_F_BACKUP);
	st->status_sent = p->status_sent;
	st->status_rx = p->status_rx;
	st->redundant_skipped = p->redundant_skipped;
	return 0;
}

uint32_t braid_mp_tunnel_mtu(const struct braid_mp *mp)
{
	uint32_t mask = mp_sched_usable(mp), m = UINT32_MAX;
	int i;

	for (i = 0; i < BRAID_MP_MAX_PATHS; i++)
		if ((mask & (1u << i)) && mp->path[i].pmtu.state != MP_PMTU_OFF &&
		    mp->path[i].pmtu.mtu < m)
			m = mp->path[i].pmtu.mtu;
	return m == UINT32_MAX ? 0 : m;
}

void braid_mp_stats(const struct braid_mp *mp, struct braid_mp_stats *st)
{
	*st = mp->st;
	st->rx_delivered = mp->ro.st.delivered;
	st->rx_in_order = mp->ro.st.in_order;
	st->rx_late = mp->ro.st.late;
	st->rx_dups = mp->ro.st.dups;
	st->rx_too_old = mp->ro.st.too_old;
	st->rx_gaps_deadline = mp->ro.st.gaps_deadline;
	st->rx_gaps_bound = mp->ro.st.gaps_bound;
	st->rx_held = mp->ro.st.held;
	st->rx_max_held = mp->ro.st.max_held;
	st->rx_max_hold_us = mp->ro.st.max_hold_us;
	st->reorder_deadline_us = mp->ro_deadline;
	st->tunnel_mtu = braid_mp_tunnel_mtu(mp);
}

void braid_mp_stats_reset_peaks(struct braid_mp *mp)
{
	mp->ro.st.max_held = mp->ro.st.held;
	mp->ro.st.max_hold_us = 0;
}
