// SPDX-License-Identifier: GPL-2.0-only
/*
 * mp_probe.c - probing a path: keep-alive / delay probes and their
 * interval, and the per-path MTU search (MTU_PROBE, its timers, shrinking
 * the path MTU when big packets go unanswered).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mp.h"
#include "mp_int.h"
#include "mp_path.h"
#include "mp_probe.h"
#include "mp_queue.h"

#define STARTUP_PROBE_US 5000

void mp_probe_send(struct braid_mp *mp, int i, uint64_t now)
{
	struct mp_path *p = &mp->path[i];
	struct braid_mp_msg m;

	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_PROBE;
	m.path_id = (uint32_t)i;
	m.u.probe.seq = ++p->probe_seq;
	m.u.probe.tx_us = now;
	mp_ctl_send(mp, i, &m, 0);
	p->c.probes_sent++;
	p->probes_unanswered++;
	p->last_probe_tx = now;
	p->data_at_probe = mp->data_tx;
	if (!p->oldest_probe)
		p->oldest_probe = now;
}

/* An MTU_PROBE of size bytes in all (padded with zeros in pop_ctl). */
static void send_mtu_probe(struct braid_mp *mp, int i, uint64_t now, uint32_t size)
{
	struct mp_path *p = &mp->path[i];
	struct braid_mp_msg m;
	struct mp_ctl *c;

	if (size < BRAID_MP_MTU_HDR_LEN || size > BRAID_MP_CTL_MAX)
		return;
	c = mp_ctl_new(mp, i);
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

uint64_t mp_probe_pmtu_pto(const struct mp_path *p)
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
		struct mp_sent *r = mp_sent_at(p, cap, k);

		if (r->len > mtu) {
			p->c.resent_pkts++;
			mp_reschedule(mp, now, r->slot, MP_RESEND_BIT);
			continue;
		}
		if (w != k)
			*mp_sent_at(p, cap, w) = *r;
		w++;
	}
	p->sent_n = w;
	for (j = 0; j < 2; j++) {
		n = rings[j]->n;
		for (k = 0; k < n; k++) {
			uint32_t e = mp_ring_pop(rings[j]), idx = e & ~MP_RESEND_BIT;

			if (mp->slots[idx].len <= mtu) {
				mp_ring_push(rings[j], e);
				continue;
			}
			p->q_bytes -= mp->slots[idx].len;
			if (j == 0)
				p->pq_bytes -= mp->slots[idx].len;
			mp_reschedule(mp, now, idx, e & MP_RESEND_BIT);
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

void mp_probe_pmtu_timers(struct braid_mp *mp, int i, uint64_t now)
{
	struct mp_path *p = &mp->path[i];
	uint32_t size;

	if (p->pmtu.state == MP_PMTU_OFF)
		return;
	if (mp_pmtu_timeout(&p->pmtu, now, mp_probe_pmtu_pto(p), mp->cfg.pmtu_raise_us))
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
int mp_probe_pmtu_holds(const struct braid_mp *mp, const struct mp_path *p, uint64_t now)
{
	return p->pmtu.confirm &&
	       now - p->pmtu.confirm_us <= (MP_PMTU_CONFIRM_TRIES + 1) * mp_probe_pmtu_pto(p) &&
	       (!p->oldest_probe || now - p->oldest_probe <= mp_fail_timeout(mp, p));
}

void braid_mp_ctl_sent(struct braid_mp *mp, uint64_t pid)
{
	struct braid_mp_msg m;
	int path = mp->ctl_out_mtu, cp;

	mp->ctl_out_mtu = -1;
	if (mp->ctl_out_path >= 0 && mp->ctl_out_path < BRAID_MP_MAX_PATHS) {
		struct mp_path *q = &mp->path[mp->ctl_out_path];
		uint32_t k = q->ctl_pid_n++ % MP_CTL_PIDS;

		q->ctl_pid[k] = pid;
		q->ctl_tx[k] = mp->ctl_out_us;
		/* A challenge (or status) on a failed path is probably lost:
		 * its id must not stall the peer's reorder buffer until the
		 * deadline every time one is sent. */
		cp = mp_best_ctl_path(mp);
		if (!mp_usable(q) && cp >= 0 && cp != mp->ctl_out_path) {
			memset(&m, 0, sizeof(m));
			m.type = BRAID_MP_MSG_SKIP;
			m.path_id = (uint32_t)mp->ctl_out_path;
			m.u.skip_pid = pid;
			mp->ctl_out_path = -1;
			mp_ctl_send(mp, cp, &m, 0);
			q->c.ctl_skipped++;
		}
	}
	mp->ctl_out_path = -1;
	if (path < 0)
		return;
	cp = mp_best_ctl_path(mp);
	memset(&m, 0, sizeof(m));
	m.type = BRAID_MP_MSG_SKIP;
	m.path_id = (uint32_t)path;
	m.u.skip_pid = pid;
	mp_ctl_send(mp, cp >= 0 ? cp : path, &m, 0);
}

#define RESTART_IDLE_US 200000ULL

uint64_t mp_probe_restart_idle(const struct mp_path *p)
{
	return 4 * p->est.srtt > RESTART_IDLE_US ? 4 * p->est.srtt : RESTART_IDLE_US;
}

uint64_t mp_probe_interval(const struct braid_mp *mp, const struct mp_path *p, uint64_t now)
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
