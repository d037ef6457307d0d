/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mpath_stats.h - the per-path numbers of the multipath data plane
 * (mpath_stats.c), internal to the mpath files: totals that survive a path
 * re-learned or an engine restart, and the last interval's rates, share,
 * loss and RTT freshness that braid_mpath_paths() reports.
 */
#ifndef BRAID_MPATH_STATS_H
#define BRAID_MPATH_STATS_H

#include <stdint.h>

#include "dataplane/mpath_int.h"

/* Path i is about to go (engine path still there): keep its totals for a successor. */
void mpath_stats_retire(struct braid_mpath *m, int i);
/* Every path is about to go with the engine (braid_mpath_restart). */
void mpath_stats_retire_all(struct braid_mpath *m);
/* Path i was just added: take a predecessor's totals (same socket and peer address). */
void mpath_stats_adopt(struct braid_mpath *m, int i, uint64_t now);
/* An authenticated datagram arrived on path i. */
static inline void mpath_stats_rx(struct braid_mpath *m, int i, uint64_t now)
{
	m->ep[i].last_rx_us = now;
}
/* The housekeeping tick: close the interval of every path. */
void mpath_stats_tick(struct braid_mpath *m, uint64_t now);
/* The totals and the interval of path i into p (p->mp already filled from the engine). */
void mpath_stats_fill(const struct braid_mpath *m, int i, struct braid_mpath_path_info *p,
		      uint64_t now);

#endif /* BRAID_MPATH_STATS_H */
