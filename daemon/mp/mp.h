/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mp.h - the Braid multipath engine: a library without an event loop.
 *
 * The engine is fed packets and time and returns packets and a next
 * deadline (like mud). All times are uint64_t microseconds supplied by the
 * caller (a virtual clock in tests). No I/O, no globals, no allocation in the
 * per-packet path: everything is preallocated by braid_mp_new().
 *
 * Contract with the daemon (see docs/multipath.md):
 *  TX  The daemon reads an inner packet, classifies it (braid_mp_classify),
 *      allocates its data-channel packet-id (one sequence per direction
 *      across all paths) and calls braid_mp_enqueue(). The engine chooses the
 *      path at once and paces it out: braid_mp_poll_tx() returns, when its
 *      time has come, (path, ref, packet-id); the daemon encrypts with that
 *      packet-id and sends on that path. A ref stays owned by the engine
 *      until cfg.tx_release(ref) is called: it is kept after sending so that
 *      it can be re-sent on another path after a failure (resend = 1: same
 *      packet-id, same bytes). The engine's own control messages come out
 *      of braid_mp_poll_tx() as plaintext payloads; the daemon encrypts them
 *      with a fresh packet-id and sends them on the given path.
 *  RX  The daemon decrypts and authenticates, maps the packet to a path by
 *      its addresses, and gives (path, packet-id, payload) to the engine:
 *      braid_mp_rx_control() if braid_mp_msg_is_control(), else
 *      braid_mp_rx_data(). braid_mp_poll_rx() returns data in packet-id
 *      order for the TUN.
 *  Time: call braid_mp_poll_tx/poll_rx whenever braid_mp_next_deadline()
 *      passes, and after every enqueue / receive.
 *
 * API changes since the first version (docs/multipath.md §10), all
 * additions: braid_mp_rx_data_meta() (pass the class of the decrypted
 * packet so latency classes skip the reorder hold; braid_mp_rx_data() is
 * it with BULK), cfg.arq (on by default: re-send what the peer NACKs),
 * path stats arq_resent and suspects. Default degraded_loss_pm 100 -> 250.
 * Wire: REPORT may carry a NACK tail, new control message SKIP (type 7).
 * Third round (docs/multipath.md §11): per-path MTU search (cfg.pmtu_*,
 * MTU_PROBE / MTU_ACK types 8 / 9), tx.oversize, path stats mtu and
 * mtu_*, braid_mp_tunnel_mtu(); a control message can be up to
 * BRAID_MP_CTL_MAX bytes.
 * Slots (docs/multipath.md §4, §6): BRAID_MP_PATH_F_LEARNED at path_add,
 * braid_mp_path_set_slot(), control message PATH_STATUS (type 10), path
 * stats slot, peer_slot, peer_backup, status_sent/rx, redundant_skipped;
 * ratio weights by slot, backup honours the peer's flag.
 */
#ifndef BRAID_MP_H
#define BRAID_MP_H

#include <stddef.h>
#include <stdint.h>

#include "mp_classify.h"
#include "mp_msg.h"

#define BRAID_MP_MAX_PATHS 8

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
};

/* Fill cfg with the defaults named above (callbacks NULL). */
void braid_mp_config_init(struct braid_mp_config *cfg);
/* 0 or -EINVAL (a field out of range / missing callback) / -ENOMEM. */
int braid_mp_new(struct braid_mp **out, const struct braid_mp_config *cfg);
/* Releases every held ref through the callbacks. */
void braid_mp_free(struct braid_mp *mp);

/* Switch scheduler at run time; ratio (n weights) only for RATIO. */
int braid_mp_set_sched(struct braid_mp *mp, enum braid_mp_sched s, const uint32_t *ratio,
		       unsigned int n);
/* "edf", "rtt", "ratio 3:1", "mpip", "lowest-rtt", "backup", "redundant". */
int braid_mp_sched_parse(const char *s, enum braid_mp_sched *out, uint32_t *ratio,
			 unsigned int *n);
const char *braid_mp_sched_name(enum braid_mp_sched s);
const char *braid_mp_state_name(enum braid_mp_path_state s);

/*
 * Add a path (opaque key = the caller's address tuple id). It starts in
 * PROBING and sends a PATH_CHALLENGE; it carries data only after the right
 * PATH_RESPONSE arrived on it. cap_bps = 0: no cap. Returns the path index
 * (>= 0) or -EEXIST / -ENOSPC / -EIO (random failed).
 */
int braid_mp_path_add(struct braid_mp *mp, uint64_t now, uint64_t key, unsigned int flags,
		      uint64_t cap_bps);
int braid_mp_path_find(const struct braid_mp *mp, uint64_t key);
/* Sends PATH_CLOSE on it, moves its packets to the other paths. */
int braid_mp_path_del(struct braid_mp *mp, uint64_t now, int path);
/* Link / address event: down fails the path at once, up re-validates it. */
int braid_mp_path_link_event(struct braid_mp *mp, uint64_t now, int path, int up);
int braid_mp_path_set(struct braid_mp *mp, int path, unsigned int flags, uint64_t cap_bps);
/*
 * Own configuration slot of a path (0..254, BRAID_MP_SLOT_NONE = none): what
 * ratio weights are indexed by and what PATH_STATUS tells the peer. A
 * change (and a backup change by braid_mp_path_set) is sent to the peer at
 * once (docs/multipath.md §6). 0, -ENOENT or -EINVAL.
 */
int braid_mp_path_set_slot(struct braid_mp *mp, int path, unsigned int slot);

/*
 * Queue a data packet. meta = braid_mp_classify() result. 0, -ENETUNREACH
 * (no usable path) or -ENOBUFS (pool full, or the chosen path's send queue
 * is longer than queue_limit_us). On error the caller keeps ref and may
 * reuse pid: the engine did not consume it.
 */
int braid_mp_enqueue(struct braid_mp *mp, uint64_t now, void *ref, uint32_t len,
		     unsigned int meta, uint64_t pid);
/* 1 and *out filled, 0 when nothing is due now. */
int braid_mp_poll_tx(struct braid_mp *mp, uint64_t now, struct braid_mp_tx *out);
/*
 * Optional: the data-channel packet-id the CONTROL message just returned by
 * poll_tx was sealed with. After an MTU probe the engine then queues a SKIP
 * for that id, so that a probe lost for its size does not hold the peer's
 * reorder buffer until the deadline (a SKIP for an id that did arrive is
 * harmless). Other messages: nothing happens.
 */
void braid_mp_ctl_sent(struct braid_mp *mp, uint64_t pid);
/* Earliest time poll_tx / poll_rx has work, UINT64_MAX if none. */
uint64_t braid_mp_next_deadline(struct braid_mp *mp, uint64_t now);

/*
 * A decrypted data packet arrived on path. 0 = the engine holds ref until
 * poll_rx returns it; -EALREADY = duplicate / too old, -ENOBUFS = not polled:
 * the caller keeps ref; -ENOENT = no such path.
 */
int braid_mp_rx_data(struct braid_mp *mp, uint64_t now, int path, uint64_t pid, void *ref,
		     uint32_t len);
/*
 * The same with the packet's class (braid_mp_classify() of the decrypted
 * packet): with latency_classes on, a non-bulk packet (pure ACK, DNS, EF,
 * small) is not held behind gaps of bulk traffic: poll_rx returns it at
 * once. braid_mp_rx_data() = this with BRAID_MP_CLASS_BULK.
 */
int braid_mp_rx_data_meta(struct braid_mp *mp, uint64_t now, int path, uint64_t pid, void *ref,
			  uint32_t len, unsigned int meta);
/* A control message arrived; 0, -ENOMSG, -EBADMSG or -ENOENT. */
int braid_mp_rx_control(struct braid_mp *mp, uint64_t now, int path, uint64_t pid,
			const uint8_t *buf, size_t len);
/* 1 and *out filled (in packet-id order), 0 when nothing is ready. */
int braid_mp_poll_rx(struct braid_mp *mp, uint64_t now, struct braid_mp_rx *out);

int braid_mp_path_stats(const struct braid_mp *mp, int path, struct braid_mp_path_stats *st);
void braid_mp_stats(const struct braid_mp *mp, struct braid_mp_stats *st);
/*
 * The tunnel's MTU: the smallest MTU (engine packet size) among the paths
 * that carry data now; 0 when no path does or the search is off. The
 * daemon clamps the inner TCP MSS to it.
 */
uint32_t braid_mp_tunnel_mtu(const struct braid_mp *mp);
/* Restart the peak values (rx_max_held, rx_max_hold_us) for a new interval. */
void braid_mp_stats_reset_peaks(struct braid_mp *mp);

#endif /* BRAID_MP_H */
