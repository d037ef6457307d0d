/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_xq.h - a packet queue from one gateway worker to another: the inner
 * packet a worker read from its TUN queue for a session another worker owns
 * (the kernel picks the multiqueue TUN queue by flow hash, not by owner).
 * Single producer, single consumer, no lock: a ring of fixed-size slots
 * with acquire/release indices, and an eventfd the consumer's libev loop
 * watches. The producer pushes a batch, then kicks once.
 */
#ifndef BRAID_GATEWAY_GW_XQ_H
#define BRAID_GATEWAY_GW_XQ_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct braid_gw_xq {
	_Atomic uint32_t head;		/* next slot the consumer reads */
	_Atomic uint32_t tail;		/* next slot the producer writes */
	uint32_t mask;			/* slots - 1 */
	uint32_t slot_size;		/* bytes a slot holds (plus its length) */
	uint8_t *mem;			/* slots * (sizeof(uint32_t) + slot_size) */
	int efd;			/* eventfd: the consumer's wake-up */
	_Atomic uint64_t full;		/* pushes refused: ring full (counted, the packet dropped) */
	_Atomic uint64_t oversize;	/* pushes refused: longer than a slot */
};

/* slots: a power of two, 2..65536; slot_size 1..65535. Returns 0 or -errno. */
int braid_gw_xq_init(struct braid_gw_xq *q, uint32_t slots, uint32_t slot_size);
void braid_gw_xq_free(struct braid_gw_xq *q);

/* Producer: copies n bytes into the next slot; no wake-up (see kick).
 * Returns 0, -ENOSPC (full) or -EMSGSIZE (n > slot_size), both counted. */
int braid_gw_xq_push(struct braid_gw_xq *q, const void *p, size_t n);

/* Producer: wakes the consumer after a batch of pushes. Returns 0 or -errno. */
int braid_gw_xq_kick(struct braid_gw_xq *q);

/* Consumer: the oldest packet into buf (cap bytes). Returns its length,
 * -EAGAIN when the ring is empty, -EMSGSIZE if cap is too small (the
 * packet stays). */
ssize_t braid_gw_xq_pop(struct braid_gw_xq *q, void *buf, size_t cap);

/* Consumer: clears the eventfd before draining (read when it is readable). */
void braid_gw_xq_ack(struct braid_gw_xq *q);

#endif
