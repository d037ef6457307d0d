// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mp_reorder.c - reorder buffer: order, deadline release of gaps,
 * packet bound, duplicates, late packets, control-message fillers.
 */
#include <errno.h>
#include <stdint.h>

#include "mp_reorder.h"
#include "check.h"

#define REF(pid) ((void *)(uintptr_t)((pid) + 1))

static int pop_all(struct mp_reorder *r, uint64_t now, uint64_t *pids, int max)
{
	struct mp_ro_out o;
	int n = 0;

	while (n < max && mp_reorder_pop(r, now, &o) == 1) {
		CHECKM(o.ref == REF(o.pid), "ref/pid mismatch");
		pids[n++] = o.pid;
	}
	return n;
}

static void test_order_and_deadline(void)
{
	struct mp_reorder r;
	uint64_t got[64];
	int n;

	CHECK_EQ(mp_reorder_init(&r, 64, 16), 0);
	CHECK_EQ(mp_reorder_insert(&r, 1000, 10, REF(10), 100), 0);
	CHECK_EQ(mp_reorder_insert(&r, 1000, 12, REF(12), 100), 0);	/* 11 missing */
	CHECK_EQ(mp_reorder_insert(&r, 1100, 13, REF(13), 100), 0);
	n = pop_all(&r, 1100, got, 64);
	CHECK_EQ(n, 1);
	CHECK_EQ(got[0], 10);
	CHECK_EQ(mp_reorder_next_expiry(&r, 5000), 6000);	/* 12 arrived at 1000 */
	mp_reorder_expire(&r, 5999, 5000);
	CHECK_EQ(pop_all(&r, 5999, got, 64), 0);			/* not yet */
	mp_reorder_expire(&r, 6000, 5000);
	n = pop_all(&r, 6000, got, 64);
	CHECK_EQ(n, 2);
	CHECK_EQ(got[0], 12);
	CHECK_EQ(got[1], 13);
	CHECK_EQ(r.st.gaps_deadline, 1);
	CHECK_EQ(r.st.max_hold_us, 5000);
	/* 11 arrives late: delivered once, then a duplicate */
	CHECK_EQ(mp_reorder_insert(&r, 7000, 11, REF(11), 100), 0);
	CHECK_EQ(pop_all(&r, 7000, got, 64), 1);
	CHECK_EQ(got[0], 11);
	CHECK_EQ(r.st.late, 1);
	CHECK_EQ(mp_reorder_insert(&r, 7001, 11, REF(11), 100), -EALREADY);
	CHECK_EQ(mp_reorder_insert(&r, 7001, 12, REF(12), 100), -EALREADY);
	CHECK_EQ(r.st.dups, 2);
	CHECK_EQ(mp_reorder_next_expiry(&r, 5000), UINT64_MAX);
	mp_reorder_fini(&r, NULL, NULL);
}

static void test_bound_and_filler(void)
{
	struct mp_reorder r;
	uint64_t got[256], pid;
	int n;

	CHECK_EQ(mp_reorder_init(&r, 64, 8), 0);
	CHECK_EQ(mp_reorder_insert(&r, 0, 100, REF(100), 1), 0);
	CHECK_EQ(pop_all(&r, 0, got, 256), 1);
	/* 101 lost; 102..109 held (8 = bound), 110 forces the gap open */
	for (pid = 102; pid <= 109; pid++)
		CHECK_EQ(mp_reorder_insert(&r, 10, pid, REF(pid), 1), 0);
	CHECK_EQ(r.st.held, 8);
	CHECK_EQ(pop_all(&r, 10, got, 256), 0);
	CHECK_EQ(mp_reorder_insert(&r, 11, 110, REF(110), 1), 0);
	n = pop_all(&r, 11, got, 256);
	CHECK_EQ(n, 9);
	CHECK_EQ(got[0], 102);
	CHECK_EQ(got[8], 110);
	CHECK_EQ(r.st.gaps_bound, 1);
	CHECK_EQ(r.st.max_held, 8);
	/* a control message's packet-id fills its slot: no gap, no hold */
	mp_reorder_filler(&r, 12, 111);
	CHECK_EQ(mp_reorder_insert(&r, 12, 112, REF(112), 1), 0);
	CHECK_EQ(pop_all(&r, 12, got, 256), 1);
	CHECK_EQ(got[0], 112);
	/* far ahead of the window: everything before is given up */
	mp_reorder_filler(&r, 13, 114);	/* 113 missing, nothing held */
	CHECK_EQ(mp_reorder_insert(&r, 13, 1000, REF(1000), 1), 0);
	CHECK_EQ(r.next, 1000 - 64 + 1);	/* the window slid, 1000 still waits */
	CHECK_EQ(r.st.gaps_bound, 1 + (1000 - 64 + 1 - 113));
	CHECK_EQ(pop_all(&r, 13, got, 256), 0);
	mp_reorder_expire(&r, 13 + 2000, 2000);
	CHECK_EQ(r.next, 1001);
	CHECK_EQ(pop_all(&r, 13, got, 256), 1);
	CHECK_EQ(got[0], 1000);
	/* much too old to know about */
	CHECK_EQ(mp_reorder_insert(&r, 14, 100, REF(100), 1), -EALREADY);
	CHECK_EQ(r.st.too_old, 1);
	/* a caller that never polls: bounded, then -ENOBUFS */
	for (pid = 1001; pid < 1001 + 128; pid++)
		CHECK_EQ(mp_reorder_insert(&r, 15, pid, REF(pid), 1), 0);
	CHECK_EQ(mp_reorder_insert(&r, 15, pid, REF(pid), 1), -ENOBUFS);
	CHECK_EQ(pop_all(&r, 15, got, 256), 128);
	mp_reorder_fini(&r, NULL, NULL);
	CHECK_EQ(mp_reorder_init(&r, 60, 8), -EINVAL);
	CHECK_EQ(mp_reorder_init(&r, 64, 65), -EINVAL);
}

/* Latency-class bypass (insert_now) and the missing-pid query (NACKs). */
static void test_bypass_and_missing(void)
{
	struct mp_reorder r;
	uint64_t got[64];
	int n;

	CHECK_EQ(mp_reorder_init(&r, 64, 16), 0);
	CHECK_EQ(mp_reorder_insert(&r, 1000, 20, REF(20), 100), 0);
	CHECK_EQ(mp_reorder_insert(&r, 1000, 23, REF(23), 100), 0);	/* 21, 22 missing */
	CHECK_EQ(mp_reorder_insert_now(&r, 1001, 25, REF(25), 60), 0);	/* an ACK: now */
	n = pop_all(&r, 1001, got, 64);
	CHECK_EQ(n, 2);
	CHECK_EQ(got[0], 20);
	CHECK_EQ(got[1], 25);
	CHECK_EQ(mp_reorder_missing(&r, 20), 0);
	CHECK_EQ(mp_reorder_missing(&r, 21), 1);
	CHECK_EQ(mp_reorder_missing(&r, 22), 1);
	CHECK_EQ(mp_reorder_missing(&r, 23), 0);	/* held */
	CHECK_EQ(mp_reorder_missing(&r, 24), 1);
	CHECK_EQ(mp_reorder_missing(&r, 25), 0);	/* bypassed: arrived */
	CHECK_EQ(mp_reorder_missing(&r, 26), 0);	/* beyond the highest: unknown */
	/* a copy of the bypassed packet is a duplicate */
	CHECK_EQ(mp_reorder_insert(&r, 1002, 25, REF(25), 60), -EALREADY);
	/* 21 arrives; 22 is given up at the deadline of 23 (held since 1000);
	 * 24 stays open: only the filler of 25 is behind it */
	CHECK_EQ(mp_reorder_insert(&r, 1003, 21, REF(21), 100), 0);
	mp_reorder_expire(&r, 1000 + 500, 500);
	n = pop_all(&r, 1500, got, 64);
	CHECK_EQ(n, 2);
	CHECK_EQ(got[0], 21);
	CHECK_EQ(got[1], 23);
	CHECK_EQ(mp_reorder_missing(&r, 22), 1);	/* given up, still missing */
	CHECK_EQ(mp_reorder_missing(&r, 24), 1);
	CHECK_EQ(r.next, 24);
	/* the given-up 22 arrives late: delivered once, then no longer missing */
	CHECK_EQ(mp_reorder_insert(&r, 1600, 22, REF(22), 100), 0);
	CHECK_EQ(mp_reorder_missing(&r, 22), 0);
	n = pop_all(&r, 1600, got, 64);
	CHECK_EQ(n, 1);
	CHECK_EQ(got[0], 22);
	mp_reorder_fini(&r, NULL, NULL);
}

int main(void)
{
	test_order_and_deadline();
	test_bound_and_filler();
	test_bypass_and_missing();
	CHECK_DONE();
}
