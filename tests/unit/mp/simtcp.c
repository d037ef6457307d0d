// SPDX-License-Identifier: GPL-2.0-only
/*
 * simtcp.c - window-based inner TCP model for the simulator (see simtcp.h).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "simtcp.h"

#define M (SIMTCP_SB - 1)
#define F_SACK 1u
#define F_LOST 2u
#define F_RETX 4u
#define CUBIC_C 0.4
#define MAX_RTO_US 60000000ULL

void simtcp_init(struct sim_tcp *t, const struct sim_tcp_cfg *cfg, uint64_t now)
{
	(void)now;
	memset(t, 0, sizeof(*t));
	t->cfg = *cfg;
	if (!t->cfg.rwnd || t->cfg.rwnd > SIMTCP_SB / 2)
		t->cfg.rwnd = SIMTCP_SB / 2;
	if (!t->cfg.init_cwnd)
		t->cfg.init_cwnd = 10;
	if (!t->cfg.min_rto_us)
		t->cfg.min_rto_us = 200000;
	t->cwnd = t->cfg.init_cwnd;
	t->ssthresh = 1e9;
	t->rto = 1000000;
	t->rto_at = UINT64_MAX;
	t->min_rtt = UINT64_MAX;
}

static double beta(const struct sim_tcp *t)
{
	return t->cfg.reno ? 0.5 : 0.7;
}

static uint32_t pipe_of(const struct sim_tcp *t)
{
	return (t->nxt - t->una) - t->n_sacked - t->n_lost + t->n_retx;
}

int simtcp_next(struct sim_tcp *t, uint64_t now, struct sim_ipkt *out)
{
	uint32_t s;

	if (pipe_of(t) >= (uint32_t)t->cwnd)
		return 0;
	memset(out, 0, sizeof(*out));
	out->kind = SIM_K_SEG;
	if (t->n_lost > t->n_retx) {
		if (t->rexmit_scan < t->una)
			t->rexmit_scan = t->una;
		for (s = t->rexmit_scan; s != t->nxt; s++) {
			uint8_t f = t->sb[s & M];

			if ((f & F_LOST) && !(f & (F_SACK | F_RETX))) {
				t->sb[s & M] = f | F_RETX;
				t->n_retx++;
				t->retrans++;
				t->tx_us[s & M] = now;
				t->rexmit_scan = s + 1;
				if (t->rto_at == UINT64_MAX)
					t->rto_at = now + t->rto;
				out->seq = s;
				return 1;
			}
		}
		t->rexmit_scan = t->nxt;
	}
	if (t->nxt - t->una >= t->cfg.rwnd)
		return 0;
	s = t->nxt++;
	t->sb[s & M] = 0;
	t->tx_us[s & M] = now;
	t->segs_sent++;
	if (t->rto_at == UINT64_MAX)
		t->rto_at = now + t->rto;
	out->seq = s;
	return 1;
}

static void rtt_sample(struct sim_tcp *t, uint64_t r)
{
	uint64_t v;

	if (!t->have_rtt) {
		t->srtt = r;
		t->rttvar = r / 2;
		t->have_rtt = 1;
	} else {
		t->rttvar = (3 * t->rttvar + (r > t->srtt ? r - t->srtt : t->srtt - r)) / 4;
		t->srtt = (7 * t->srtt + r) / 8;
	}
	if (r < t->min_rtt)
		t->min_rtt = r;
	v = 4 * t->rttvar > t->cfg.min_rto_us ? 4 * t->rttvar : t->cfg.min_rto_us;
	t->rto = t->srtt + v;
}

static void reduce(struct sim_tcp *t)
{
	double b = beta(t);

	if (!t->cfg.reno && t->cwnd < t->wmax)
		t->wmax = t->cwnd * (1.0 + b) / 2.0;	/* fast convergence */
	else
		t->wmax = t->cwnd;
	t->ssthresh = t->cwnd * b < 2.0 ? 2.0 : t->cwnd * b;
	t->cwnd = t->ssthresh;
	t->epoch = 0;
	t->cwr_until = t->nxt;
}

static void grow(struct sim_tcp *t, uint64_t now, uint32_t n)
{
	double target, tt, inc;

	if (t->cwnd < t->ssthresh) {
		t->cwnd += n;
		if (t->cwnd > t->ssthresh)
			t->cwnd = t->ssthresh;
	} else if (t->cfg.reno) {
		t->cwnd += (double)n / t->cwnd;
	} else {
		if (!t->epoch) {
			t->epoch = now;
			if (t->cwnd < t->wmax) {
				t->k = cbrt((t->wmax - t->cwnd) / CUBIC_C);
				t->origin = t->wmax;
			} else {
				t->k = 0;
				t->origin = t->cwnd;
			}
			t->west = t->cwnd;
		}
		tt = (double)(now - t->epoch + (t->have_rtt ? t->min_rtt : 0)) / 1e6 - t->k;
		target = t->origin + CUBIC_C * tt * tt * tt;
		inc = target > t->cwnd ? (target - t->cwnd) / t->cwnd : 0.01 / t->cwnd;
		if (inc > 0.5)
			inc = 0.5;	/* at most 1.5 x per round trip */
		t->cwnd += inc * n;
		/* TCP-friendly region */
		t->west += 3.0 * (1 - beta(t)) / (1 + beta(t)) * n / t->cwnd;
		if (t->west > t->cwnd)
			t->cwnd = t->west;
	}
	if (t->cwnd > t->cfg.rwnd)
		t->cwnd = t->cfg.rwnd;
}

static void sack_one(struct sim_tcp *t, uint32_t s)
{
	uint8_t f = t->sb[s & M];

	if (f & F_SACK)
		return;
	if (f & F_LOST) {
		t->n_lost--;
		if (f & F_RETX)
			t->n_retx--;
	}
	t->sb[s & M] = F_SACK;
	t->n_sacked++;
	if (s + 1 > t->hi_sacked)
		t->hi_sacked = s + 1;
}

static void mark_lost(struct sim_tcp *t, uint32_t s)
{
	uint8_t f = t->sb[s & M];

	if (f & (F_SACK | F_LOST))
		return;
	t->sb[s & M] = f | F_LOST;
	t->n_lost++;
	if (s < t->rexmit_scan)
		t->rexmit_scan = s;
}

/* RFC 6675 IsLost: an un-SACKed segment with >= 3 SACKed segments above. */
static void detect_losses(struct sim_tcp *t)
{
	uint32_t s, cnt = 0;

	if (t->hi_sacked <= t->una)
		return;
	for (s = t->hi_sacked; s-- > t->una;) {
		uint8_t f = t->sb[s & M];

		if (f & F_SACK) {
			cnt++;
		} else if (cnt >= 3) {
			if (f & F_LOST)
				break;	/* everything below was marked by an earlier scan */
			mark_lost(t, s);
		}
	}
}

void simtcp_on_ack(struct sim_tcp *t, uint64_t now, const struct sim_ipkt *a)
{
	uint32_t s, newly = 0, newsack = 0, i;

	if (a->ack > t->nxt)
		return;
	if (a->ack > t->una) {
		s = a->ack - 1;
		if (!(t->sb[s & M] & (F_RETX | F_SACK)) && t->in_rec != 2)
			rtt_sample(t, now - t->tx_us[s & M]);
		for (s = t->una; s != a->ack; s++) {
			uint8_t f = t->sb[s & M];

			if (f & F_SACK) {
				t->n_sacked--;
			} else if (f & F_LOST) {
				t->n_lost--;
				if (f & F_RETX)
					t->n_retx--;
			}
			t->sb[s & M] = 0;
		}
		newly = a->ack - t->una;
		t->una = a->ack;
		t->dupacks = 0;
		t->rto_at = t->una != t->nxt ? now + t->rto : UINT64_MAX;
	} else if (a->ack == t->una && t->nxt != t->una) {
		t->dupacks++;
	}
	for (i = 0; i < a->nsack && i < 3; i++) {
		uint32_t b0 = a->sack[i][0], b1 = a->sack[i][1];

		if (b0 < t->una)
			b0 = t->una;
		if (b1 > t->nxt)
			b1 = t->nxt;
		for (s = b0; s < b1; s++)
			if (!(t->sb[s & M] & F_SACK)) {
				sack_one(t, s);
				newsack++;
			}
	}
	if (newsack)
		detect_losses(t);
	if (t->dupacks >= 3 && t->una != t->nxt)
		mark_lost(t, t->una);
	if (a->ece && !t->in_rec && t->una >= t->cwr_until) {
		reduce(t);
		t->ecn_reductions++;
	}
	if (!t->in_rec && t->n_lost) {
		t->in_rec = 1;
		t->recover = t->nxt;
		t->fast_recoveries++;
		if (t->una >= t->cwr_until)
			reduce(t);
	}
	if (t->in_rec && t->una >= t->recover)
		t->in_rec = 0;
	if (newly && t->in_rec != 1)
		grow(t, now, newly);
}

uint64_t simtcp_deadline(const struct sim_tcp *t)
{
	return t->una != t->nxt ? t->rto_at : UINT64_MAX;
}

void simtcp_timer(struct sim_tcp *t, uint64_t now)
{
	uint32_t s;

	if (t->una == t->nxt || now < t->rto_at)
		return;
	t->rtos++;
	t->wmax = t->cwnd;
	t->ssthresh = t->cwnd * beta(t) < 2.0 ? 2.0 : t->cwnd * beta(t);
	t->cwnd = 1;
	t->epoch = 0;
	for (s = t->una; s != t->nxt; s++) {
		uint8_t f = t->sb[s & M];

		if (f & F_SACK)
			continue;
		if (!(f & F_LOST))
			t->n_lost++;
		else if (f & F_RETX)
			t->n_retx--;
		t->sb[s & M] = F_LOST;
	}
	t->rexmit_scan = t->una;
	t->in_rec = 2;
	t->recover = t->nxt;
	t->cwr_until = t->nxt;
	t->dupacks = 0;
	t->rto = 2 * t->rto > MAX_RTO_US ? MAX_RTO_US : 2 * t->rto;
	t->rto_at = now + t->rto;
}

/* The received block that contains s (s received out of order). */
static void block_of(const struct sim_tcp *t, uint32_t s, uint32_t *b0, uint32_t *b1)
{
	uint32_t lo = s, hi = s + 1;

	while (lo > t->rcv_nxt && t->rb[(lo - 1) & M])
		lo--;
	while (hi < t->rcv_hi && t->rb[hi & M])
		hi++;
	*b0 = lo;
	*b1 = hi;
}

uint32_t simtcp_on_seg(struct sim_tcp *t, const struct sim_ipkt *seg, struct sim_ipkt *ack)
{
	uint32_t s = seg->seq, n = 0, blk[3][2], nb = 0;
	int i;

	if (s < t->rcv_nxt || (s > t->rcv_nxt && t->rb[s & M]) ||
	    s - t->rcv_nxt >= SIMTCP_SB - 1) {
		t->rcv_dup_segs++;
	} else if (s == t->rcv_nxt) {
		t->rcv_nxt++;
		n++;
		while (t->rcv_nxt < t->rcv_hi && t->rb[t->rcv_nxt & M]) {
			t->rb[t->rcv_nxt & M] = 0;
			t->rcv_nxt++;
			n++;
		}
	} else {
		t->rb[s & M] = 1;
		t->rcv_ooo_segs++;
		if (s + 1 > t->rcv_hi)
			t->rcv_hi = s + 1;
	}
	if (t->rcv_hi < t->rcv_nxt)
		t->rcv_hi = t->rcv_nxt;
	memset(ack, 0, sizeof(*ack));
	ack->kind = SIM_K_ACK;
	ack->ack = t->rcv_nxt;
	ack->ece = seg->ce;
	if (s > t->rcv_nxt && t->rb[s & M]) {
		block_of(t, s, &blk[0][0], &blk[0][1]);
		nb = 1;
	}
	for (i = 0; i < t->nlast && nb < 3; i++) {
		uint32_t b0 = t->last_blk[i][0], b1 = t->last_blk[i][1];

		if (b1 <= t->rcv_nxt)
			continue;
		if (b0 < t->rcv_nxt)
			b0 = t->rcv_nxt;
		if (nb && b0 <= blk[0][1] && b1 >= blk[0][0])
			continue;	/* part of the fresh first block */
		blk[nb][0] = b0;
		blk[nb][1] = b1;
		nb++;
	}
	memcpy(ack->sack, blk, sizeof(blk[0]) * nb);
	ack->nsack = (uint8_t)nb;
	memcpy(t->last_blk, blk, sizeof(blk[0]) * nb);
	t->nlast = (int)nb;
	return n;
}
