/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mp_timer.h - reports, the reorder deadline and the periodic timers
 * (mp_timer.c). braid_mp_next_deadline is declared in mp.h.
 */
#ifndef BRAID_MP_TIMER_H
#define BRAID_MP_TIMER_H

#include <stdint.h>

#include "mp_int.h"

/* Time between REPORT messages (us). */
uint64_t mp_timer_report_interval(const struct braid_mp *mp);
/* Adaptive reorder deadline: spread of the incoming paths' current one-way
 * delays plus twice their jitter plus 2 ms, capped. */
uint64_t mp_timer_reorder_deadline(struct braid_mp *mp, uint64_t now);
/* Run every timer due at now (validation, probes, reports, failure, MPIP). */
void mp_timer_run(struct braid_mp *mp, uint64_t now);

#endif /* BRAID_MP_TIMER_H */
