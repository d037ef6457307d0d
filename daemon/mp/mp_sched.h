/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mp_sched.h - scheduler helpers that know which path is which: slots and
 * backup flags of both sides (docs/multipath.md §4, §6), and the redundant
 * scheduler's per-path delay budget; and the scheduler entry points the
 * engine calls (mp_sched_usable, _pick, _charge, ...).
 */
#ifndef BRAID_MP_SCHED_H
#define BRAID_MP_SCHED_H

#include <stdint.h>

struct braid_mp;
struct mp_path;

/* The slot ratio weights use: the path's own (configured path), else the
 * peer's (learned path), else BRAID_MP_SLOT_NONE. */
unsigned int mp_sched_slot(const struct mp_path *p);
/* Slots or backup flags changed: restart the stride clocks of the usable
 * paths (a weight that went from 0 to positive must not make its path owe
 * nothing). */
void mp_sched_reweigh(struct braid_mp *mp);
/*
 * redundant: of the paths in mask, those whose send queue stays within its
 * delay budget (queue_limit_us) with len more bytes; each path left out
 * counts one redundant_skipped. 0 = every path is over budget (nothing
 * counted: the packet is refused, -ENOBUFS). prio: the copy joins the
 * priority queue (a latency class), so only that queue's bytes wait ahead.
 */
uint32_t mp_sched_redundant_fit(struct braid_mp *mp, uint32_t mask, uint32_t len, int prio);
/*
 * 1 if the packet in slot idx went out as copies (the redundant scheduler,
 * or BRAID_MP_META_REDUNDANT) and a reference besides the caller's is held:
 * another path still queues or has sent a copy of it.
 */
int mp_sched_copy_elsewhere(const struct braid_mp *mp, uint32_t idx);

/* 1 if path i has the highest pacing rate among the usable paths. */
int mp_sched_fastest(const struct braid_mp *mp, int i);

/* Bit mask of the paths data may use now (best tier only). */
uint32_t mp_sched_usable(const struct braid_mp *mp);
/* Paths to put a packet on (bit mask), 0 = none. Only paths whose MTU fits
 * len; if none does, the ones with the largest MTU (counted). */
uint32_t mp_sched_pick(struct braid_mp *mp, uint64_t now, uint32_t len, unsigned int meta);
/* Charge len bytes to path i in the stride scheduler. */
void mp_sched_charge(struct braid_mp *mp, int i, uint32_t len);
/* A path became usable: align its stride clock and MPIP weight. */
void mp_sched_path_up(struct braid_mp *mp, int i);
/* Relative one-way delay of path i among the paths in mask. */
double mp_sched_rel_delay(const struct braid_mp *mp, uint32_t mask, int i);
/* Send-queue delay on path i that costs nothing: the slowest usable path
 * takes that much longer anyway (EDF fills the fast path up to it). */
uint64_t mp_sched_free_delay(const struct braid_mp *mp, int i);
/* MPIP Algorithm 1 step (every T). */
void mp_sched_mpip_step(struct braid_mp *mp);
uint64_t mp_path_rate(const struct braid_mp *mp, const struct mp_path *p);

#endif /* BRAID_MP_SCHED_H */
