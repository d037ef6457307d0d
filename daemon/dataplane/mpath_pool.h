/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mpath_pool.h - the multipath data plane's packet pools (tx and rx buffers,
 * struct tbuf / struct rbuf of mpath_int.h): address space reserved for the
 * engine's bound (queue / reorder limit + extra) at start, pages touched
 * only when a buffer is first used (tget / rget carve the next unused one
 * when the free list is empty), and given back to the kernel once every
 * buffer is free again (housekeeping, every second). An idle gateway client
 * then costs a few pages instead of its engine's whole bound (~8 MB).
 * The control send batch (64 sealed control packets of up to an MTU probe's
 * size, 580 KB) is reserved the same way and its pages returned with the
 * engine's arrays: malloc'ed, it was resident whenever the allocator handed
 * out recycled memory (docs/scaling.md, "The acceptance run").
 */
#ifndef BRAID_MPATH_POOL_H
#define BRAID_MPATH_POOL_H

struct braid_mpath;

/* Reserve both pools (tsize, rsize, tcount, rcount set) and the control batch. 0 or -ENOMEM. */
int mpath_pool_init(struct braid_mpath *m);
/* Every buffer free and more than a few ever used: wipe them and return their pages; every
 * POOL_TRIM_TICKS calls also the engine's idle arrays (braid_mp_trim) and the control batch's pages. */
void mpath_pool_trim(struct braid_mpath *m);
/* Wipe what was used and unmap. */
void mpath_pool_free(struct braid_mpath *m);

#endif /* BRAID_MPATH_POOL_H */
