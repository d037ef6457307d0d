/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mp_sched.h - scheduler helpers that know which path is which: slots and
 * backup flags of both sides (docs/multipath.md §4, §6), and the redundant
 * scheduler's per-path delay budget. The older scheduler entry points are
 * declared in mp_int.h.
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
 * counted: the packet is refused, -ENOBUFS).
 */
uint32_t mp_sched_redundant_fit(struct braid_mp *mp, uint32_t mask, uint32_t len);

/* 1 if path i has the highest pacing rate among the usable paths. */
int mp_sched_fastest(const struct braid_mp *mp, int i);

#endif /* BRAID_MP_SCHED_H */
