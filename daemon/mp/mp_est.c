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
}

void mp_est_rtt(struct mp_est *e, uint64_t rtt)
{
	if (!e->have_rtt) {
		e->srtt = rtt;
		e->rttvar = rtt / 2;
		e->min_rtt = rtt;
		e->have_rtt = 1;
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
	e->bw_bps = e->bw.v[0];
	if (new_round)
		e->rounds++;

	switch (e->phase) {
	case MP_STARTUP:
		/* A standing queue means the pipe is full: the delivery rate
		 * now is the bottleneck rate. Leave startup at once. */
		if (((e->have_owd && e->qdelay > qthresh(e)) || e->startup_loss) &&
		    e->last_sample) {
			maxfilt_reset(&e->bw, now, e->last_sample > e->bw_bps / 2 ?
				      e->last_sample : e->bw_bps / 2);
			e->bw_bps = e->bw.v[0];
			e->phase = MP_DRAIN;
			e->phase_start = now;
			break;
		}
		if (!new_round)
			break;
		if (e->bw_bps >= e->full_bw + e->full_bw / 4) {
			e->full_bw = e->bw_bps;
			e->full_cnt = 0;
			e->al_cnt = 0;
		} else if (app_limited ? ++e->al_cnt >= STARTUP_AL_ROUNDS : ++e->full_cnt >= 2) {
			/* an app-limited round could not grow (an inner TCP in
			 * slow start, a path EDF hardly uses yet): it takes
			 * STARTUP_AL_ROUNDS of them, or 2 that were not, to end
			 * startup. Steady app-limited traffic (a constant-rate
			 * load) still leaves it, which the early failure check
			 * needs. */
			e->phase = MP_DRAIN;
			e->phase_start = now;
		}
		break;
	case MP_DRAIN:
		break;
	case MP_PROBE_BW:
		/* Queuing delay above the threshold outside probe-up: the rate is
		 * too high. Cut to what the path actually delivers, drain. */
		if (cycle_gain[e->cycle] == 4 && e->have_owd && e->qdelay > qthresh(e) &&
		    e->rounds > e->cut_round) {
			uint64_t cut = e->last_sample && now - e->last_sample_us < 2 * cycle_len(e) ?
				e->last_sample : e->bw_bps - e->bw_bps / 8;

			if (cut < e->bw_bps) {
				maxfilt_reset(&e->bw, now, cut);
				e->bw_bps = cut;
			}
			e->cut_round = e->rounds;
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
		break;
	case MP_DRAIN:
		r = e->bw_bps / 2;
		break;
	default:
		r = e->bw_bps * cycle_gain[e->cycle] / 4;
		break;
	}
	if (cap_bps && r > cap_bps)
		r = cap_bps;
	return r < MIN_RATE_BPS ? MIN_RATE_BPS : r;
}
