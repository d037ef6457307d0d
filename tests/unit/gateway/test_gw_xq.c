// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_gw_xq.c - the worker-to-worker packet ring: bounds (slot count, a
 * packet longer than a slot, a too-small reader buffer), full ring refused
 * and counted, then a producer thread and a consumer woken by the eventfd:
 * every packet accepted arrives once, in order, with its bytes intact, and
 * accepted + refused = sent.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "gateway/gw_xq.h"

#define NPKT 50000u

static void fill(uint8_t *p, uint32_t seq, size_t n)
{
	size_t i;

	memcpy(p, &seq, sizeof(seq));
	for (i = sizeof(seq); i < n; i++)
		p[i] = (uint8_t)(seq * 31 + i);
}

static size_t len_of(uint32_t seq)
{
	return 4 + seq % 200;
}

static void *producer(void *arg)
{
	struct braid_gw_xq *q = arg;
	uint8_t p[256];
	uint32_t seq;

	for (seq = 0; seq < NPKT; seq++) {
		fill(p, seq, len_of(seq));
		while (braid_gw_xq_push(q, p, len_of(seq)) == -ENOSPC)
			braid_gw_xq_kick(q), sched_yield(); /* full: let the consumer catch up (a worker drops instead) */
		if (seq % 32 == 31)
			braid_gw_xq_kick(q);
	}
	braid_gw_xq_kick(q);
	return NULL;
}

int main(void)
{
	struct braid_gw_xq q;
	uint8_t p[256], b[256];
	uint32_t seq, next = 0, bad = 0;
	pthread_t th;
	ssize_t n;
	int i;

	CHECK_EQ(braid_gw_xq_init(&q, 3, 100), -EINVAL);
	CHECK_EQ(braid_gw_xq_init(&q, 0, 100), -EINVAL);
	CHECK_EQ(braid_gw_xq_init(&q, 4, 0), -EINVAL);
	CHECK_EQ(braid_gw_xq_init(&q, 4, 65536), -EINVAL);

	/* bounds and a full ring */
	CHECK_EQ(braid_gw_xq_init(&q, 4, 100), 0);
	CHECK_EQ(braid_gw_xq_pop(&q, b, sizeof(b)), -EAGAIN);
	CHECK_EQ(braid_gw_xq_push(&q, p, 101), -EMSGSIZE);
	CHECK_EQ(atomic_load(&q.oversize), 1);
	for (i = 0; i < 4; i++) {
		fill(p, (uint32_t)i, 100);
		CHECK_EQ(braid_gw_xq_push(&q, p, 100), 0);
	}
	CHECK_EQ(braid_gw_xq_push(&q, p, 10), -ENOSPC);
	CHECK_EQ(atomic_load(&q.full), 1);
	CHECK_EQ(braid_gw_xq_pop(&q, b, 99), -EMSGSIZE); /* stays queued */
	for (i = 0; i < 4; i++) {
		CHECK_EQ(braid_gw_xq_pop(&q, b, sizeof(b)), 100);
		fill(p, (uint32_t)i, 100);
		CHECK(!memcmp(b, p, 100));
	}
	CHECK_EQ(braid_gw_xq_pop(&q, b, sizeof(b)), -EAGAIN);
	CHECK_EQ(braid_gw_xq_push(&q, p, 0), 0); /* an empty packet is a packet */
	CHECK_EQ(braid_gw_xq_pop(&q, b, sizeof(b)), 0);
	braid_gw_xq_free(&q);

	/* two threads: the consumer sleeps on the eventfd as a libev loop would */
	CHECK_EQ(braid_gw_xq_init(&q, 256, 256), 0);
	CHECK_EQ(pthread_create(&th, NULL, producer, &q), 0);
	while (next < NPKT) {
		struct pollfd pf = { .fd = q.efd, .events = POLLIN };

		if (poll(&pf, 1, 10000) != 1)
			break; /* 10 s without a wake-up: a lost kick */
		braid_gw_xq_ack(&q);
		while ((n = braid_gw_xq_pop(&q, b, sizeof(b))) >= 0) {
			memcpy(&seq, b, sizeof(seq));
			fill(p, next, len_of(next));
			if (seq != next || (size_t)n != len_of(next) || memcmp(b, p, (size_t)n))
				bad++;
			next++;
		}
	}
	pthread_join(th, NULL);
	CHECK_EQ(next, NPKT);
	CHECK_EQ(bad, 0);
	CHECK_EQ(braid_gw_xq_pop(&q, b, sizeof(b)), -EAGAIN);
	CHECK_EQ(atomic_load(&q.oversize), 0);
	printf("gw_xq: %u packets through, ring full %llu times\n", next, (unsigned long long)atomic_load(&q.full));
	braid_gw_xq_free(&q);
	CHECK_DONE();
}
