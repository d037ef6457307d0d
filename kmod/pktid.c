// SPDX-License-Identifier: GPL-2.0-only
/*
 * Packet ids: the next id to send (1 .. 2^32 - 1, never reused under one key) and the replay check
 * of an authenticated received id against a BRAID_REPLAY_WINDOW-wide sliding bitmap.
 */
#include <linux/bitmap.h>
#include <linux/errno.h>

#include "pktid.h"

/**
 * braid_replay_init() - an empty window
 * @r: the window
 */
void braid_replay_init(struct braid_replay *r)
{
	spin_lock_init(&r->lock);
	r->top = 0;
	bitmap_zero(r->bits, BRAID_REPLAY_WINDOW);
}

/**
 * braid_replay_check() - accept an authenticated packet id once
 * @r: the window
 * @id: the packet id
 *
 * Return: 0 (new: recorded), -EALREADY (seen before), -ESTALE (0 or older than the window)
 */
int braid_replay_check(struct braid_replay *r, u32 id)
{
	int err = 0;
	u32 i;

	if (!id)
		return -ESTALE;
	spin_lock_bh(&r->lock);
	if (id > r->top) {
		if (id - r->top >= BRAID_REPLAY_WINDOW)
			bitmap_zero(r->bits, BRAID_REPLAY_WINDOW);
		else
			for (i = r->top + 1; i != id; i++)
				__clear_bit(i % BRAID_REPLAY_WINDOW, r->bits);
		r->top = id;
		__set_bit(id % BRAID_REPLAY_WINDOW, r->bits);
	} else if (r->top - id >= BRAID_REPLAY_WINDOW) {
		err = -ESTALE;
	} else if (__test_and_set_bit(id % BRAID_REPLAY_WINDOW, r->bits)) {
		err = -EALREADY;
	}
	spin_unlock_bh(&r->lock);
	return err;
}

/**
 * braid_pktid_next() - the next packet id to send
 * @tx: the key's send counter (starts at 0)
 * @id: the id
 *
 * Return: 0, or -EOVERFLOW when the key's id space is used up (a new key is needed)
 */
int braid_pktid_next(atomic64_t *tx, u32 *id)
{
	u64 n = atomic64_inc_return(tx);

	if (n > U32_MAX)
		return -EOVERFLOW;
	*id = (u32)n;
	return 0;
}
