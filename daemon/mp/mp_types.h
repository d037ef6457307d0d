/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mp_types.h - the types and constants of the multipath engine's API
 * (schedulers, path states and flags, the configuration, tx / rx records,
 * stats), apart from its functions so the engine's internal header
 * (mp_int.h) can use them without including mp.h. Includes nothing of the
 * engine but its message and class codecs. Users include mp.h.
 */
#ifndef BRAID_MP_TYPES_H
#define BRAID_MP_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "mp_classify.h"
#include "mp_msg.h"

#define BRAID_MP_MAX_PATHS 8
#define BRAID_MP_WEIGHT_MAX 1000000u	/* largest ratio weight */
#define BRAID_MP_WEIGHT_NONE UINT32_MAX	/* braid_mp_path_set_weight: the slot's */
#define BRAID_MP_WEIGHT_SPARE (UINT32_MAX - 1)	/* ... only while no other usable path has a weight */

struct braid_mp;

enum braid_mp_sched {
	BRAID_MP_SCHED_EDF = 0,		/* earliest expected delivery (default) */
	BRAID_MP_SCHED_RTT,		/* shares proportional to 1/RTT */
	BRAID_MP_SCHED_RATIO,		/* static shares a:b:... by path slot */
	BRAID_MP_SCHED_MPIP,		/* seed 002 Algorithm 1 (S=10, T=100 ms) */
	BRAID_MP_SCHED_LOWEST_RTT,	/* everything on the lowest-RTT path */
	BRAID_MP_SCHED_BACKUP,		/* active-standby: first usable path */
	BRAID_MP_SCHED_REDUNDANT,	/* every packet on every usable path */
};

enum braid_mp_path_state {
	BRAID_MP_PATH_PROBING = 0,	/* challenge sent, not usable */
	BRAID_MP_PATH_VALIDATED,	/* transient: right response arrived */
	BRAID_MP_PATH_ACTIVE,		/* carries data */
	BRAID_MP_PATH_STANDBY,		/* validated backup path */
	BRAID_MP_PATH_DEGRADED,		/* lossy: used only if nothing active */
	BRAID_MP_PATH_FAILED,		/* timed out / link down: re-probing */
};

#define BRAID_MP_PATH_F_BACKUP 0x1u	/* only used when no active path is up */
/* braid_mp_path_add only: the path was learned from the peer's packets and
 * has no configuration slot of its own (the peer's slot, from its
 * PATH_STATUS, names it). Without it a path's slot is its index at add. */
#define BRAID_MP_PATH_F_LEARNED 0x2u

enum braid_mp_release {
	BRAID_MP_REL_DONE = 0,		/* delivered (reported) or aged out */
	BRAID_MP_REL_AQM,		/* dropped by the sender AQM */
	BRAID_MP_REL_NOPATH,		/* no usable path was left */
	BRAID_MP_REL_FLUSH,		/* engine freed */
};

struct braid_mp_config {
	enum braid_mp_sched sched;
	uint32_t ratio[BRAID_MP_MAX_PATHS];	/* for RATIO, by path slot */
	uint32_t reorder_cap_us;	/* max hold of a gap (100 ms) */
	uint32_t reorder_max_pkts;	/* max held packets (1024) */
	uint32_t reorder_window;	/* packet-id window, power of 2 (4096) */
	uint32_t probe_busy_us;		/* min probe interval while busy (25 ms) */
	uint32_t probe_idle_us;		/* probe interval when idle (1 s) */
	uint32_t fail_floor_us;		/* failover floor (300 ms) */
	uint32_t challenge_us;		/* first challenge retry (100 ms) */
	uint32_t report_min_us;		/* min REPORT interval (5 ms) */
	uint32_t report_max_us;		/* max REPORT interval (50 ms) */
	uint32_t queue_pkts;		/* tx packet pool, power of 2 (8192) */
	uint32_t retain_pkts;		/* per-path sent-ring size, pow2 (4096) */
	uint64_t init_rate_bps;		/* first rate of a new path (2 Mbit/s) */
	uint32_t qdelay_thresh_us;	/* queuing delay that cuts the rate (5 ms) */
	uint32_t aqm_target_us;		/* CoDel target (5 ms); 0 = AQM off */
	uint32_t aqm_interval_us;	/* CoDel interval (100 ms) */
	uint32_t queue_limit_us;	/* tail drop above this send-queue delay (50 ms) */
	uint32_t mtu;			/* largest packet (1500), for CoDel */
	uint32_t degraded_loss_pm;	/* loss (per mille) that degrades (250) */
	int latency_classes;		/* small/ack/dns/ef on lowest delay, ahead of
					 * bulk in the path's send queue (1) */
	int arq;			/* re-send packets the peer NACKs (1) */
	int no_pacing;			/* debugging: send as soon as queued */
	/* Path MTU search (docs/multipath.md §11), in engine packet sizes
	 * (the plaintext the daemon encrypts). pmtu_max 0: off, every size
	 * fits every path. */
	uint32_t pmtu_max;		/* largest size to search (1500) */
	uint32_t pmtu_base;		/* assumed to pass every path (1200) */
	uint32_t pmtu_step;		/* search granularity in bytes (8) */
	uint64_t pmtu_raise_us;		/* search again this long after one ended (600 s) */
	/* the engine is done with a tx ref (required) */
	void (*tx_release)(void *user, void *ref, enum braid_mp_release why);
	/* an rx ref the engine held is dropped at braid_mp_free (optional) */
	void (*rx_release)(void *user, void *ref);
	/* fill buf with len random bytes, 0 or -errno (required: tokens) */
	int (*random)(void *user, uint8_t *buf, size_t len);
	void *user;
};

enum braid_mp_tx_kind { BRAID_MP_TX_DATA = 1, BRAID_MP_TX_CONTROL = 2 };

struct braid_mp_tx {
	enum braid_mp_tx_kind kind;
	int path;
	/* DATA */
	void *ref;
	uint32_t len;
	uint64_t pid;
	uint8_t resend;		/* already sent once: same packet-id, same bytes */
	uint8_t ce;		/* set ECN CE on the inner packet (braid_mp_set_ce) */
	uint8_t oversize;	/* len > the path's MTU (no path fits it): send it so
				 * that it may be fragmented (no DF) */
	/* CONTROL: plaintext, valid until the next engine call */
	const uint8_t *ctl;
	uint32_t ctl_len;
};

struct braid_mp_rx {
	void *ref;
	uint32_t len;
	uint64_t pid;
	uint64_t held_us;	/* time spent in the reorder buffer */
};

struct braid_mp_path_stats {
	enum braid_mp_path_state state;
	uint64_t key;
	unsigned int flags;
	uint64_t srtt_us, rttvar_us, min_rtt_us;
	int64_t owd_rel_us;	/* base one-way delay relative to the best path */
	uint64_t qdelay_us;	/* queuing delay: OWD - min OWD */
	uint32_t loss_pm;	/* smoothed data loss, per mille */
	uint64_t bw_bps;	/* delivery-rate estimate (windowed max) */
	uint64_t rate_bps;	/* current pacing rate */
	uint64_t cap_bps;	/* metered cap, 0 = none */
	uint32_t mpip_weight;
	uint32_t share_pm;	/* share of data bytes sent, per mille */
	uint64_t tx_pkts, tx_bytes, rx_pkts, rx_bytes;
	uint64_t queue_pkts, queue_bytes, retained_pkts;
	uint64_t lost_pkts, resent_pkts, aqm_drops, aqm_marks;
	uint64_t arq_resent;	/* NACKed by the peer and re-sent (ARQ) */
	uint64_t probes_sent, probes_lost_peer, echoes;
	uint32_t validations, failures;
	uint32_t suspects;	/* failures by the early (report-based) check */
	uint32_t bad_token, unsolicited_resp, rx_unvalidated;
	uint64_t last_fail_us;	/* time of the last failure */
	/* path MTU (engine packet size; 0 = search off) and its search */
	uint32_t mtu;
	uint32_t mtu_searches, mtu_blackholes;
	uint64_t mtu_probes, mtu_acks, mtu_probes_lost;
	uint64_t mtu_oversize;	/* packets sent here although larger than mtu */
	int in_startup;		/* the rate controller is in startup */
	uint64_t startup_restarts;	/* startup entered again: after idle, when a path that
					 * left it app-limited ran backlogged, re-validation */
	/* slots (docs/multipath.md §6): own and the peer's (-1 = none) */
	int slot, peer_slot;
	int peer_backup;	/* the peer marks this path backup (PATH_STATUS) */
	uint64_t status_sent, status_rx;	/* PATH_STATUS messages */
	uint64_t redundant_skipped;	/* redundant: copies not queued here (over budget) */
	uint64_t ctl_skipped;	/* control packet-ids lost with the path, SKIPped at its failure */
};

struct braid_mp_stats {
	uint64_t enq_pkts, enq_nopath, enq_nobufs;
	uint64_t aqm_drops, aqm_marks;
	uint64_t ctl_sent, ctl_rx, ctl_bad;
	uint64_t rx_delivered, rx_in_order, rx_late, rx_dups, rx_too_old;
	uint64_t rx_gaps_deadline, rx_gaps_bound;
	uint32_t rx_held, rx_max_held;
	uint64_t rx_max_hold_us;
	uint64_t reorder_deadline_us;	/* current adaptive gap deadline */
	uint32_t tunnel_mtu;		/* braid_mp_tunnel_mtu() */
	uint64_t tx_oversize;		/* packets larger than every usable path's MTU */
	uint64_t class_copies;		/* BRAID_MP_META_REDUNDANT packets: copies queued on
					 * the paths beyond the first (not under the redundant
					 * scheduler, whose copies are every packet's) */
};

#endif /* BRAID_MP_TYPES_H */
