// SPDX-License-Identifier: GPL-2.0-only
/*
 * mp.c - the multipath engine: paths and their state machine, validation,
 * probes and reports, pacing, failover with re-send, receive reordering.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mp_int.h"
#include "mp_sched.h"

#define PACE_SLACK_US 1000
#define BUSY_US 1000000
#define IDLE_CHALLENGE_US 1000000
#define STATUS_REPEATS 3	/* a PATH_STATUS is repeated with this many probes */
#define DEGRADED_HOLD_US 2000000
#define STARTUP_PROBE_US 5000
#define SUSPECT_MIN_US 50000
#define SILENT_MIN_US 10000

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

/* ---- small rings ---- */

static int ring_init(struct mp_ring *r, uint32_t cap)
{
	r->v = calloc(cap, sizeof(*r->v));
	r->cap = cap;
	r->head = r->n = 0;
	return r->v ? 0 : -ENOMEM;
}

static void ring_push(struct mp_ring *r, uint32_t v)
{
	r->v[(r->head + r->n) & (r->cap - 1)] = v;
	r->n++;
}

static uint32_t ring_pop(struct mp_ring *r)
{
	uint32_t v = r->v[r->head];

	r->head = (r->head + 1) & (r->cap - 1);
	r->n--;
	return v;
}

static struct mp_sent *sent_at(struct mp_path *p, uint32_t cap, uint32_t i)
{
	return &p->sent[(p->sent_head + i) & (cap - 1)];
}

/* ---- tx packet slots ---- */

static void slot_put(struct braid_mp *mp, uint32_t idx, enum braid_mp_release why)
{
	struct mp_slot *s = &mp->slots[idx];

	if (--s->refs)
		return;
	mp->cfg.tx_release(mp->cfg.user, s->ref, why);
	s->ref = NULL;
	mp->free_slots[mp->nfree++] = idx;
}

/* ---- control queue ---- */

static struct mp_ctl *ctl_new(struct braid_mp *mp, int path)
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

static void ctl_send(struct braid_mp *mp, int path, const struct braid_mp_msg *m, uint64_t rx_us)
{
	struct mp_ctl *c = ctl_new(mp, path);
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

/* ---- configuration ---- */

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
	mp = calloc(1, sizeof(*mp));
	if (!mp)
		return -ENOMEM;
	mp->cfg = *cfg;
	r = -ENOMEM;
	mp->slots = calloc(cfg->queue_pkts, sizeof(*mp->slots));
	if (!mp->slots)
		goto err_mp;
	mp->free_slots = calloc(cfg->queue_pkts, sizeof(*mp->free_slots));
	if (!mp->free_slots)
		goto err_slots;
	for (i = 0; i < cfg->queue_pkts; i++)
		mp->free_slots[i] = cfg->queue_pkts - 1 - i;
	mp->nfree = cfg->queue_pkts;
	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		struct mp_path *p = &mp->path[i];

		if (ring_init(&p->q, cfg->queue_pkts) || ring_init(&p->pq, cfg->queue_pkts))
			goto err_paths;
		p->sent = calloc(cfg->retain_pkts, sizeof(*p->sent));
		if (!p->sent)
			goto err_paths;
	}
	r = mp_reorder_init(&mp->ro, cfg->reorder_window, cfg->reorder_max_pkts);
	if (r)
		goto err_paths;
	mp->ctl_out_mtu = -1;
	*out = mp;
	return 0;

err_paths:
	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		free(mp->path[i].sent);
		free(mp->path[i].q.v);
		free(mp->path[i].pq.v);
	}
	free(mp->free_slots);
err_slots:
	free(mp->slots);
err_mp:
	free(mp);
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
			slot_put(mp, ring_pop(&p->q) & ~MP_RESEND_BIT, BRAID_MP_REL_FLUSH);
		while (p->pq.n)
			slot_put(mp, ring_pop(&p->pq) & ~MP_RESEND_BIT, BRAID_MP_REL_FLUSH);
		while (p->sent_n) {
			slot_put(mp, sent_at(p, mp->cfg.retain_pkts, 0)->slot, BRAID_MP_REL_FLUSH);
			p->sent_head = (p->sent_head + 1) & (mp->cfg.retain_pkts - 1);
			p->sent_n--;
		}
		free(p->sent);
		free(p->q.v);
		free(p->pq.v);
		memset(p->token, 0, sizeof(p->token));
	}
	mp_reorder_fini(&mp->ro, rx_drop, mp);
	free(mp->free_slots);
	free(mp->slots);
	free(mp);
}

/* ---- names and scheduler selection ---- */

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
		if (!sum)
			return -EINVAL;
		memset(mp->cfg.ratio, 0, sizeof(mp->cfg.ratio));
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

/* ---- paths ---- */

static struct mp_path *get_path(struct braid_mp *mp, int i)
{
	if (i < 0 || i >= BRAID_MP_MAX_PATHS || !mp->path[i].used)
		return NULL;
	return &mp->path[i];
}

static uint64_t fail_timeout(const struct braid_mp *mp, const struct mp_path *p)
{
	uint64_t t = 3 * p->est.srtt;

	return t > mp->cfg.fail_floor_us ? t : mp->cfg.fail_floor_us;
}

static int start_validation(struct braid_mp *mp, struct mp_path *p, uint64_t now)
{
	if (mp->cfg.random(mp->cfg.user, p->token, sizeof(p->token)))
		return -EIO;
	p->chal_pending = 1;
	p->chal_next = now;
	p->chal_backoff = mp->cfg.challenge_us;
	return 0;
}

int braid_mp_path_find(const struct braid_mp *mp, uint64_t key)
{
	int i;

	for (i = 0; i < BRAID_MP_MAX_PATHS; i++)
		if (mp->path[i].used && mp->path[i].key == key)
			return i;
	return -ENOENT;
}

int braid_mp_path_add(struct braid_mp *mp, uint64_t now, uint64_t key, unsigned int flags,
		      uint64_t cap_bps)
{
	struct mp_path *p;
	struct mp_ring q, pq;
	struct mp_sent *sent;
	int i;

	if (braid_mp_path_find(mp, key) >= 0)
		return -EEXIST;
	for (i = 0; i < BRAID_MP_MAX_PATHS; i++)
		if (!mp->path[i].used)
			break;
	if (i == BRAID_MP_MAX_PATHS)
		return -ENOSPC;
	p = &mp->path[i];
	q = p->q;
	pq = p->pq;
	sent = p->sent;
	memset(p, 0, sizeof(*p));
	p->q = q;
	p->q.head = p->q.n = 0;
	p->pq = pq;
	p->pq.head = p->pq.n = 0;
	p->sent = sent;
	p->key = key;
	p->flags = flags & ~BRAID_MP_PATH_F_LEARNED;
	p->slot = (flags & BRAID_MP_PATH_F_LEARNED) ? BRAID_MP_SLOT_NONE : (uint8_t)i;
	p->peer_slot = BRAID_MP_SLOT_NONE;
	p->cap_bps = cap_bps;
	p->state = BRAID_MP_PATH_PROBING;
	p->c.key = key;
	mp_est_reset(&p->est, now, mp->cfg.init_rate_bps, mp->cfg.qdelay_thresh_us);
	mp_pmtu_off(&p->pmtu);	/* started when the path is validated */
	if (start_validation(mp, p, now))
		return -EIO;
	p->used = 1;
	return i;
}

/* Tell the peer this path's slot and backup flag (docs/multipath.md §6);
 * repeat > 0: again with the next that many probes (a lost one is not
 * otherwise noticed). */
static void send_status(struct braid_mp *mp, int i, int repeat)
{
	struct mp_path *p = &mp->path[i];
	struct braid_mp_msg m;

	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_PATH_STATUS;
	m.path_id = (uint32_t)i;
	m.u.status.slot = p->slot;
	m.u.status.flags = (p->flags & BRAID_MP_PATH_F_BACKUP) ? BRAID_MP_STATUS_F_BACKUP : 0;
	ctl_send(mp, i, &m, 0);
	p->status_sent++;
	if (repeat)
		p->status_left = STATUS_REPEATS;
}

/* Backup flags of either side changed: ACTIVE <-> STANDBY. */
static void backup_changed(struct braid_mp *mp, struct mp_path *p)
{
	if (p->state == BRAID_MP_PATH_ACTIVE && mp_backup(p))
		p->state = BRAID_MP_PATH_STANDBY;
	else if (p->state == BRAID_MP_PATH_STANDBY && !mp_backup(p))
		p->state = BRAID_MP_PATH_ACTIVE;
	mp_sched_reweigh(mp);
}

int braid_mp_path_set(struct braid_mp *mp, int path, unsigned int flags, uint64_t cap_bps)
{
	struct mp_path *p = get_path(mp, path);
	unsigned int old;

	if (!p)
		return -ENOENT;
	old = p->flags;
	p->flags = flags & ~BRAID_MP_PATH_F_LEARNED;
	p->cap_bps = cap_bps;
	if ((old ^ p->flags) & BRAID_MP_PATH_F_BACKUP) {
		backup_changed(mp, p);
		/* like MPTCP's MP_PRIO: the peer learns it at once (and
		 * again with the next probe, in case this one is lost) */
		send_status(mp, path, 1);
	}
	return 0;
}

int braid_mp_path_set_slot(struct braid_mp *mp, int path, unsigned int slot)
{
	struct mp_path *p = get_path(mp, path);

	if (!p)
		return -ENOENT;
	if (slot > BRAID_MP_SLOT_NONE)
		return -EINVAL;
	if (p->slot == slot)
		return 0;
	p->slot = (uint8_t)slot;
	mp_sched_reweigh(mp);
	send_status(mp, path, 1);	/* now and with the next probe */
	return 0;
}

static int is_prio(const struct braid_mp *mp, const struct mp_slot *s, uint32_t resend_bit)
{
	return (resend_bit && mp->cfg.arq) ||
	       (mp->cfg.latency_classes && (s->meta & BRAID_MP_META_CLASS) != BRAID_MP_CLASS_BULK);
}

static void enqueue_on(struct braid_mp *mp, int i, uint32_t idx, uint32_t resend_bit)
{
	struct mp_path *p = &mp->path[i];

	mp->slots[idx].refs++;
	if (is_prio(mp, &mp->slots[idx], resend_bit)) {
		ring_push(&p->pq, idx | resend_bit);
		p->pq_bytes += mp->slots[idx].len;
	} else {
		ring_push(&p->q, idx | resend_bit);
	}
	p->q_bytes += mp->slots[idx].len;
	mp_sched_charge(mp, i, mp->slots[idx].len);
}

/* Move a packet (slot idx) that was bound to a dead path to a live one. */
static void reschedule(struct braid_mp *mp, uint64_t now, uint32_t idx, uint32_t resend_bit)
{
	struct mp_slot *s = &mp->slots[idx];
	uint32_t mask;

	if (mp->cfg.sched == BRAID_MP_SCHED_REDUNDANT) {
		slot_put(mp, idx, BRAID_MP_REL_DONE);	/* copies are on the others */
		return;
	}
	mask = mp_sched_pick(mp, now, s->len, BRAID_MP_CLASS_BULK);
	if (!mask) {
		slot_put(mp, idx, BRAID_MP_REL_NOPATH);
		return;
	}
	s->enq_us = now;
	/* The failed path's backlog lands at once; it is not a standing
	 * queue the inner flows should be punished for. */
	mp->path[__builtin_ctz(mask)].aqm_off = 1;
	enqueue_on(mp, __builtin_ctz(mask), idx, resend_bit);
	slot_put(mp, idx, BRAID_MP_REL_DONE);	/* the dead path's reference */
}

/* A path that never carried data (a standby, or one just validated) takes
 * over from a failed one: start it at the failed path's rate instead of
 * the slow initial ramp; a standing queue cuts it back within a round. */
static void warm_start_others(struct braid_mp *mp, const struct mp_path *dead)
{
	int i;

	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		struct mp_path *p = &mp->path[i];

		if (p == dead || !mp_usable(p) || p->est.phase != MP_STARTUP || p->est.rounds)
			continue;
		if (dead->est.bw_bps > p->est.bw_bps)
			mp_est_warm(&p->est, mp->cfg.init_rate_bps ? dead->est.bw_bps : 0);
	}
}

/* Stop using a path: everything queued for it or unacknowledged on it goes
 * to live paths (the receiver drops the copies that did arrive). */
static void path_fail(struct braid_mp *mp, struct mp_path *p, uint64_t now)
{
	uint32_t cap = mp->cfg.retain_pkts;

	if (p->est.phase != MP_STARTUP || p->est.rounds)
		p->bw_before_fail = p->est.bw_bps;
	p->state = BRAID_MP_PATH_FAILED;
	p->c.failures++;
	p->c.last_fail_us = now;
	p->oldest_probe = 0;
	mp_pmtu_stop(&p->pmtu);
	while (p->sent_n) {
		struct mp_sent *r = sent_at(p, cap, 0);

		p->sent_head = (p->sent_head + 1) & (cap - 1);
		p->sent_n--;
		p->c.resent_pkts++;
		reschedule(mp, now, r->slot, MP_RESEND_BIT);
	}
	while (p->pq.n || p->q.n) {
		uint32_t e = ring_pop(p->pq.n ? &p->pq : &p->q);

		p->q_bytes -= mp->slots[e & ~MP_RESEND_BIT].len;
		p->pq_bytes = p->pq.n ? p->pq_bytes - mp->slots[e & ~MP_RESEND_BIT].len : 0;
		reschedule(mp, now, e & ~MP_RESEND_BIT, e & MP_RESEND_BIT);
	}
	p->q_bytes = 0;
	p->pq_bytes = 0;
	memset(&p->codel, 0, sizeof(p->codel));
	warm_start_others(mp, p);
	if (!p->link_down && start_validation(mp, p, now + mp->cfg.challenge_us) == 0)
		p->chal_next = now + mp->cfg.challenge_us;
}

int braid_mp_path_link_event(struct braid_mp *mp, uint64_t now, int path, int up)
{
	struct mp_path *p = get_path(mp, path);

	if (!p)
		return -ENOENT;
	if (!up) {
		p->link_down = 1;
		p->chal_pending = 0;
		if (p->state != BRAID_MP_PATH_FAILED && p->state != BRAID_MP_PATH_PROBING)
			path_fail(mp, p, now);
		else
			p->state = BRAID_MP_PATH_FAILED;
		return 0;
	}
	p->link_down = 0;
	if (!mp_usable(p)) {
		p->state = BRAID_MP_PATH_FAILED;
		return start_validation(mp, p, now);
	}
	return 0;
}

int braid_mp_path_del(struct braid_mp *mp, uint64_t now, int path)
{
	struct mp_path *p = get_path(mp, path);
	struct braid_mp_msg m;

	if (!p)
		return -ENOENT;
	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_PATH_CLOSE;
	m.path_id = (uint32_t)path;
	if (!p->link_down)
		ctl_send(mp, path, &m, 0);
	p->link_down = 1;
	path_fail(mp, p, now);
	p->chal_pending = 0;
	memset(p->token, 0, sizeof(p->token));
	p->used = 0;
	return 0;
}

static void path_validated(struct braid_mp *mp, struct mp_path *p, int i, uint64_t now)
{
	p->chal_pending = 0;
	memset(p->token, 0, sizeof(p->token));
	p->state = mp_backup(p) ? BRAID_MP_PATH_STANDBY : BRAID_MP_PATH_ACTIVE;
	p->c.validations++;
	/* fresh estimators; the rate starts where it was before a failure */
	mp_est_reset(&p->est, now, mp->cfg.init_rate_bps, mp->cfg.qdelay_thresh_us);
	if (p->bw_before_fail) {
		/* probably the same link: startup from its old rate */
		mp_est_warm(&p->est, p->bw_before_fail);
		mp_est_restart(&p->est, now);
	}
	p->probe_next = now;
	p->oldest_probe = 0;
	p->next_tx = now > PACE_SLACK_US ? now - PACE_SLACK_US : 0;	/* idle: may burst */
	p->have_report = 0;
	p->agg_bytes = p->agg_us = 0;
	p->agg_al = p->agg_round = 0;
	p->prev_al = 1;
	memset(&p->codel, 0, sizeof(p->codel));
	/* the MTU is searched again from base: a re-validated path may be
	 * another route (or a black hole made it fail) */
	if (mp->cfg.pmtu_max)
		mp_pmtu_start(&p->pmtu, now, mp->cfg.pmtu_base, mp->cfg.pmtu_max,
			      mp->cfg.pmtu_step);
	mp_sched_path_up(mp, i);
}

/* ---- transmit ---- */

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
	if (mp->cfg.sched == BRAID_MP_SCHED_REDUNDANT && __builtin_popcount(mask) > 1) {
		/* a copy for every path, but none into a queue over its budget */
		mask = mp_sched_redundant_fit(mp, mask, len);
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
			enqueue_on(mp, i, idx, 0);
	mp->st.enq_pkts++;
	slot_put(mp, idx, BRAID_MP_REL_DONE);
	return 0;
}

static void sent_push(struct braid_mp *mp, struct mp_path *p, uint32_t idx, uint64_t now)
{
	uint32_t cap = mp->cfg.retain_pkts;
	struct mp_sent *r;

	if (p->sent_n == cap) {	/* retention full: forget the oldest */
		r = sent_at(p, cap, 0);
		p->sent_head = (p->sent_head + 1) & (cap - 1);
		p->sent_n--;
		slot_put(mp, r->slot, BRAID_MP_REL_DONE);
	}
	r = sent_at(p, cap, p->sent_n);
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

static void send_probe(struct braid_mp *mp, int i, uint64_t now)
{
	struct mp_path *p = &mp->path[i];
	struct braid_mp_msg m;

	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_PROBE;
	m.path_id = (uint32_t)i;
	m.u.probe.seq = ++p->probe_seq;
	m.u.probe.tx_us = now;
	ctl_send(mp, i, &m, 0);
	p->c.probes_sent++;
	p->probes_unanswered++;
	if (!p->oldest_probe)
		p->oldest_probe = now;
}

static int best_ctl_path(const struct braid_mp *mp);

/* An MTU_PROBE of size bytes in all (padded with zeros in pop_ctl). */
static void send_mtu_probe(struct braid_mp *mp, int i, uint64_t now, uint32_t size)
{
	struct mp_path *p = &mp->path[i];
	struct braid_mp_msg m;
	struct mp_ctl *c;

	if (size < BRAID_MP_MTU_HDR_LEN || size > BRAID_MP_CTL_MAX)
		return;
	c = ctl_new(mp, i);
	if (!c)
		return;	/* control queue full: due again at the next timer */
	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_MTU_ACK;	/* same fields; the header is all that is queued */
	m.path_id = (uint32_t)i;
	m.u.mtu.seq = ++p->pmtu_seq;
	m.u.mtu.size = (uint16_t)size;
	braid_mp_msg_encode(&m, c->buf, sizeof(c->buf));
	c->buf[BRAID_MP_MAGIC_LEN] = BRAID_MP_MSG_MTU_PROBE;
	c->len = size;
	mp_pmtu_sent(&p->pmtu, now, m.u.mtu.seq, size);
}

/* How long an MTU probe may take: it is answered at once, so a round trip
 * with room for queuing, and at least PMTU_PTO_MIN_US: a busy host that
 * runs the peer (or a shaper) late must not make a size look too big. */
#define PMTU_PTO_MIN_US 100000

static uint64_t pmtu_pto(const struct mp_path *p)
{
	uint64_t t;

	if (!p->est.have_rtt)
		return 250000;
	t = 2 * p->est.srtt;
	if (p->est.srtt + 4 * p->est.rttvar > t)
		t = p->est.srtt + 4 * p->est.rttvar;
	t += 10000;
	return t > PMTU_PTO_MIN_US ? t : PMTU_PTO_MIN_US;
}

/*
 * The path's MTU shrank (black hole): packets that no longer fit leave it.
 * Retained ones that are too big were most likely lost there: re-sent on
 * the paths they fit (the receiver drops copies that did arrive); queued
 * ones move. A packet that fits no path may come back here (oversize).
 */
static void pmtu_shrink(struct braid_mp *mp, struct mp_path *p, uint64_t now)
{
	uint32_t cap = mp->cfg.retain_pkts, mtu = p->pmtu.mtu, k, w = 0, n;
	struct mp_ring *rings[2] = { &p->pq, &p->q };
	int j;

	for (k = 0; k < p->sent_n; k++) {
		struct mp_sent *r = sent_at(p, cap, k);

		if (r->len > mtu) {
			p->c.resent_pkts++;
			reschedule(mp, now, r->slot, MP_RESEND_BIT);
			continue;
		}
		if (w != k)
			*sent_at(p, cap, w) = *r;
		w++;
	}
	p->sent_n = w;
	for (j = 0; j < 2; j++) {
		n = rings[j]->n;
		for (k = 0; k < n; k++) {
			uint32_t e = ring_pop(rings[j]), idx = e & ~MP_RESEND_BIT;

			if (mp->slots[idx].len <= mtu) {
				ring_push(rings[j], e);
				continue;
			}
			p->q_bytes -= mp->slots[idx].len;
			if (j == 0)
				p->pq_bytes -= mp->slots[idx].len;
			reschedule(mp, now, idx, e & MP_RESEND_BIT);
		}
	}
}

/* Black-hole suspicion without a report: the oldest packet on the path is
 * above base and unanswered for a report's worth of time, although a probe
 * sent after it came back. */
static int pmtu_silent_big(const struct braid_mp *mp, const struct mp_path *p, uint64_t now)
{
	const struct mp_sent *r;

	if (!p->sent_n || p->pmtu.mtu <= p->pmtu.low || p->pmtu.state == MP_PMTU_OFF)
		return 0;
	r = &p->sent[p->sent_head];
	return r->len > p->pmtu.low && p->last_echo_tx > r->tx_us &&
	       now > r->tx_us + p->est.srtt + 4 * p->est.rttvar + mp->cfg.report_max_us;
}

static void pmtu_timers(struct braid_mp *mp, int i, uint64_t now)
{
	struct mp_path *p = &mp->path[i];
	uint32_t size;

	if (p->pmtu.state == MP_PMTU_OFF)
		return;
	if (mp_pmtu_timeout(&p->pmtu, now, pmtu_pto(p), mp->cfg.pmtu_raise_us))
		pmtu_shrink(mp, p, now);
	else if (pmtu_silent_big(mp, p, now))
		mp_pmtu_suspect(&p->pmtu, now);
	size = mp_pmtu_due(&p->pmtu, now);
	if (size)
		send_mtu_probe(mp, i, now, size);
}

/* A confirmation probe is out and the path answers small probes: the
 * silence of big packets is being checked, not a cut. Bounded by the time
 * the confirmations take. */
static int pmtu_holds_failure(const struct braid_mp *mp, const struct mp_path *p, uint64_t now)
{
	return p->pmtu.confirm &&
	       now - p->pmtu.confirm_us <= (MP_PMTU_CONFIRM_TRIES + 1) * pmtu_pto(p) &&
	       (!p->oldest_probe || now - p->oldest_probe <= fail_timeout(mp, p));
}

void braid_mp_ctl_sent(struct braid_mp *mp, uint64_t pid)
{
	struct braid_mp_msg m;
	int path = mp->ctl_out_mtu, cp;

	mp->ctl_out_mtu = -1;
	if (path < 0)
		return;
	cp = best_ctl_path(mp);
	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_SKIP;
	m.path_id = (uint32_t)path;
	m.u.skip_pid = pid;
	ctl_send(mp, cp >= 0 ? cp : path, &m, 0);
}

#define RESTART_IDLE_US 200000ULL

static uint64_t restart_idle(const struct mp_path *p)
{
	return 4 * p->est.srtt > RESTART_IDLE_US ? 4 * p->est.srtt : RESTART_IDLE_US;
}

static uint64_t probe_interval(const struct braid_mp *mp, const struct mp_path *p, uint64_t now)
{
	uint64_t t;

	if (!p->last_data_tx || now - p->last_data_tx > BUSY_US)
		return mp->cfg.probe_idle_us;
	/* Startup ends on the first queuing delay: look often. */
	if (p->est.phase == MP_STARTUP) {
		t = p->est.srtt / 8;
		return t > STARTUP_PROBE_US ? t : STARTUP_PROBE_US;
	}
	t = p->est.srtt / 4;
	return t > mp->cfg.probe_busy_us ? t : mp->cfg.probe_busy_us;
}

/* Delivery-rate samples: a report's span joins the previous one when the
 * gap between them is shorter than SPAN_JOIN_US, and the sender sums the
 * spans of consecutive reports until they cover at least
 * max(RATE_SPAN_MIN_US, min RTT / 2): on a real host arrivals come in
 * bursts (batched verdicts of a shaper, batched reads), and a 5 ms span
 * that lost 0.5 ms to a burst reads 10 % high - the windowed maximum keeps
 * exactly those samples. */
#define SPAN_JOIN_US 20000u
#define RATE_SPAN_MIN_US 10000u

static uint64_t rate_span_min(const struct mp_path *p)
{
	uint64_t t = 0;

	if (p->est.phase == MP_STARTUP)
		return RATE_SPAN_MIN_US / 4;
	return t > RATE_SPAN_MIN_US ? t : RATE_SPAN_MIN_US;
}

static uint64_t report_interval(const struct braid_mp *mp)
{
	uint64_t best = UINT64_MAX, t;
	int i;

	for (i = 0; i < BRAID_MP_MAX_PATHS; i++)
		if (mp_usable(&mp->path[i]) && mp->path[i].est.have_rtt &&
		    mp->path[i].est.srtt < best)
			best = mp->path[i].est.srtt;
	t = best == UINT64_MAX ? mp->cfg.report_max_us : best / 4;
	if (t < mp->cfg.report_min_us)
		t = mp->cfg.report_min_us;
	if (t > mp->cfg.report_max_us)
		t = mp->cfg.report_max_us;
	return t;
}

/* Control traffic goes on the path with the lowest delay. */
static int best_ctl_path(const struct braid_mp *mp)
{
	uint64_t best = UINT64_MAX;
	int i, bi = -1;

	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		const struct mp_path *p = &mp->path[i];
		uint64_t r;

		if (!mp_usable(p))
			continue;
		r = p->est.have_rtt ? p->est.srtt : UINT64_MAX - 1;
		if (r < best) {
			best = r;
			bi = i;
		}
	}
	return bi;
}

static int second_ctl_path(const struct braid_mp *mp, int first)
{
	uint64_t best = UINT64_MAX;
	int i, bi = -1;

	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		const struct mp_path *p = &mp->path[i];
		uint64_t r;

		if (i == first || !mp_usable(p))
			continue;
		r = p->est.have_rtt ? p->est.srtt : UINT64_MAX - 1;
		if (r < best) {
			best = r;
			bi = i;
		}
	}
	return bi;
}

/*
 * NACK tail: which packet-ids below the highest one seen are missing, back
 * to the last_pid of the report before the previous one on each path (a
 * sender's records covered by this report lie there, unless a report was
 * lost). The sender re-sends the covered ones at once.
 */
static void build_nack(struct braid_mp *mp, struct braid_mp_msg *m)
{
	uint64_t hi = mp->ro.hi, lo = UINT64_MAX, pid;
	uint32_t bits, k;
	int i, any = 0;

	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		struct mp_rxp *rx = &mp->path[i].rx;

		if (!mp->path[i].used || !rx->pkts)
			continue;
		if (rx->rep_pid[0] < lo)
			lo = rx->rep_pid[0];
		rx->rep_pid[0] = rx->rep_pid[1];
		rx->rep_pid[1] = rx->last_pid;
	}
	if (lo == UINT64_MAX || !mp->ro.started || hi <= lo)
		return;
	bits = (uint32_t)((hi - lo + 7) & ~7ULL);
	if (bits > BRAID_MP_NACK_MAX_BITS)
		bits = BRAID_MP_NACK_MAX_BITS;
	memset(m->u.report.nack, 0, bits / 8);
	for (k = 0; k < bits && k < hi; k++) {
		pid = hi - 1 - k;
		if (mp_reorder_missing(&mp->ro, pid)) {
			m->u.report.nack[k / 8] |= (uint8_t)(0x80u >> (k % 8));
			any = 1;
		}
	}
	if (!any)
		return;
	m->u.report.nack_hi = hi;
	m->u.report.nack_bits = (uint16_t)bits;
}

static void send_report(struct braid_mp *mp, uint64_t now)
{
	struct braid_mp_msg m;
	int i, path = best_ctl_path(mp);

	if (path < 0)
		return;
	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_REPORT;
	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		struct mp_path *p = &mp->path[i];
		struct braid_mp_report_entry *e;

		if (!p->used || !p->rx.dirty || !p->peer_known)
			continue;
		e = &m.u.report.e[m.u.report.n++];
		e->path_id = p->peer_id;
		e->rx_pkts = p->rx.pkts;
		e->rx_bytes = p->rx.bytes;
		e->last_pid = p->rx.last_pid;
		if (p->rx.span_pkts > 1) {
			e->span_us = (uint32_t)(p->rx.span_last - p->rx.span_first);
			e->span_bytes = p->rx.span_bytes;
		}
		e->owd_min_us = p->rx.owd_min;
		e->owd_last_us = p->rx.owd_last;
		e->probe_seq_hi = p->rx.probe_hi;
		e->probes_lost = p->rx.probes_lost;
		p->rx.dirty = 0;
		p->rx.span_pkts = 0;
		p->rx.span_bytes = 0;
	}
	if (!m.u.report.n)
		return;
	if (mp->cfg.arq)
		build_nack(mp, &m);
	ctl_send(mp, path, &m, 0);
	/* A copy on the next-best path: if the best one just died, the
	 * sender still hears about the others and fails only the dead one. */
	path = second_ctl_path(mp, path);
	if (path >= 0)
		ctl_send(mp, path, &m, 0);
	(void)now;
}

static int any_rx_dirty(const struct braid_mp *mp)
{
	int i;

	for (i = 0; i < BRAID_MP_MAX_PATHS; i++)
		if (mp->path[i].used && mp->path[i].rx.dirty && mp->path[i].peer_known)
			return 1;
	return 0;
}

static uint64_t oldest_unacked(const struct braid_mp *mp, const struct mp_path *p)
{
	uint64_t t = p->oldest_probe ? p->oldest_probe : UINT64_MAX;

	if (p->sent_n) {
		const struct mp_sent *r = &p->sent[p->sent_head];

		(void)mp;
		if (r->tx_us < t)
			t = r->tx_us;
	}
	return t;
}

/* Adaptive reorder deadline: spread of the incoming paths' current one-way
 * delays plus twice their jitter plus 2 ms, capped. */
static uint64_t reorder_deadline(struct braid_mp *mp, uint64_t now)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	uint64_t jit = 0, d;
	int i, n = 0, unknown = 0;

	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		const struct mp_rxp *rx = &mp->path[i].rx;

		if (!mp->path[i].used || !rx->last_data_us || now - rx->last_data_us > BUSY_US)
			continue;
		n++;
		if (!rx->have_owd) {
			unknown = 1;
			continue;
		}
		if (rx->owd_s < lo)
			lo = rx->owd_s;
		if (rx->owd_s > hi)
			hi = rx->owd_s;
		if (rx->owd_var > jit)
			jit = rx->owd_var;
	}
	if (unknown && n > 1)
		d = mp->cfg.reorder_cap_us;
	else
		d = (n > 1 && hi > lo ? (uint64_t)(hi - lo) : 0) + 2 * jit + 2000;
	/* A path that carried data went silent: a cut, probably. Its packets
	 * come back as failover re-sends once the sender notices (2-3 probe
	 * intervals): hold gaps up to the cap meanwhile. */
	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		const struct mp_rxp *rx = &mp->path[i].rx;
		uint64_t quiet = 8 * rx->ia_us > SILENT_MIN_US ? 8 * rx->ia_us : SILENT_MIN_US;

		/* the sender's early check (suspect()) needs two probe
		 * intervals and a round trip or so; not longer */
		uint64_t until = quiet + 2 * mp->cfg.probe_busy_us + 2 * mp->path[i].est.srtt +
				 mp->cfg.report_max_us;

		if (mp->path[i].used && rx->last_data_us && now - rx->last_data_us > quiet &&
		    now - rx->last_data_us < until && n > 1)
			d = mp->cfg.reorder_cap_us;
	}
	if (mp->cfg.arq && n) {
		/* A NACKed packet comes back after a report interval and a
		 * round trip on the best path: wait that long for it. */
		uint64_t best = UINT64_MAX, arq;

		for (i = 0; i < BRAID_MP_MAX_PATHS; i++)
			if (mp_usable(&mp->path[i]) && mp->path[i].est.have_rtt &&
			    mp->path[i].est.srtt + mp->path[i].est.rttvar < best)
				best = mp->path[i].est.srtt + mp->path[i].est.rttvar;
		if (best != UINT64_MAX) {
			arq = best + report_interval(mp) + 2 * jit + 2000;
			if (arq > d)
				d = arq;
		}
	}
	if (d > mp->cfg.reorder_cap_us)
		d = mp->cfg.reorder_cap_us;
	mp->ro_deadline = d;
	return d;
}

/*
 * Early failure: the oldest packet on this path and two probes sent on it
 * since have gone unanswered for srtt + 4 rttvar + a report interval (at
 * least 50 ms for the packet) while the peer keeps reporting on other
 * paths. This catches a cut in about 2-3 probe intervals instead of the
 * 300 ms floor, before the inner TCP's RTO (>= 200 ms) fires; a lone lost
 * packet or probe is not enough. A false alarm costs a re-validation.
 */
static int suspect(const struct braid_mp *mp, const struct mp_path *p, uint64_t now)
{
	uint64_t oldest = p->sent[p->sent_head].tx_us, t;

	if (!p->est.have_rtt || !mp->last_report_us || !p->est.fail_armed ||
	    p->probes_unanswered < 2 || !p->oldest_probe)
		return 0;
	t = p->est.srtt + 4 * p->est.rttvar + report_interval(mp);
	if (now <= p->oldest_probe + t)
		return 0;
	if (t < SUSPECT_MIN_US)
		t = SUSPECT_MIN_US;
	return now > oldest + t && mp->last_report_us > oldest + p->est.srtt + p->est.rttvar;
}

static void run_timers(struct braid_mp *mp, uint64_t now)
{
	int i;

	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		struct mp_path *p = &mp->path[i];
		uint64_t old;

		if (!p->used)
			continue;
		if (p->chal_pending && !p->link_down && now >= p->chal_next) {
			struct braid_mp_msg m;

			memset(&m, 0, sizeof(m));
			m.type = BRAID_MP_MSG_PATH_CHALLENGE;
			m.path_id = (uint32_t)i;
			memcpy(m.u.token, p->token, sizeof(m.u.token));
			ctl_send(mp, i, &m, 0);
			send_status(mp, i, 1);
			p->chal_next = now + p->chal_backoff;
			p->chal_backoff = p->chal_backoff * 2 > IDLE_CHALLENGE_US ?
					  IDLE_CHALLENGE_US : p->chal_backoff * 2;
		}
		if (!mp_usable(p))
			continue;
		old = oldest_unacked(mp, p);
		if (old != UINT64_MAX && now >= old && now - old > fail_timeout(mp, p) &&
		    !pmtu_holds_failure(mp, p, now)) {
			path_fail(mp, p, now);
			continue;
		}
		if (p->sent_n && suspect(mp, p, now)) {
			p->c.suspects++;
			path_fail(mp, p, now);
			continue;
		}
		if (now >= p->probe_next) {
			send_probe(mp, i, now);
			if (p->status_left) {	/* a lost PATH_STATUS is repeated */
				p->status_left--;
				send_status(mp, i, 0);
			}
			p->probe_next = now + probe_interval(mp, p, now);
		}
		pmtu_timers(mp, i, now);
		mp_est_tick(&p->est, now);
		/* Lossy in steady state: degrade. A degraded path gets no data,
		 * so it is given another chance after DEGRADED_HOLD_US. */
		if (p->state != BRAID_MP_PATH_DEGRADED && p->est.phase == MP_PROBE_BW &&
		    p->est.loss_pm > mp->cfg.degraded_loss_pm) {
			p->state = BRAID_MP_PATH_DEGRADED;
			p->degraded_since = now;
		} else if (p->state == BRAID_MP_PATH_DEGRADED &&
			   now - p->degraded_since >= DEGRADED_HOLD_US) {
			p->est.loss_pm = 0;
			p->state = mp_backup(p) ? BRAID_MP_PATH_STANDBY : BRAID_MP_PATH_ACTIVE;
		}
	}
	if (any_rx_dirty(mp) && now >= mp->report_next) {
		send_report(mp, now);
		mp->report_next = now + report_interval(mp);
	}
	if (mp->cfg.sched == BRAID_MP_SCHED_MPIP) {
		if (!mp->mpip_next)
			mp->mpip_next = now + MP_MPIP_T_US;
		while (now >= mp->mpip_next) {
			mp_sched_mpip_step(mp);
			mp->mpip_next += MP_MPIP_T_US;
		}
	}
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
	run_timers(mp, now);
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
		e = ring_pop(prio ? &p->pq : &p->q);
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
		/* redundant: on a path slower than the fastest, a copy another
		 * path still holds is not judged (the delay budget at enqueue
		 * bounds that queue, docs/multipath.md §4) */
		if (mp->cfg.aqm_target_us && !p->aqm_off && !prio && !(e & MP_RESEND_BIT) &&
		    !s->sent && !(mp->cfg.sched == BRAID_MP_SCHED_REDUNDANT && s->refs > 1 &&
				  !mp_sched_fastest(mp, bi)) &&
		    mp_codel_judge(&p->codel, now, sojourn, p->q_bytes,
				   aqm_target(mp), mp->cfg.aqm_interval_us, mp->cfg.mtu)) {
			if (s->meta & BRAID_MP_META_ECT) {
				ce = 1;
				p->c.aqm_marks++;
				mp->st.aqm_marks++;
			} else {
				/* tell the receiver not to wait for this id */
				struct braid_mp_msg m;
				int cp = best_ctl_path(mp);

				p->c.aqm_drops++;
				mp->st.aqm_drops++;
				/* a redundant copy another path still holds: the
				 * receiver gets that one, no SKIP */
				if (cp >= 0 && !(mp->cfg.sched == BRAID_MP_SCHED_REDUNDANT &&
						 s->refs > 1)) {
					memset(&m, 0, sizeof(m));
					m.type = BRAID_MP_MSG_SKIP;
					m.path_id = (uint32_t)bi;
					m.u.skip_pid = s->pid;
					ctl_send(mp, cp, &m, 0);
				}
				slot_put(mp, idx, BRAID_MP_REL_AQM);
				continue;
			}
		}
		/* Idle for a while: the estimate is old and the traffic that
		 * starts now (a new download) needs the path's rate at once,
		 * not after probe cycles. Startup again, from bw. */
		if (p->last_data_tx && now - p->last_data_tx > restart_idle(p))
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
		if (p->probe_next > now + probe_interval(mp, p, now))
			p->probe_next = now + probe_interval(mp, p, now);
		p->c.tx_pkts++;
		p->c.tx_bytes += s->len;
		return 1;
	}
}

uint64_t braid_mp_next_deadline(struct braid_mp *mp, uint64_t now)
{
	uint64_t t = UINT64_MAX, x;
	int i;

	if (mp->ctl_n || mp->ro.ready_n)
		return now;
	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		struct mp_path *p = &mp->path[i];

		if (!p->used)
			continue;
		if (p->chal_pending && !p->link_down && p->chal_next < t)
			t = p->chal_next;
		if (!mp_usable(p))
			continue;
		if ((p->q.n || p->pq.n) && p->next_tx < t)
			t = p->next_tx;
		if (p->probe_next < t)
			t = p->probe_next;
		x = oldest_unacked(mp, p);
		if (x != UINT64_MAX && x + fail_timeout(mp, p) + 1 < t)
			t = x + fail_timeout(mp, p) + 1;
		x = mp_est_next_tick(&p->est);
		if (x < t)
			t = x;
		x = mp_pmtu_next(&p->pmtu, pmtu_pto(p));
		if (x < t)
			t = x;
		if (p->state == BRAID_MP_PATH_DEGRADED && p->degraded_since + DEGRADED_HOLD_US < t)
			t = p->degraded_since + DEGRADED_HOLD_US;
	}
	if (any_rx_dirty(mp) && mp->report_next < t)
		t = mp->report_next;
	if (mp->cfg.sched == BRAID_MP_SCHED_MPIP && mp->mpip_next && mp->mpip_next < t)
		t = mp->mpip_next;
	x = mp_reorder_next_expiry(&mp->ro, reorder_deadline(mp, now));
	if (x < t)
		t = x;
	return t < now ? now : t;
}

/* ---- receive ---- */

int braid_mp_rx_data(struct braid_mp *mp, uint64_t now, int path, uint64_t pid, void *ref,
		     uint32_t len)
{
	return braid_mp_rx_data_meta(mp, now, path, pid, ref, len, BRAID_MP_CLASS_BULK);
}

/* An arrival on a path, data or control, in the span of the next report:
 * the sender's pacer is charged the control bytes too, so the delivery
 * rate it is compared with must count them (a backlogged path otherwise
 * measures its pacing rate minus the control bytes, and cannot probe
 * above an estimate that is low). */
static void rx_span(struct mp_path *p, uint64_t now, uint32_t len)
{
	if (!p->rx.span_pkts && p->rx.span_last && now - p->rx.span_last < SPAN_JOIN_US) {
		/* continue from the last arrival of the previous interval: the
		 * spans of consecutive reports then add up to one long span,
		 * with the timing error of its two ends only */
		p->rx.span_first = p->rx.span_last;
		p->rx.span_pkts = 1;
	}
	if (!p->rx.span_pkts)
		p->rx.span_first = now;
	else
		p->rx.span_bytes += len;
	p->rx.span_last = now;
	p->rx.span_pkts++;
}

int braid_mp_rx_data_meta(struct braid_mp *mp, uint64_t now, int path, uint64_t pid, void *ref,
			  uint32_t len, unsigned int meta)
{
	struct mp_path *p = get_path(mp, path);
	int r;

	if (!p)
		return -ENOENT;
	if (mp->cfg.latency_classes && (meta & BRAID_MP_META_CLASS) != BRAID_MP_CLASS_BULK)
		r = mp_reorder_insert_now(&mp->ro, now, pid, ref, len);
	else
		r = mp_reorder_insert(&mp->ro, now, pid, ref, len);
	p->rx.pkts++;
	p->rx.bytes += len;
	p->rx.last_pid = pid;
	rx_span(p, now, len);
	p->rx.dirty = 1;
	if (p->rx.last_data_us && now - p->rx.last_data_us < BUSY_US)
		p->rx.ia_us = (7 * p->rx.ia_us + (now - p->rx.last_data_us)) / 8;
	p->rx.last_data_us = now;
	p->c.rx_pkts++;
	p->c.rx_bytes += len;
	if (!mp_usable(p))
		p->c.rx_unvalidated++;	/* delivered (authenticated), never validates */
	if (!mp->report_next || mp->report_next + mp->cfg.report_max_us < now)
		mp->report_next = now + report_interval(mp);
	return r;
}

static void on_probe(struct braid_mp *mp, uint64_t now, int i, const struct braid_mp_msg *m)
{
	struct mp_path *p = &mp->path[i];
	struct mp_rxp *rx = &p->rx;
	struct braid_mp_msg e;
	int64_t owd = (int64_t)(now - m->u.probe.tx_us);

	if (!rx->have_owd) {
		rx->owd_min = rx->owd_s = owd;
		rx->have_owd = 1;
	}
	if (owd < rx->owd_min)
		rx->owd_min = owd;
	rx->owd_var = (3 * rx->owd_var +
		       (uint64_t)(owd > rx->owd_s ? owd - rx->owd_s : rx->owd_s - owd)) / 4;
	rx->owd_s = (3 * rx->owd_s + owd) / 4;
	rx->owd_last = owd;
	if (rx->have_probe && m->u.probe.seq > rx->probe_hi + 1)
		rx->probes_lost += m->u.probe.seq - rx->probe_hi - 1;
	if (!rx->have_probe || m->u.probe.seq > rx->probe_hi)
		rx->probe_hi = m->u.probe.seq;
	rx->have_probe = 1;

	memset(&e, 0, sizeof(e));
	e.type = BRAID_MP_MSG_PROBE_ECHO;
	e.path_id = m->path_id;
	e.u.echo.seq = m->u.probe.seq;
	e.u.echo.tx_us = m->u.probe.tx_us;
	e.u.echo.owd_us = owd;
	ctl_send(mp, i, &e, now);
}

static void on_echo(struct braid_mp *mp, uint64_t now, int i, const struct braid_mp_msg *m)
{
	struct mp_path *p = &mp->path[i];
	uint64_t rtt;

	if (m->path_id != (uint32_t)i || !mp_usable(p) || m->u.echo.tx_us > now)
		return;
	rtt = now - m->u.echo.tx_us;
	rtt = rtt > m->u.echo.hold_us ? rtt - m->u.echo.hold_us : 1;
	mp_est_rtt(&p->est, rtt);
	mp_est_owd(&p->est, now, m->u.echo.owd_us);
	p->oldest_probe = 0;
	p->probes_unanswered = 0;
	p->c.echoes++;
	if (m->u.echo.tx_us > p->last_echo_tx)
		p->last_echo_tx = m->u.echo.tx_us;
}

/* Did the peer's NACK name pid as missing? */
static int nacked(const struct braid_mp_msg *m, uint64_t pid)
{
	uint64_t k;

	if (!m->u.report.nack_bits || pid >= m->u.report.nack_hi)
		return 0;
	k = m->u.report.nack_hi - 1 - pid;
	if (k >= m->u.report.nack_bits)
		return 0;
	return (m->u.report.nack[k / 8] >> (7 - k % 8)) & 1;
}

/* ARQ: a packet lost on path from re-sent ahead of bulk on the path with
 * the earliest arrival (possibly the same one). Too old to still fill a
 * gap in the peer's reorder buffer: given up. */
static void arq_resend(struct braid_mp *mp, uint64_t now, struct mp_path *from, uint32_t idx)
{
	struct mp_slot *s = &mp->slots[idx];
	uint32_t mask;

	if (mp->cfg.sched == BRAID_MP_SCHED_REDUNDANT ||
	    now - s->enq_us > 2ULL * mp->cfg.reorder_cap_us) {
		slot_put(mp, idx, BRAID_MP_REL_DONE);
		return;
	}
	mask = mp_sched_pick(mp, now, s->len, BRAID_MP_CLASS_SMALL);
	if (!mask) {
		slot_put(mp, idx, BRAID_MP_REL_NOPATH);
		return;
	}
	from->arq_resent++;
	enqueue_on(mp, __builtin_ctz(mask), idx, MP_RESEND_BIT);
	slot_put(mp, idx, BRAID_MP_REL_DONE);	/* the record's reference */
}

static void on_report_entry(struct braid_mp *mp, uint64_t now, const struct braid_mp_msg *m,
			    const struct braid_mp_report_entry *e)
{
	uint32_t cap = mp->cfg.retain_pkts, k, n = 0, delivered, lost = 0;
	struct mp_path *p;
	uint64_t newest = 0;
	int al = 1, found = 0, new_round = 0, big_lost = 0, big_ok = 0;

	if (e->path_id >= BRAID_MP_MAX_PATHS)
		return;
	p = &mp->path[e->path_id];
	if (!mp_usable(p))
		return;
	if (p->have_report && (int32_t)(e->rx_pkts - p->last_rx_pkts) < 0)
		return;	/* an older copy (reports are sent on two paths) */
	for (k = 0; k < p->sent_n; k++)
		if (sent_at(p, cap, k)->pid == e->last_pid) {
			found = 1;
			n = k + 1;
			break;
		}
	if (found) {
		delivered = p->have_report ? e->rx_pkts - p->last_rx_pkts : n;
		if (n > delivered)
			lost = n - delivered;
		/* The span may start at the previous report's last arrival
		 * (joined, see braid_mp_rx_data_meta): it measured the path
		 * only if the queue was backlogged after that packet too.
		 * Without this, one packet sent after an app-limited pause
		 * reads the pause as the path's rate and, once the window of
		 * the max filter has run out, resets the estimate to it. */
		al = p->prev_al;
		for (k = 0; k < n; k++) {
			struct mp_sent *r = sent_at(p, cap, 0);

			al |= r->al;
			p->prev_al = r->al;
			newest = r->tx_us;
			p->sent_head = (p->sent_head + 1) & (cap - 1);
			p->sent_n--;
			if (mp->cfg.arq && lost && nacked(m, r->pid)) {
				big_lost += r->len > p->pmtu.low;
				arq_resend(mp, now, p, r->slot);
			} else {
				big_ok += r->len > p->pmtu.low;
				slot_put(mp, r->slot, BRAID_MP_REL_DONE);
			}
		}
		/* Big packets lost, smaller ones (the last one at least) passed:
		 * maybe the path's MTU went down. A probe of mtu bytes tells. */
		if (big_lost >= 2 && !big_ok)
			mp_pmtu_suspect(&p->pmtu, now);
		if (newest >= p->est.round_start) {
			new_round = 1;
			p->est.round_start = now;
		}
		mp_est_loss(&p->est, n, lost);
		p->c.lost_pkts += lost;
	} else if (!p->have_report || e->rx_pkts != p->last_rx_pkts) {
		/* new arrivals, but which packets they were is not known (the
		 * second copy of a report changes nothing) */
		p->prev_al = 1;
	}
	p->last_rx_pkts = e->rx_pkts;
	p->have_report = 1;
	if (e->probe_seq_hi != p->last_probe_hi) {
		p->last_probe_hi = e->probe_seq_hi;
		p->oldest_probe = 0;	/* the path delivers probes: alive */
		p->probes_unanswered = 0;
	}
	p->c.probes_lost_peer = e->probes_lost;
	if (e->span_us && e->span_bytes) {
		p->agg_bytes += e->span_bytes;
		p->agg_us += e->span_us;
		p->agg_al |= al || !found;
		p->agg_round |= new_round;
	} else if (new_round) {
		p->agg_round = 1;
	}
	if (p->agg_us >= rate_span_min(p)) {
		mp_est_rate(&p->est, now, p->agg_bytes * 8000000ULL / p->agg_us, p->agg_al,
			    p->agg_round);
		p->agg_bytes = p->agg_us = 0;
		p->agg_al = p->agg_round = 0;
	}
}

static int ct_equal(const uint8_t *a, const uint8_t *b, size_t n)
{
	uint8_t d = 0;
	size_t i;

	for (i = 0; i < n; i++)
		d |= a[i] ^ b[i];
	return d == 0;
}

int braid_mp_rx_control(struct braid_mp *mp, uint64_t now, int path, uint64_t pid,
			const uint8_t *buf, size_t len)
{
	struct mp_path *p = get_path(mp, path);
	struct braid_mp_msg m, r;
	int ret, i;

	if (!p)
		return -ENOENT;
	ret = braid_mp_msg_parse(buf, len, &m);
	if (ret) {
		mp->st.ctl_bad++;
		return ret;
	}
	mp->st.ctl_rx++;
	mp_reorder_filler(&mp->ro, now, pid);
	/* counted in the delivery rate only while data flows on the path (a
	 * report carries a span only then); an idle path's control messages
	 * would otherwise open spans that the next data joins */
	if (p->rx.last_data_us && now - p->rx.last_data_us < SPAN_JOIN_US)
		rx_span(p, now, (uint32_t)len);

	switch (m.type) {
	case BRAID_MP_MSG_PROBE:
		p->peer_id = m.path_id;
		p->peer_known = 1;
		on_probe(mp, now, path, &m);
		break;
	case BRAID_MP_MSG_PROBE_ECHO:
		on_echo(mp, now, path, &m);
		break;
	case BRAID_MP_MSG_REPORT:
		mp->last_report_us = now;
		for (i = 0; i < m.u.report.n; i++)
			on_report_entry(mp, now, &m, &m.u.report.e[i]);
		break;
	case BRAID_MP_MSG_PATH_CHALLENGE:
		p->peer_id = m.path_id;
		p->peer_known = 1;
		memset(&r, 0, sizeof(r));
		r.type = BRAID_MP_MSG_PATH_RESPONSE;
		r.path_id = m.path_id;
		memcpy(r.u.token, m.u.token, sizeof(r.u.token));
		ctl_send(mp, path, &r, 0);
		memset(&r, 0, sizeof(r));
		send_status(mp, path, 1);
		break;
	case BRAID_MP_MSG_PATH_STATUS:
		p->status_rx++;
		if (p->peer_slot != m.u.status.slot ||
		    ((p->peer_flags ^ m.u.status.flags) & BRAID_MP_STATUS_F_BACKUP)) {
			p->peer_slot = m.u.status.slot;
			p->peer_flags = m.u.status.flags & BRAID_MP_STATUS_F_BACKUP;
			backup_changed(mp, p);
		}
		break;
	case BRAID_MP_MSG_PATH_RESPONSE:
		if (!p->chal_pending || mp_usable(p)) {
			p->c.unsolicited_resp++;
		} else if (m.path_id != (uint32_t)path ||
			   !ct_equal(m.u.token, p->token, sizeof(p->token))) {
			p->c.bad_token++;
		} else {
			path_validated(mp, p, path, now);
		}
		break;
	case BRAID_MP_MSG_SKIP:
		mp_reorder_filler(&mp->ro, now, m.u.skip_pid);
		break;
	case BRAID_MP_MSG_MTU_PROBE:
		/* answered on the path it came by, in any state, like a challenge */
		memset(&r, 0, sizeof(r));
		r.type = BRAID_MP_MSG_MTU_ACK;
		r.path_id = m.path_id;
		r.u.mtu.seq = m.u.mtu.seq;
		r.u.mtu.size = m.u.mtu.size;
		ctl_send(mp, path, &r, 0);
		break;
	case BRAID_MP_MSG_MTU_ACK:
		if (m.path_id == (uint32_t)path && mp_usable(p))
			mp_pmtu_ack(&p->pmtu, now, m.u.mtu.seq, m.u.mtu.size, mp->cfg.pmtu_raise_us);
		break;
	case BRAID_MP_MSG_PATH_CLOSE:
		for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
			struct mp_path *q = &mp->path[i];

			if (q->used && q->peer_known && q->peer_id == m.path_id && mp_usable(q)) {
				path_fail(mp, q, now);
				q->chal_backoff = IDLE_CHALLENGE_US;
				q->chal_next = now + IDLE_CHALLENGE_US;
			}
		}
		break;
	}
	memset(&m, 0, sizeof(m));
	return 0;
}

int braid_mp_poll_rx(struct braid_mp *mp, uint64_t now, struct braid_mp_rx *out)
{
	struct mp_ro_out o;

	mp_reorder_expire(&mp->ro, now, reorder_deadline(mp, now));
	if (!mp_reorder_pop(&mp->ro, now, &o))
		return 0;
	out->ref = o.ref;
	out->len = o.len;
	out->pid = o.pid;
	out->held_us = now - o.arr_us;
	return 1;
}

/* ---- stats ---- */

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
