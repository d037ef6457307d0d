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
 * Per-class redundancy (docs/multipath.md §4): meta flag
 * BRAID_MP_META_REDUNDANT (that packet on every usable path, within the
 * redundant scheduler's budget), stats class_copies; rx_dups counts the
 * second copies of ids delivered at once (latency classes) too.
 *
 * The types and constants are in mp_types.h (included here). The functions
 * are implemented across mp.c, mp_path.c, mp_probe.c, mp_timer.c, mp_tx.c
 * and mp_rx.c (see mp.c).
 */
#ifndef BRAID_MP_H
#define BRAID_MP_H

#include <stddef.h>
#include <stdint.h>

#include "mp_classify.h"
#include "mp_msg.h"
#include "mp_types.h"

/* Fill cfg with the defaults named above (callbacks NULL). */
void braid_mp_config_init(struct braid_mp_config *cfg);
/* 0 or -EINVAL (a field out of range / missing callback) / -ENOMEM. */
int braid_mp_new(struct braid_mp **out, const struct braid_mp_config *cfg);
/* Releases every held ref through the callbacks. */
void braid_mp_free(struct braid_mp *mp);
/* Idle arrays give their pages back (mp_trim.c): the reorder arrays when
 * nothing is held or pending, a path's retained / queued rings and the
 * control queue when empty.
 * Nothing observable changes; call it now and then (the data plane: every
 * few seconds). */
void braid_mp_trim(struct braid_mp *mp);

/* Switch scheduler at run time; ratio (n weights) only for RATIO. RATIO with
 * n = 0: no weights by slot (each path's from braid_mp_path_set_weight). */
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
 * The ratio scheduler's weight of one path (0..BRAID_MP_WEIGHT_MAX),
 * overriding its slot's weight; BRAID_MP_WEIGHT_NONE goes back to the
 * slot's; BRAID_MP_WEIGHT_SPARE: it carries data (weight 1) only while no
 * other usable path has a weight above 0. Weight 0: never (as ratio 1:0).
 * The caller binds weights to names (dataplane/mpath_weight.c). Local only
 * (the peer is not told). 0, -ENOENT or -EINVAL.
 */
int braid_mp_path_set_weight(struct braid_mp *mp, int path, uint32_t weight);

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
