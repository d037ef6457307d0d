/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mp_est.h - per-path estimators and rate control (scheduler.md §2).
 *
 * RTT (smoothed, variance, min) from probe echoes; relative one-way delay
 * from sender timestamps (the unknown clock offset is the same on every
 * path, so differences between paths are exact); queuing delay = OWD - min
 * OWD; delivery rate as a windowed max of receiver-reported samples; a
 * BBR-like pacing rate: startup from a first rate derived from the first
 * probe RTT (a bounded initial window per RTT), x2 per round while the
 * delivery rate grows, exit on a plateau or on queuing delay into the
 * cycles of probe-up (1.25) / drain (0.75) / cruise, and an immediate cut
 * to the measured delivery rate when queuing delay rises above a
 * threshold. App-limited rounds do not end startup; it is entered again
 * after idle and after a re-validation.
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
	uint64_t qdelay_last;		/* of the latest OWD sample alone */
	uint64_t owd_n, cut_owd_n;	/* OWD samples so far, at the last cut */
	struct mp_maxfilt bw;
	uint64_t bw_bps, rate_bps, init_bps;
	uint64_t last_sample, last_sample_us;	/* last not app-limited sample */
	uint64_t last_any, last_any_us;	/* last sample of any kind */
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
	uint64_t start_bps;		/* startup floor: MP_START_WIN_BYTES per first RTT */
	int fail_armed;			/* early failure check on (off early in startup) */
	uint64_t restart_bw;		/* bw when startup was re-entered (0: first startup) */
	uint64_t restarts;		/* startup re-entered (idle, re-validation) */
};

/* Startup's first rate: this many bytes per first probe RTT, at least
 * 2 x the configured first rate, at most MP_START_MAX_BPS. */
#define MP_START_WIN_BYTES 64000ULL
#define MP_START_MAX_BPS 100000000ULL

void mp_est_reset(struct mp_est *e, uint64_t now, uint64_t init_bps, uint32_t qthresh_us);
/* Start a path with no history at bps (still in startup). */
void mp_est_warm(struct mp_est *e, uint64_t bps);
void mp_est_rtt(struct mp_est *e, uint64_t rtt_us);
/* Enter startup again from the current estimate (after idle, after a
 * re-validation); its exit does not go below that estimate. */
void mp_est_restart(struct mp_est *e, uint64_t now);
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
