// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_xq.c - the single-producer single-consumer packet ring between two
 * gateway workers, woken by an eventfd (gw_xq.h).
 */
#include "gateway/gw_xq.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define XQ_LEN_SIZE sizeof(uint32_t)

static uint8_t *slot(const struct braid_gw_xq *q, uint32_t i)
{
	return q->mem + (size_t)(i & q->mask) * (XQ_LEN_SIZE + q->slot_size);
}

int braid_gw_xq_init(struct braid_gw_xq *q, uint32_t slots, uint32_t slot_size)
{
	memset(q, 0, sizeof(*q));
	q->efd = -1;
	if (slots < 2 || slots > 65536 || (slots & (slots - 1)) || !slot_size || slot_size > 65535)
		return -EINVAL;
	q->mem = calloc(slots, XQ_LEN_SIZE + slot_size);
	if (!q->mem)
		return -ENOMEM;
	q->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (q->efd < 0) {
		int r = -errno;

		free(q->mem);
		q->mem = NULL;
		return r;
	}
	q->mask = slots - 1;
	q->slot_size = slot_size;
	return 0;
}

void braid_gw_xq_free(struct braid_gw_xq *q)
{
	if (q->efd >= 0)
		close(q->efd);
	free(q->mem);
	q->mem = NULL;
	q->efd = -1;
}

int braid_gw_xq_push(struct braid_gw_xq *q, const void *p, size_t n)
{
	uint32_t t = atomic_load_explicit(&q->tail, memory_order_relaxed);
	uint32_t h = atomic_load_explicit(&q->head, memory_order_acquire);
	uint32_t len = (uint32_t)n;
	uint8_t *s;

	if (n > q->slot_size) {
		atomic_fetch_add_explicit(&q->oversize, 1, memory_order_relaxed);
		return -EMSGSIZE;
	}
	if (t - h > q->mask) {
		atomic_fetch_add_explicit(&q->full, 1, memory_order_relaxed);
		return -ENOSPC;
	}
	s = slot(q, t);
	memcpy(s, &len, XQ_LEN_SIZE);
	memcpy(s + XQ_LEN_SIZE, p, n);
	atomic_store_explicit(&q->tail, t + 1, memory_order_release);
	return 0;
}

int braid_gw_xq_kick(struct braid_gw_xq *q)
{
	uint64_t one = 1;

	/* EAGAIN: the counter is at its maximum, the consumer is woken anyway */
	if (write(q->efd, &one, sizeof(one)) != sizeof(one) && errno != EAGAIN)
		return -errno;
	return 0;
}

ssize_t braid_gw_xq_pop(struct braid_gw_xq *q, void *buf, size_t cap)
{
	uint32_t h = atomic_load_explicit(&q->head, memory_order_relaxed);
	uint32_t t = atomic_load_explicit(&q->tail, memory_order_acquire);
	uint32_t len;
	uint8_t *s;

	if (h == t)
		return -EAGAIN;
	s = slot(q, h);
	memcpy(&len, s, XQ_LEN_SIZE);
	if (len > q->slot_size) /* cannot happen: push bounds it; never trust it blindly */
		len = q->slot_size;
	if (len > cap)
		return -EMSGSIZE;
	memcpy(buf, s + XQ_LEN_SIZE, len);
	atomic_store_explicit(&q->head, h + 1, memory_order_release);
	return len;
}

void braid_gw_xq_ack(struct braid_gw_xq *q)
{
	uint64_t v;

	/* EAGAIN: nothing pending; the drain that follows reads the ring anyway */
	if (read(q->efd, &v, sizeof(v)) < 0)
		return;
}
