/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mp_int.h - engine internals shared by the engine's files (mp.c, mp_queue.c,
 * mp_path.c, mp_probe.c, mp_timer.c, mp_tx.c, mp_rx.c, mp_sched.c): the
 * engine and path structs. Includes nothing of the engine family but
 * mp_types.h and the leaf modules (aqm, est, pmtu, reorder).
 */
#ifndef BRAID_MP_INT_H
#define BRAID_MP_INT_H

#include <stdint.h>

#include "mp_aqm.h"
#include "mp_est.h"
#include "mp_pmtu.h"
#include "mp_reorder.h"
#include "mp_types.h"

#define MP_RESEND_BIT 0x80000000u
#define MP_CTLQ 64
#define MP_MPIP_S 10
#define MP_MPIP_T_US 100000ULL
#define MP_MPIP_WMAX 1000
#define MP_CTL_PIDS 16		/* control packet-ids remembered per path (power of 2) */

/* timing constants used by more than one engine file */
#define PACE_SLACK_US 1000
#define BUSY_US 1000000
#define IDLE_CHALLENGE_US 1000000

struct mp_slot {
	void *ref;
	uint64_t pid;
	uint64_t enq_us;
	uint32_t len;
	uint16_t refs;
	uint8_t meta;
	uint8_t sent;
};

struct mp_ring {
	uint32_t *v;
	uint32_t cap, head, n;
};

struct mp_sent {
	uint64_t pid;
	uint64_t tx_us;
	uint32_t slot;
	uint32_t len;
	uint8_t al;		/* queue was empty after it: app-limited */
};

/* Receive side of a path: what the next REPORT says about it. */
struct mp_rxp {
	uint32_t pkts;
	uint64_t bytes;
	uint64_t last_pid;
	uint64_t span_first, span_last;
	uint32_t span_bytes, span_pkts;
	int64_t owd_min, owd_last, owd_s;
	uint64_t owd_var;
	int have_owd;
	uint64_t rep_pid[2];	/* last_pid of the previous two reports (NACK range) */
	uint32_t probe_hi, probes_lost;
	int have_probe;
	int dirty;
	uint64_t last_data_us;
	uint64_t ia_us;		/* smoothed data inter-arrival time */
};

struct mp_path {
	int used;
	uint64_t key;
	unsigned int flags;
	uint64_t cap_bps;
	enum braid_mp_path_state state;
	uint32_t peer_id;
	int peer_known;
	int link_down;
	/* validation */
	uint8_t token[BRAID_MP_TOKEN_LEN];
	int chal_pending;
	uint64_t chal_next;
	uint32_t chal_backoff;
	/* transmit */
	struct mp_ring q;
	struct mp_ring pq;	/* priority: latency classes and ARQ re-sends */
	uint64_t q_bytes;	/* bytes in q and pq */
	uint64_t pq_bytes;	/* bytes in pq */
	uint64_t next_tx;
	struct mp_codel codel;
	struct mp_sent *sent;
	uint32_t sent_head, sent_n;
	uint32_t last_rx_pkts;
	uint64_t arq_resent;
	int have_report;
	/* delivery-rate sample being summed over reports until it spans
	 * RATE_SPAN_MIN_US (one report's span is too short on a real host) */
	uint64_t agg_bytes, agg_us;
	int agg_al, agg_round;
	/* app-limited flag of the last record the previous report covered:
	 * the peer joins a report's span to the last arrival before it, so
	 * the gap after that packet is part of the next sample */
	int prev_al;
	uint32_t last_probe_hi;
	uint64_t oldest_probe;	/* tx time of the oldest unanswered probe, 0 none */
	uint64_t acked_tx;	/* tx time of the newest data record a REPORT covered */
	uint32_t probe_seq;
	uint32_t probes_unanswered;	/* probes sent since the last echo / report */
	uint64_t probe_next;
	uint64_t last_probe_tx;	/* when the last probe was sent */
	uint64_t last_data_tx;
	uint64_t data_at_probe;	/* the session's data_tx when this path's last probe left */
	uint64_t last_echo_tx;	/* tx time of the newest echoed probe */
	struct mp_pmtu pmtu;
	uint32_t pmtu_seq;
	uint64_t mtu_oversize;
	uint64_t degraded_since;
	uint64_t bw_before_fail;	/* warm start when it comes back */
	int aqm_off;		/* re-sends queued: no AQM / limit until drained */
	double vt;		/* stride scheduler virtual time */
	uint32_t mpip_w;
	/* slots and flags (docs/multipath.md §6) */
	uint8_t slot;		/* own configuration slot, BRAID_MP_SLOT_NONE */
	uint8_t peer_slot;	/* the peer's, from its PATH_STATUS */
	uint8_t peer_flags;	/* BRAID_MP_STATUS_F_* from the peer */
	uint8_t has_weight;	/* ratio: weight below overrides the slot's */
	uint32_t weight;	/* braid_mp_path_set_weight() */
	uint32_t status_left;	/* PATH_STATUS repeats left (with probes) */
	uint64_t redundant_skipped;
	uint64_t status_sent, status_rx;
	/* the last control packet-ids sent on the path and when: the peer is
	 * told to SKIP those that died with it (docs/multipath.md §2) */
	uint64_t ctl_pid[MP_CTL_PIDS], ctl_tx[MP_CTL_PIDS];
	uint32_t ctl_pid_n;	/* total recorded; index = n % MP_CTL_PIDS */
	struct mp_est est;
	struct mp_rxp rx;
	struct braid_mp_path_stats c;	/* counters */
};

struct mp_ctl {
	int path;
	uint32_t len;
	uint64_t rx_us;		/* PROBE_ECHO: probe arrival, for hold time */
	uint8_t buf[BRAID_MP_MSG_MAX];
};

struct braid_mp {
	struct braid_mp_config cfg;
	struct mp_slot *slots;
	uint32_t *free_slots;
	uint32_t nfree;
	struct mp_path path[BRAID_MP_MAX_PATHS];
	struct mp_ctl ctl[MP_CTLQ];
	uint32_t ctl_head, ctl_n;
	uint8_t ctl_out[BRAID_MP_CTL_MAX];
	int ctl_out_mtu;	/* ctl_out is an MTU probe: its path, else -1 */
	int ctl_out_path;	/* the path of ctl_out, else -1 */
	uint64_t ctl_out_us;	/* when ctl_out was handed out */
	struct mp_reorder ro;
	uint64_t report_next;
	uint64_t mpip_next;
	uint32_t rr;
	uint64_t ro_deadline;
	uint64_t last_report_us;	/* last REPORT from the peer */
	struct braid_mp_stats st;
	uint64_t data_tx;	/* data packets sent on any path (thin-flow probing, mp_timer.c) */
	uint64_t data_win_start, data_win_mark, data_prev_win; /* data_tx per 1 s window */
};

/* Standby: either side marks the path backup. */
static inline int mp_backup(const struct mp_path *p)
{
	return (p->flags & BRAID_MP_PATH_F_BACKUP) || (p->peer_flags & BRAID_MP_STATUS_F_BACKUP);
}

static inline int mp_usable(const struct mp_path *p)
{
	return p->used && (p->state == BRAID_MP_PATH_ACTIVE || p->state == BRAID_MP_PATH_STANDBY ||
			   p->state == BRAID_MP_PATH_DEGRADED);
}

#endif /* BRAID_MP_INT_H */
