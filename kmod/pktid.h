/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Packet ids of one key: the send counter and the receive replay window. The window is wide
 * (BRAID_REPLAY_WINDOW ids) because packets of several paths with different delays arrive out of
 * order.
 */
#ifndef _BRAID_DCO_PKTID_H_
#define _BRAID_DCO_PKTID_H_

#include <linux/atomic.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#define BRAID_REPLAY_WINDOW 2048

/**
 * struct braid_replay - receive replay window
 * @lock: serialises updates (packets of several CPUs)
 * @top: the highest id accepted so far
 * @bits: one bit per id in (top - BRAID_REPLAY_WINDOW, top], at id % BRAID_REPLAY_WINDOW
 */
struct braid_replay {
	spinlock_t lock; /* serialises updates */
	u32 top;
	DECLARE_BITMAP(bits, BRAID_REPLAY_WINDOW);
};

void braid_replay_init(struct braid_replay *r);
int braid_replay_check(struct braid_replay *r, u32 id);
int braid_pktid_next(atomic64_t *tx, u32 *id);

#endif /* _BRAID_DCO_PKTID_H_ */
