// SPDX-License-Identifier: GPL-2.0-only
/*
 * mp_est.c - per-path RTT / one-way-delay / delivery-rate estimators and the
 * pacing-rate controller.
 */
#include <string.h>

#include "mp_est.h"

#define OWD_WINDOW_US 10000000ULL	/* min OWD forgets after 10-20 s */
#define BW_WINDOW_MIN_US 1000000ULL
#define MIN_RATE_BPS 64000ULL
#define STARTUP_AL_ROUNDS 16
#define CRUISE_MARGIN 256		/* cruise at bw - bw/256 */

/* Pacing gains in 1/4 units: startup 2, drain 1/2, probe-bw cycle. */
static const unsigned int cycle_gain[8] = { 5, 3, 4, 4, 4, 4, 4, 4 };

static uint64_t bw_window(const struct mp_est *e)
{
	uint64_t w = 10 * e->srtt;

	return w > BW_WINDOW_MIN_US ? w : BW_WINDOW_MIN_US;
}

static void maxfilt_reset(struct mp_maxfilt *f, uint64_t now, uint64_t v)
{
	int i;

	for (i = 0; i < 3; i++) {
		f->t[i] = now;
		f->v[i] = v;
	}
}

/* Windowed running max over three samples (Kathleen Nichols' scheme). */
static void maxfilt_update(struct mp_maxfilt *f, uint64_t now, uint64_t v, uint64_t win)
{
	if (v >= f->v[0] || now - f->t[2] > win) {
		maxfilt_reset(f, now, v);
		return;
	}
	if (v >= f->v[1]) {
		f->t[1] = f->t[2] = now;
		f->v[1] = f->v[2] = v;
	} else if (v >= f->v[2]) {
		f->t[2] = now;
		f->v[2] = v;
	}
	if (now - f->t[0] > win) {
		f->t[0] = f->t[1];
		f->v[0] = f->v[1];
		f->t[1] = f->t[2];
		f->v[1] = f->v[2];
		f->t[2] = now;
		f->v[2] = v;
		if (now - f->t[0] > win) {
			f->t[0] = f->t[1];
			f->v[0] = f->v[1];
			f->t[1] = f->t[2];
			f->v[1] = f->v[2];
		}
	} else if (f->t[1] == f->t[0] && now - f->t[1] > win / 4) {
		f->t[1] = f->t[2] = now;
		f->v[1] = f->v[2] = v;
	} else if (f->t[2] == f->t[1] && now - f->t[2] > win / 2) {
		f->t[2] = now;
		f->v[2] = v;
	}
}

void mp_est_reset(struct mp_est *e, uint64_t now, uint64_t init_bps, uint32_t qthresh_us)
{
	memset(e, 0, sizeof(*e));
	e->init_bps = init_bps;
	e->bw_bps = init_bps;
	e->full_bw = init_bps;
	maxfilt_reset(&e->bw, now, init_bps);
	e->phase = MP_STARTUP;
	e->phase_start = now;
	e->round_start = now;
	e->qthresh_us = qthresh_us;
	e->rate_bps = 2 * init_bps;
}

void mp_est_warm(struct mp_est *e, uint64_t bps)
{
	uint64_t t = e->bw.t[0];

	maxfilt_reset(&e->bw, t, bps);
	e->bw_bps = bps;
	e->full_bw = bps;
	/* pace at the old path's rate, not twice it */
	e->phase = MP_PROBE_BW;
	e->cycle = 2;
	e->cycle_start = t;
	e->phase_start = t;
	e->fail_armed = 1;
}

/* Startup's first rate from the first RTT: a bounded initial window per
 * round trip (BBR starts from its initial cwnd the same way). A 2 Mbit/s
 * first rate kept a fast path at a few Mbit/s for the first rounds, which
 * an inner TCP in slow start reads as an RTT step (HyStart leaves slow
 * start) and as a crawl. */
static void start_rate(struct mp_est *e, uint64_t rtt)
{
	uint64_t r = MP_START_WIN_BYTES * 8000000ULL / (rtt ? rtt : 1);

	if (r < 2 * e->init_bps)
		r = 2 * e->init_bps;
	if (r > MP_START_MAX_BPS)
		r = MP_START_MAX_BPS;
	e->start_bps = r;
}

void mp_est_rtt(struct mp_est *e, uint64_t rtt)
{
	if (!e->have_rtt) {
		e->srtt = rtt;
		e->rttvar = rtt / 2;
		e->min_rtt = rtt;
		e->have_rtt = 1;
		if (e->phase == MP_STARTUP && !e->rounds && e->init_bps)
			start_rate(e, rtt);
		return;
	}
	e->rttvar = (3 * e->rttvar + (rtt > e->srtt ? rtt - e->srtt : e->srtt - rtt)) / 4;
	e->srtt = (7 * e->srtt + rtt) / 8;
	if (rtt < e->min_rtt)
		e->min_rtt = rtt;
}

void mp_est_owd(struct mp_est *e, uint64_t now, int64_t owd)
{
	if (!e->have_owd) {
		e->owd_min = e->owd_min_next = e->owd_s = owd;
		e->owd_win_start = now;
		e->have_owd = 1;
	}
	if (now - e->owd_win_start > OWD_WINDOW_US) {
		e->owd_min = e->owd_min_next;
		e->owd_min_next = owd;
		e->owd_win_start = now;
	}
	if (owd < e->owd_min)
		e->owd_min = owd;
	if (owd < e->owd_min_next)
		e->owd_min_next = owd;
	e->owd_s = (3 * e->owd_s + owd) / 4;
	e->qdelay_last = owd > e->owd_min ? (uint64_t)(owd - e->owd_min) : 0;
	e->owd_n++;
	e->qdelay = e->owd_s > e->owd_min ? (uint64_t)(e->owd_s - e->owd_min) : 0;
}

static uint32_t qthresh(const struct mp_est *e)
{
	uint64_t t = e->min_rtt / 4;

	return t > e->qthresh_us ? (uint32_t)t : e->qthresh_us;
}

/* Probe-up and its drain are short (the queue a probe builds is
 * (gain - 1) x phase x rate): half a min RTT or 8 ms; cruise phases last a
 * round trip or 25 ms. */
static uint64_t cycle_len(const struct mp_est *e)
{
	uint64_t t = e->cycle < 2 ? e->min_rtt / 2 : e->srtt;
	uint64_t min = e->cycle < 2 ? 8000 : 25000;

	return t > min ? t : min;
}

static uint64_t drain_limit(const struct mp_est *e)
{
	return 2 * e->srtt > 50000 ? 2 * e->srtt : 50000;
}

void mp_est_restart(struct mp_est *e, uint64_t now)
{
	if (e->phase == MP_STARTUP)
		return;
	e->phase = MP_STARTUP;
	e->phase_start = now;
	e->round_start = now;
	e->full_bw = e->bw_bps;
	e->full_cnt = 0;
	e->al_cnt = 0;
	e->startup_loss = 0;
	e->restart_bw = e->bw_bps;
	e->restarts++;
}

static void enter_probe_bw(struct mp_est *e, uint64_t now, int cycle);

/* Startup is over: the first-rate floor no longer applies. */
static void leave_startup(struct mp_est *e, uint64_t now)
{
	/* The queue startup built drains in the probe cycle's 0.75 phase and
	 * by cuts (bw is reset to the bottleneck rate above): the full drain
	 * (0.5 for up to 2 srtt) dropped the backlog of a survivor of a cut
	 * at the sender once the survivor stayed in startup app-limited. */
	enter_probe_bw(e, now, 1);
	e->start_bps = 0;
	e->fail_armed = 1;
}

static void enter_probe_bw(struct mp_est *e, uint64_t now, int cycle)
{
	e->phase = MP_PROBE_BW;
	e->cycle = cycle;
	e->cycle_start = now;
	e->phase_start = now;
}

void mp_est_rate(struct mp_est *e, uint64_t now, uint64_t bps, int app_limited, int new_round)
{
	if (!app_limited || bps > e->bw.v[0])
		maxfilt_update(&e->bw, now, bps, bw_window(e));
	if (!app_limited) {
		e->last_sample = bps;
		e->last_sample_us = now;
	}
	e->last_any = bps;
	e->last_any_us = now;
	e->bw_bps = e->bw.v[0];
	if (new_round)
		e->rounds++;

	switch (e->phase) {
	case MP_STARTUP:
		/* A standing queue means the pipe is full: the delivery rate
		 * now is the bottleneck rate. Leave startup at once. */
		if (((e->have_owd && e->qdelay > qthresh(e)) || e->startup_loss) &&
		    e->last_any) {
			/* a restart does not go below where it started: the
			 * queue may be the burst that a cut path's re-sends
			 * or an idle pause's backlog build */
			uint64_t floor = e->bw_bps / 2 > e->restart_bw ? e->bw_bps / 2 : e->restart_bw;

			/* with a standing queue the latest sample is the
			 * bottleneck rate, even one the sender marked
			 * app-limited: its queue ran empty, the bottleneck's
			 * did not (a path EDF feeds in bursts at the first
			 * rate had only such samples and filled its buffer) */
			maxfilt_reset(&e->bw, now, e->last_any > floor ? e->last_any : floor);
			e->bw_bps = e->bw.v[0];
			leave_startup(e, now);
			break;
		}
		if (!new_round)
			break;
		if (e->bw_bps >= e->full_bw + e->full_bw / 4) {
			e->full_bw = e->bw_bps;
			e->full_cnt = 0;
			e->al_cnt = 0;
		} else if (app_limited) {
			/* an app-limited round could not grow (an inner TCP in
			 * slow start, a path EDF hardly uses yet, pings on an
			 * idle tunnel): it says nothing about the path, so it
			 * does not end startup (BBR's does not either). Ending
			 * it after 16 such rounds left a path at its first
			 * rate when a download came a second after the tunnel
			 * came up; EDF then starved it, and it climbed by 1.25
			 * per probe cycle (the bed's multi-second crawl). After
			 * STARTUP_AL_ROUNDS of them the early failure check,
			 * off early in startup, is armed: a steady load below
			 * the path's rate needs it. */
			if (++e->al_cnt >= STARTUP_AL_ROUNDS)
				e->fail_armed = 1;
		} else if (++e->full_cnt >= 2) {
			leave_startup(e, now);
		}
		break;
	case MP_DRAIN:
		break;
	case MP_PROBE_BW:
		/* Queuing delay above the threshold outside probe-up: the rate is
		 * too high. Cut to what the path actually delivers, drain. */
		/* ... seen by a probe sent since the last cut: the smoothed
		 * delay lags by a few probe intervals (25 ms each), and a
		 * cut on every round of a short-RTT path while it lagged
		 * took a 20 Mbit/s path down to 4 (test_mp_startup late) */
		if (cycle_gain[e->cycle] == 4 && e->have_owd && e->qdelay > qthresh(e) &&
		    e->qdelay_last > qthresh(e) && e->owd_n > e->cut_owd_n &&
		    e->rounds > e->cut_round) {
			/* the bottleneck queue stands, so the latest sample,
			 * app-limited at the sender or not, is its rate; only
			 * without a fresh one, bw - 1/8 (a sender that marked
			 * every sample app-limited cut by 1/8 a round down to
			 * a fifth of the path while its queue stood) */
			uint64_t cut = e->last_any && now - e->last_any_us < 2 * cycle_len(e) ?
				e->last_any : e->bw_bps - e->bw_bps / 8;

			if (cut < e->bw_bps) {
				maxfilt_reset(&e->bw, now, cut);
				e->bw_bps = cut;
			}
			e->cut_round = e->rounds;
			e->cut_owd_n = e->owd_n;
			e->cuts++;
			enter_probe_bw(e, now, 1);
		}
		break;
	}
}

void mp_est_loss(struct mp_est *e, uint32_t covered, uint32_t lost)
{
	uint32_t pm;

	if (!covered)
		return;
	/* Losses of our own overshoot (startup, a standing queue) say nothing
	 * about the link: startup ends on them, the loss rate ignores them. */
	if (e->phase == MP_STARTUP) {
		if (lost)
			e->startup_loss = 1;
		return;
	}
	if (e->phase != MP_PROBE_BW || (e->have_owd && e->qdelay > qthresh(e)))
		return;
	if (lost > covered)
		lost = covered;
	pm = (uint32_t)((uint64_t)lost * 1000 / covered);
	e->loss_pm = (7 * e->loss_pm + pm) / 8;
}

void mp_est_tick(struct mp_est *e, uint64_t now)
{
	if (e->phase == MP_DRAIN) {
		if ((e->have_owd && e->qdelay <= qthresh(e) && now - e->phase_start >= e->srtt) ||
		    now - e->phase_start >= drain_limit(e))
			enter_probe_bw(e, now, 2);
	} else if (e->phase == MP_PROBE_BW && now - e->cycle_start >= cycle_len(e)) {
		e->cycle = (e->cycle + 1) % 8;
		e->cycle_start = now;
	}
}

uint64_t mp_est_ref_rate(const struct mp_est *e, uint64_t cap_bps)
{
	uint64_t r = e->phase == MP_STARTUP ? 2 * e->bw_bps : e->bw_bps;

	if (e->phase == MP_STARTUP && r < e->start_bps)
		r = e->start_bps;
	if (cap_bps && r > cap_bps)
		r = cap_bps;
	return r < MIN_RATE_BPS ? MIN_RATE_BPS : r;
}

uint64_t mp_est_next_tick(const struct mp_est *e)
{
	if (e->phase == MP_DRAIN)
		return e->phase_start + drain_limit(e);
	if (e->phase == MP_PROBE_BW)
		return e->cycle_start + cycle_len(e);
	return UINT64_MAX;
}

uint64_t mp_est_pacing(const struct mp_est *e, uint64_t cap_bps)
{
	uint64_t r;

	switch (e->phase) {
	case MP_STARTUP:
		r = 2 * e->bw_bps;
		if (r < e->start_bps)
			r = e->start_bps;
		break;
	case MP_DRAIN:
		r = e->bw_bps / 2;
		break;
	default:
		r = e->bw_bps * cycle_gain[e->cycle] / 4;
		/* cruise a little below bw: bw is a windowed max, so pacing
		 * at exactly bw overshoots by its noise and a standing queue
		 * creeps up to the cut threshold (test_mp_sim rate) */
		if (cycle_gain[e->cycle] == 4)
			r -= r / CRUISE_MARGIN;
		break;
	}
	if (cap_bps && r > cap_bps)
		r = cap_bps;
	return r < MIN_RATE_BPS ? MIN_RATE_BPS : r;
}
