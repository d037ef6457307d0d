// SPDX-License-Identifier: GPL-2.0-only
/*
 * mp_rx.c - the receive side: data packets (per-path receive state and
 * the reorder buffer, braid_mp_poll_rx) and the engine's control messages
 * (PATH_CHALLENGE / RESPONSE, PROBE / ECHO, REPORT with ARQ re-send,
 * SKIP, MTU_PROBE / ACK, PATH_STATUS).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mp.h"
#include "mp_int.h"
#include "mp_path.h"
#include "mp_queue.h"
#include "mp_rx.h"
#include "mp_sched.h"
#include "mp_timer.h"

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
	struct mp_path *p = mp_get_path(mp, path);
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
		mp->report_next = now + mp_timer_report_interval(mp);
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
	mp_ctl_send(mp, i, &e, now);
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
		mp_slot_put(mp, idx, BRAID_MP_REL_DONE);
		return;
	}
	mask = mp_sched_pick(mp, now, s->len, BRAID_MP_CLASS_SMALL);
	if (!mask) {
		mp_slot_put(mp, idx, BRAID_MP_REL_NOPATH);
		return;
	}
	from->arq_resent++;
	mp_enqueue_on(mp, __builtin_ctz(mask), idx, MP_RESEND_BIT);
	mp_slot_put(mp, idx, BRAID_MP_REL_DONE);	/* the record's reference */
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
		if (mp_sent_at(p, cap, k)->pid == e->last_pid) {
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
			struct mp_sent *r = mp_sent_at(p, cap, 0);

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
				mp_slot_put(mp, r->slot, BRAID_MP_REL_DONE);
			}
		}
		/* Big packets lost, smaller ones (the last one at least) passed:
		 * maybe the path's MTU went down. A probe of mtu bytes tells. */
		if (big_lost >= 2 && !big_ok)
			mp_pmtu_suspect(&p->pmtu, now);
		if (n && newest > p->acked_tx)
			p->acked_tx = newest;
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
	struct mp_path *p = mp_get_path(mp, path);
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
		mp_ctl_send(mp, path, &r, 0);
		memset(&r, 0, sizeof(r));
		mp_send_status(mp, path, 1);
		break;
	case BRAID_MP_MSG_PATH_STATUS:
		p->status_rx++;
		if (p->peer_slot != m.u.status.slot ||
		    ((p->peer_flags ^ m.u.status.flags) & BRAID_MP_STATUS_F_BACKUP)) {
			p->peer_slot = m.u.status.slot;
			p->peer_flags = m.u.status.flags & BRAID_MP_STATUS_F_BACKUP;
			mp_backup_changed(mp, p);
		}
		break;
	case BRAID_MP_MSG_PATH_RESPONSE:
		if (!p->chal_pending || mp_usable(p)) {
			p->c.unsolicited_resp++;
		} else if (m.path_id != (uint32_t)path ||
			   !ct_equal(m.u.token, p->token, sizeof(p->token))) {
			p->c.bad_token++;
		} else {
			mp_path_validated(mp, p, path, now);
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
		mp_ctl_send(mp, path, &r, 0);
		break;
	case BRAID_MP_MSG_MTU_ACK:
		if (m.path_id == (uint32_t)path && mp_usable(p))
			mp_pmtu_ack(&p->pmtu, now, m.u.mtu.seq, m.u.mtu.size, mp->cfg.pmtu_raise_us);
		break;
	case BRAID_MP_MSG_PATH_CLOSE:
		for (i = 0; i < BRAID_MP_MAX_PATHS; i++) {
			struct mp_path *q = &mp->path[i];

			if (q->used && q->peer_known && q->peer_id == m.path_id && mp_usable(q)) {
				mp_path_fail(mp, q, now);
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

	mp_reorder_expire(&mp->ro, now, mp_timer_reorder_deadline(mp, now));
	if (!mp_reorder_pop(&mp->ro, now, &o))
		return 0;
	out->ref = o.ref;
	out->len = o.len;
	out->pid = o.pid;
	out->held_us = now - o.arr_us;
	return 1;
}
