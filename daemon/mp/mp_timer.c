// SPDX-License-Identifier: GPL-2.0-only
/*
 * mp_timer.c - the engine's clocks: REPORT messages (with their NACK
 * tail) and their interval, the adaptive reorder deadline, the periodic
 * timers (validation retries, probes, failure and degradation detection,
 * MPIP steps) and braid_mp_next_deadline.
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

#define THIN_PKTS 32	/* data packets a second below which a session's probes follow its data */
#define DEGRADED_HOLD_US 2000000
#define SUSPECT_MIN_US 50000
#define SUSPECT_PROBES 3	/* unanswered probes in a row (2 died together on a lossy path) */
#define PROBE_RETRY_MIN_US 50000
#define SILENT_MIN_US 10000
#define OUTPACED_PKTS 8		/* data packets in a row that must have died */
#define OUTPACED_MIN_US 5000

uint64_t mp_timer_report_interval(const struct braid_mp *mp)
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
	int i, path = mp_best_ctl_path(mp);

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
	mp_ctl_send(mp, path, &m, 0);
	/* A copy on the next-best path: if the best one just died, the
	 * sender still hears about the others and fails only the dead one. */
	path = mp_second_ctl_path(mp, path);
	if (path >= 0)
		mp_ctl_send(mp, path, &m, 0);
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
uint64_t mp_timer_reorder_deadline(struct braid_mp *mp, uint64_t now)
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
			arq = best + mp_timer_report_interval(mp) + 2 * jit + 2000;
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
 * The last packets sent on a path were lost and nothing followed them but
 * probes, which came back: no REPORT will ever cover them (a report names
 * the last packet that arrived), and they used to fail a working path after
 * the failure timeout. They are lost, not the path. Packets above the MTU
 * floor are left to the black-hole check (mp_probe.c).
 */
static void tail_lost(struct braid_mp *mp, struct mp_path *p, uint64_t now)
{
	uint32_t cap = mp->cfg.retain_pkts;

	while (p->sent_n) {
		struct mp_sent *r = mp_sent_at(p, cap, 0);

		if (r->tx_us >= p->last_echo_tx ||
		    now <= r->tx_us + p->est.srtt + 4 * p->est.rttvar + mp->cfg.report_max_us ||
		    (p->pmtu.state != MP_PMTU_OFF && r->len > p->pmtu.low))
			return;
		p->sent_head = (p->sent_head + 1) & (cap - 1);
		p->sent_n--;
		p->c.lost_pkts++;
		mp_slot_put(mp, r->slot, BRAID_MP_REL_DONE);
	}
}

/* an unanswered probe is overdue after this long */
static uint64_t probe_retry_after(const struct mp_path *p)
{
	uint64_t t = p->est.srtt + 4 * p->est.rttvar;

	return t > PROBE_RETRY_MIN_US ? t : PROBE_RETRY_MIN_US;
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
	    p->probes_unanswered < SUSPECT_PROBES || !p->oldest_probe)
		return 0;
	t = p->est.srtt + 4 * p->est.rttvar + mp_timer_report_interval(mp);
	if (now <= p->oldest_probe + t)
		return 0;
	if (t < SUSPECT_MIN_US)
		t = SUSPECT_MIN_US;
	return now > oldest + t && mp->last_report_us > oldest + p->est.srtt + p->est.rttvar;
}

/*
 * Outpaced: this path is silent while another path delivers newer data.
 * The peer's REPORTs cover, on another path q, a packet sent after the
 * oldest unacknowledged packet on this path by more than the paths' delay
 * difference plus this path's jitter, and OUTPACED_PKTS packets sent on
 * this path before that point are all unacknowledged: every one of them
 * should have arrived before q's did (paths are FIFO when paced), and a
 * REPORT names the last packet that arrived on each path. OUTPACED_PKTS in
 * a row do not die on a lossy path that still works (Gilbert-Elliott at 7 %
 * loses 8 in a row about once in 10^8 packets), so this catches a cut
 * within a report interval or two of a packet of the other path, at any
 * RTT, without waiting for probes.
 */
static int outpaced(struct braid_mp *mp, struct mp_path *p, uint64_t now)
{
	uint32_t cap = mp->cfg.retain_pkts, k, n = 0;
	uint64_t oldest, lim = 0, d;
	int i;

	/* not in startup: its pacing overshoots and the path's own queue,
	 * not a cut, can delay its packets behind the other paths' */
	if (!p->est.have_rtt || !p->est.fail_armed || p->est.phase != MP_PROBE_BW ||
	    p->sent_n < OUTPACED_PKTS)
		return 0;
	oldest = mp_sent_at(p, cap, 0)->tx_us;
	if (p->last_echo_tx > oldest)
		return 0;	/* a probe sent after it came back: the path works */
	/* and a probe is overdue too: a path whose own queue grew faster than
	 * its rttvar (the backup scheduler's only busy path, daemon.mp_sched)
	 * delays its data, not its probes' answers beyond srtt + 4 rttvar */
	if (!p->oldest_probe || now < p->oldest_probe + p->est.srtt + 4 * p->est.rttvar)
		return 0;
	if (now < oldest + OUTPACED_MIN_US || now < oldest + p->est.srtt + 4 * p->est.rttvar)
		return 0;
	for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
		const struct mp_path *q = &mp->path[i];

		if (q == p || !mp_usable(q) || !q->est.have_rtt || q->acked_tx <= oldest)
			continue;
		d = p->est.srtt > q->est.srtt ? (p->est.srtt - q->est.srtt) / 2 : 0;
		d += 4 * p->est.rttvar + PACE_SLACK_US;
		if (q->acked_tx > oldest + d && q->acked_tx - d > lim)
			lim = q->acked_tx - d;
	}
	if (!lim)
		return 0;
	for (k = 0; k < p->sent_n && n < OUTPACED_PKTS; k++) {
		if (mp_sent_at(p, cap, k)->tx_us > lim)
			break;
		n++;
	}
	return n >= OUTPACED_PKTS;
}

void mp_timer_run(struct braid_mp *mp, uint64_t now)
{
	int thin;
	int i;

	if (now - mp->data_win_start >= 1000000u) {
		mp->data_prev_win = mp->data_tx - mp->data_win_mark;
		mp->data_win_mark = mp->data_tx;
		mp->data_win_start = now;
	}
	/* thin: the last full second carried some data but fewer than THIN_PKTS, and this one so far
	 * too (a session starting from idle is not thin in its first second) */
	thin = mp->data_prev_win && mp->data_prev_win < THIN_PKTS && mp->data_tx - mp->data_win_mark < THIN_PKTS;

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
			mp_ctl_send(mp, i, &m, 0);
			mp_send_status(mp, i, 1);
			p->chal_next = now + p->chal_backoff;
			p->chal_backoff = p->chal_backoff * 2 > IDLE_CHALLENGE_US ?
					  IDLE_CHALLENGE_US : p->chal_backoff * 2;
		}
		if (!mp_usable(p))
			continue;
		old = oldest_unacked(mp, p);
		/* One lost probe on an idle path (probes every second) does not
		 * fail it: an overdue probe is followed by another one at once,
		 * and the path fails when SUSPECT_PROBES in a row go unanswered
		 * for the failure timeout (or its data does). */
		if (p->oldest_probe && p->probes_unanswered < SUSPECT_PROBES &&
		    now - p->oldest_probe > probe_retry_after(p) && p->probe_next > now + PACE_SLACK_US &&
		    now - p->last_probe_tx > probe_retry_after(p))
			p->probe_next = now;
		if (old != UINT64_MAX && now >= old && now - old > mp_fail_timeout(mp, p) &&
		    (p->sent_n || p->probes_unanswered > SUSPECT_PROBES) &&
		    !mp_probe_pmtu_holds(mp, p, now)) {
			mp_path_fail(mp, p, now);
			continue;
		}
		if (p->sent_n && (outpaced(mp, p, now) || suspect(mp, p, now))) {
			p->c.suspects++;
			mp_path_fail(mp, p, now);
			continue;
		}
		/* A thin session's busy probes follow its data: a path's next probe waits while the
		 * session sent no data packet (on any path) since this path's last one, up to the idle
		 * interval, unless a probe is unanswered (the retries above) or a PATH_STATUS is to be
		 * repeated. A keepalive-paced or VoIP-like session (fewer than THIN_PKTS data packets
		 * in this second and the last) is then probed about as often as it sends, not every
		 * few ms for a second after each packet: at 10,000 sessions that was ~40 probes per
		 * data packet (docs/scaling.md). A bulk session is never thin, so its probing (and
		 * with it failover) is unchanged, stalls included. */
		if (now >= p->probe_next && thin && mp->data_tx == p->data_at_probe && p->last_probe_tx &&
		    now - p->last_probe_tx < mp->cfg.probe_idle_us && !p->oldest_probe && !p->status_left) {
			p->probe_next = p->last_probe_tx + mp->cfg.probe_idle_us;
		} else if (now >= p->probe_next) {
			mp_probe_send(mp, i, now);
			if (p->status_left) {	/* a lost PATH_STATUS is repeated */
				p->status_left--;
				mp_send_status(mp, i, 0);
			}
			p->probe_next = now + mp_probe_interval(mp, p, now);
		}
		mp_probe_pmtu_timers(mp, i, now);
		tail_lost(mp, p, now);
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
		mp->report_next = now + mp_timer_report_interval(mp);
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
		if (x != UINT64_MAX && x + mp_fail_timeout(mp, p) + 1 < t)
			t = x + mp_fail_timeout(mp, p) + 1;
		x = mp_est_next_tick(&p->est);
		if (x < t)
			t = x;
		x = mp_pmtu_next(&p->pmtu, mp_probe_pmtu_pto(p));
		if (x < t)
			t = x;
		if (p->state == BRAID_MP_PATH_DEGRADED && p->degraded_since + DEGRADED_HOLD_US < t)
			t = p->degraded_since + DEGRADED_HOLD_US;
	}
	if (any_rx_dirty(mp) && mp->report_next < t)
		t = mp->report_next;
	if (mp->cfg.sched == BRAID_MP_SCHED_MPIP && mp->mpip_next && mp->mpip_next < t)
		t = mp->mpip_next;
	x = mp_reorder_next_expiry(&mp->ro, mp_timer_reorder_deadline(mp, now));
	if (x < t)
		t = x;
	return t < now ? now : t;
}
