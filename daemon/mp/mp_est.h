/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mp_est.h - per-path estimators and rate control (scheduler.md §2).
 *
 * RTT (smoothed, variance, min) from probe echoes; relative one-way delay
 * from sender timestamps (the unknown clock offset is the same on every
 * path, so differences between paths are exact); queuing delay = OWD - min
 * OWD; delivery rate as a windowed max of receiver-reported samples; a
 * BBR-like pacing rate: exponential start (x2 per round) until the rate
 * stops growing, drain, then cycles of probe-up (1.25) / drain (0.75) /
 * cruise, and an immediate cut to the measured delivery rate when queuing
 * delay rises above a threshold.
 */
#ifndef BRAID_MP_EST_H
#define BRAID_MP_EST_H

#include <stdint.h>

enum mp_phase { MP_STARTUP, MP_DRAIN, MP_PROBE_BW };

struct mp_maxfilt {
	uint64_t t[3];
	uint64_t v[3];
};

struct mp_est {
	uint64_t srtt, rttvar, min_rtt;
	int have_rtt;
	int64_t owd_min, owd_min_next;	/* two-bucket windowed min */
	uint64_t owd_win_start;
	int64_t owd_s;			/* smoothed OWD */
	int have_owd;
	uint64_t qdelay;
	struct mp_maxfilt bw;
	uint64_t bw_bps, rate_bps, init_bps;
	uint64_t last_sample, last_sample_us;
	enum mp_phase phase;
	int cycle;
	uint64_t cycle_start, phase_start;
	uint64_t full_bw;
	int full_cnt;			/* rounds without growth, not app-limited */
	int al_cnt;			/* the same, app-limited */
	uint64_t round_start, rounds, cut_round;
	uint32_t loss_pm;		/* EWMA, per mille */
	uint32_t qthresh_us;
	uint64_t cuts;
	int startup_loss;		/* a report showed loss during startup */
};

void mp_est_reset(struct mp_est *e, uint64_t now, uint64_t init_bps, uint32_t qthresh_us);
/* Start a path with no history at bps (still in startup). */
void mp_est_warm(struct mp_est *e, uint64_t bps);
void mp_est_rtt(struct mp_est *e, uint64_t rtt_us);
void mp_est_owd(struct mp_est *e, uint64_t now, int64_t owd_us);
/* A delivery-rate sample; new_round when it acks data sent after the last
 * round started. */
void mp_est_rate(struct mp_est *e, uint64_t now, uint64_t bps, int app_limited, int new_round);
void mp_est_loss(struct mp_est *e, uint32_t covered, uint32_t lost);
/* Advance the probe cycle by time. */
void mp_est_tick(struct mp_est *e, uint64_t now);
/* Pacing rate now, capped (cap 0 = none), never below 64 kbit/s. */
uint64_t mp_est_pacing(const struct mp_est *e, uint64_t cap_bps);
/* Rate that queue sizes are judged by: bw (2 bw in startup), not the
 * drain / probe gains of the moment. */
uint64_t mp_est_ref_rate(const struct mp_est *e, uint64_t cap_bps);
/* Next time mp_est_tick has something to do. */
uint64_t mp_est_next_tick(const struct mp_est *e);

#endif /* BRAID_MP_EST_H */
