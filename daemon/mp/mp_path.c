// SPDX-License-Identifier: GPL-2.0-only
/*
 * mp_path.c - paths and their state machine: add, find, set flags / cap /
 * slot, link events, delete, validation (challenge / response), failure
 * (with the re-send of what was in flight), the PATH_STATUS message, and
 * which path carries control messages.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mp.h"
#include "mp_int.h"
#include "mp_path.h"
#include "mp_queue.h"
#include "mp_sched.h"

#define STATUS_REPEATS 3	/* a PATH_STATUS is repeated with this many probes */

struct mp_path *mp_get_path(struct braid_mp *mp, int i)
{
	if (i < 0 || i >= BRAID_MP_MAX_PATHS || !mp->path[i].used)
		return NULL;
	return &mp->path[i];
}

uint64_t mp_fail_timeout(const struct braid_mp *mp, const struct mp_path *p)
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
void mp_send_status(struct braid_mp *mp, int i, int repeat)
{
	struct mp_path *p = &mp->path[i];
	struct braid_mp_msg m;

	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_PATH_STATUS;
	m.path_id = (uint32_t)i;
	m.u.status.slot = p->slot;
	m.u.status.flags = (p->flags & BRAID_MP_PATH_F_BACKUP) ? BRAID_MP_STATUS_F_BACKUP : 0;
	mp_ctl_send(mp, i, &m, 0);
	p->status_sent++;
	if (repeat)
		p->status_left = STATUS_REPEATS;
}

/* Backup flags of either side changed: ACTIVE <-> STANDBY. */
void mp_backup_changed(struct braid_mp *mp, struct mp_path *p)
{
	if (p->state == BRAID_MP_PATH_ACTIVE && mp_backup(p))
		p->state = BRAID_MP_PATH_STANDBY;
	else if (p->state == BRAID_MP_PATH_STANDBY && !mp_backup(p))
		p->state = BRAID_MP_PATH_ACTIVE;
	mp_sched_reweigh(mp);
}

int braid_mp_path_set(struct braid_mp *mp, int path, unsigned int flags, uint64_t cap_bps)
{
	struct mp_path *p = mp_get_path(mp, path);
	unsigned int old;

	if (!p)
		return -ENOENT;
	old = p->flags;
	p->flags = flags & ~BRAID_MP_PATH_F_LEARNED;
	p->cap_bps = cap_bps;
	if ((old ^ p->flags) & BRAID_MP_PATH_F_BACKUP) {
		mp_backup_changed(mp, p);
		/* like MPTCP's MP_PRIO: the peer learns it at once (and
		 * again with the next probe, in case this one is lost) */
		mp_send_status(mp, path, 1);
	}
	return 0;
}

int braid_mp_path_set_slot(struct braid_mp *mp, int path, unsigned int slot)
{
	struct mp_path *p = mp_get_path(mp, path);

	if (!p)
		return -ENOENT;
	if (slot > BRAID_MP_SLOT_NONE)
		return -EINVAL;
	if (p->slot == slot)
		return 0;
	p->slot = (uint8_t)slot;
	mp_sched_reweigh(mp);
	mp_send_status(mp, path, 1);	/* now and with the next probe */
	return 0;
}

int braid_mp_path_set_weight(struct braid_mp *mp, int path, uint32_t weight)
{
	struct mp_path *p = mp_get_path(mp, path);

	if (!p)
		return -ENOENT;
	if (weight > BRAID_MP_WEIGHT_MAX && weight != BRAID_MP_WEIGHT_NONE &&
	    weight != BRAID_MP_WEIGHT_SPARE)
		return -EINVAL;
	if (weight == BRAID_MP_WEIGHT_NONE ? !p->has_weight : p->has_weight && p->weight == weight)
		return 0;
	p->has_weight = weight != BRAID_MP_WEIGHT_NONE;
	p->weight = p->has_weight ? weight : 0;
	mp_sched_reweigh(mp);
	return 0;
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

/* The control packet-ids sent on a failed path since its oldest
 * unacknowledged packet or probe died with it, and the peer's reorder buffer
 * would hold every later packet behind them until its deadline (the cap
 * while the path is silent): tell it to skip them, on a live path. A SKIP
 * for an id that did arrive is dropped as a duplicate. */
static void skip_dead_ctl(struct braid_mp *mp, struct mp_path *p, uint64_t since)
{
	uint32_t n = p->ctl_pid_n < MP_CTL_PIDS ? p->ctl_pid_n : MP_CTL_PIDS, i;
	int cp = mp_best_ctl_path(mp);

	if (cp < 0)
		return;
	for (i = 0; i < n; i++) {
		uint32_t k = (p->ctl_pid_n - 1 - i) % MP_CTL_PIDS;
		struct braid_mp_msg m;

		if (p->ctl_tx[k] < since)
			continue;
		memset(&m, 0, sizeof(m));
		m.type = BRAID_MP_MSG_SKIP;
		m.path_id = (uint32_t)(p - mp->path);
		m.u.skip_pid = p->ctl_pid[k];
		mp_ctl_send(mp, cp, &m, 0);
		p->c.ctl_skipped++;
	}
	p->ctl_pid_n = 0;
}

/* Stop using a path: everything queued for it or unacknowledged on it goes
 * to live paths (the receiver drops the copies that did arrive). */
void mp_path_fail(struct braid_mp *mp, struct mp_path *p, uint64_t now)
{
	uint32_t cap = mp->cfg.retain_pkts;
	uint64_t since = p->oldest_probe ? p->oldest_probe : now;

	if (p->est.phase != MP_STARTUP || p->est.rounds)
		p->bw_before_fail = p->est.bw_bps;
	if (p->sent_n && p->sent[p->sent_head].tx_us < since)
		since = p->sent[p->sent_head].tx_us;
	/* what was sent shortly before may have died too (a path that
	 * carried little data); a SKIP for an id that arrived is harmless */
	since = since > p->est.srtt + 4 * p->est.rttvar ? since - p->est.srtt - 4 * p->est.rttvar : 0;
	p->state = BRAID_MP_PATH_FAILED;
	p->c.failures++;
	p->c.last_fail_us = now;
	p->oldest_probe = 0;
	skip_dead_ctl(mp, p, since);
	mp_pmtu_stop(&p->pmtu);
	while (p->sent_n) {
		struct mp_sent *r = mp_sent_at(p, cap, 0);

		p->sent_head = (p->sent_head + 1) & (cap - 1);
		p->sent_n--;
		p->c.resent_pkts++;
		mp_reschedule(mp, now, r->slot, MP_RESEND_BIT);
	}
	while (p->pq.n || p->q.n) {
		uint32_t e = mp_ring_pop(p->pq.n ? &p->pq : &p->q);

		p->q_bytes -= mp->slots[e & ~MP_RESEND_BIT].len;
		p->pq_bytes = p->pq.n ? p->pq_bytes - mp->slots[e & ~MP_RESEND_BIT].len : 0;
		mp_reschedule(mp, now, e & ~MP_RESEND_BIT, e & MP_RESEND_BIT);
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
	struct mp_path *p = mp_get_path(mp, path);

	if (!p)
		return -ENOENT;
	if (!up) {
		p->link_down = 1;
		p->chal_pending = 0;
		if (p->state != BRAID_MP_PATH_FAILED && p->state != BRAID_MP_PATH_PROBING)
			mp_path_fail(mp, p, now);
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
	struct mp_path *p = mp_get_path(mp, path);
	struct braid_mp_msg m;

	if (!p)
		return -ENOENT;
	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_PATH_CLOSE;
	m.path_id = (uint32_t)path;
	if (!p->link_down)
		mp_ctl_send(mp, path, &m, 0);
	p->link_down = 1;
	mp_path_fail(mp, p, now);
	p->chal_pending = 0;
	memset(p->token, 0, sizeof(p->token));
	p->used = 0;
	return 0;
}

void mp_path_validated(struct braid_mp *mp, struct mp_path *p, int i, uint64_t now)
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

/* Control traffic goes on the path with the lowest delay. */
int mp_best_ctl_path(const struct braid_mp *mp)
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

int mp_second_ctl_path(const struct braid_mp *mp, int first)
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
