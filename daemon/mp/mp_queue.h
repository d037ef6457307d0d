/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mp_queue.h - the engine's queues (mp_queue.c): index rings, transmit
 * packet slots, the control-message queue, queueing a packet on a path.
 */
#ifndef BRAID_MP_QUEUE_H
#define BRAID_MP_QUEUE_H

#include <stdint.h>

#include "mp_int.h"

/* A ring of cap (a power of two) indexes: 0 or -ENOMEM. */
int mp_ring_init(struct mp_ring *r, uint32_t cap);
void mp_ring_fini(struct mp_ring *r);
/* Append v (the ring never overflows: sized for every slot). */
void mp_ring_push(struct mp_ring *r, uint32_t v);
/* Remove and return the oldest index. */
uint32_t mp_ring_pop(struct mp_ring *r);
/* The i-th record of path p's sent ring (cap records). */
struct mp_sent *mp_sent_at(struct mp_path *p, uint32_t cap, uint32_t i);
/* Drop one reference to packet slot idx; the last releases its ref (why). */
void mp_slot_put(struct braid_mp *mp, uint32_t idx, enum braid_mp_release why);
/* A new entry at the end of the control queue for path, or NULL (full, counted). */
struct mp_ctl *mp_ctl_new(struct braid_mp *mp, int path);
/* Queue control message m on path (rx_us: probe arrival for PROBE_ECHO). */
void mp_ctl_send(struct braid_mp *mp, int path, const struct braid_mp_msg *m, uint64_t rx_us);
/* Put slot idx on path i's queue (priority queue for latency classes / re-sends). */
void mp_enqueue_on(struct braid_mp *mp, int i, uint32_t idx, uint32_t resend_bit);
/* Move a packet (slot idx) that was bound to a dead path to a live one. */
void mp_reschedule(struct braid_mp *mp, uint64_t now, uint32_t idx, uint32_t resend_bit);

#endif /* BRAID_MP_QUEUE_H */
