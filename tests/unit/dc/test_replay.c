// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_replay.c - replay window edge cases (OpenVPN --replay-window semantics).
 */
#include "replay.h"
#include "check.h"

#include <errno.h>

#define OK BRAID_REPLAY_OK
#define DUP BRAID_REPLAY_DUPLICATE
#define OLD BRAID_REPLAY_TOO_OLD
#define EXP BRAID_REPLAY_EXPIRED

static void test_init_limits(void)
{
	struct braid_replay r;

	CHECK_EQ(braid_replay_init(&r, 0, 15), -EINVAL);
	CHECK_EQ(braid_replay_init(&r, 65537, 15), -EINVAL);
	CHECK_EQ(braid_replay_init(&r, 64, 601), -EINVAL);
	CHECK_EQ(braid_replay_init(&r, 65536, 600), 0);
	CHECK_EQ(r.nbits, 65536);
	braid_replay_free(&r);
	CHECK_EQ(braid_replay_init(&r, 100, 0), 0);
	CHECK_EQ(r.nbits, 128); /* rounded up to a power of two */
	braid_replay_free(&r);
}

static void test_in_order_and_zero(void)
{
	struct braid_replay r;

	CHECK_EQ(braid_replay_init(&r, 64, 15), 0);
	CHECK_EQ(braid_replay_accept(&r, 0, 0, 100), BRAID_REPLAY_ZERO_ID);
	for (uint32_t id = 1; id <= 1000; id++)
		if (braid_replay_accept(&r, 0, id, 100) != OK)
			CHECK_EQ(id, 0); /* report the first failing id */
	CHECK_EQ(r.highest, 1000);
	CHECK_EQ(braid_replay_accept(&r, 0, 1000, 100), DUP);
	CHECK_EQ(braid_replay_accept(&r, 0, 999, 100), DUP);
	CHECK_EQ(braid_replay_accept(&r, 0, 0, 100), BRAID_REPLAY_ZERO_ID);
	braid_replay_free(&r);
}

static void test_reorder_window_edges(void)
{
	struct braid_replay r;

	CHECK_EQ(braid_replay_init(&r, 64, 15), 0);
	CHECK_EQ(braid_replay_accept(&r, 0, 200, 0), OK);
	/* highest - id < 64 is in the window: 137..199 ok, 136 too old */
	CHECK_EQ(braid_replay_accept(&r, 0, 137, 0), OK);
	CHECK_EQ(braid_replay_accept(&r, 0, 136, 0), OLD);
	CHECK_EQ(braid_replay_accept(&r, 0, 199, 0), OK);
	CHECK_EQ(braid_replay_accept(&r, 0, 150, 0), OK);
	CHECK_EQ(braid_replay_accept(&r, 0, 150, 0), DUP);
	CHECK_EQ(braid_replay_accept(&r, 0, 137, 0), DUP);
	/* check() does not record */
	CHECK_EQ(braid_replay_check(&r, 0, 160, 0), OK);
	CHECK_EQ(braid_replay_check(&r, 0, 160, 0), OK);
	/* jump forward by 10: 137 now outside (210-137 = 73), 147 is at diff 63 */
	CHECK_EQ(braid_replay_accept(&r, 0, 210, 0), OK);
	CHECK_EQ(braid_replay_accept(&r, 0, 147, 0), OK);
	CHECK_EQ(braid_replay_accept(&r, 0, 146, 0), OLD);
	CHECK_EQ(braid_replay_accept(&r, 0, 150, 0), DUP); /* seen bit survives the slide */
	CHECK_EQ(braid_replay_accept(&r, 0, 205, 0), OK);  /* skipped ids are unseen */
	/* a jump larger than the bitmap clears it all */
	CHECK_EQ(braid_replay_accept(&r, 0, 100000, 0), OK);
	CHECK_EQ(braid_replay_accept(&r, 0, 99937, 0), OK);
	CHECK_EQ(braid_replay_accept(&r, 0, 99936, 0), OLD);
	CHECK_EQ(r.max_backtrack, 63);
	/* first packets before the window is full: anything 1..highest unseen is fine */
	braid_replay_reset(&r);
	CHECK_EQ(braid_replay_accept(&r, 0, 10, 0), OK);
	CHECK_EQ(braid_replay_accept(&r, 0, 1, 0), OK);
	CHECK_EQ(braid_replay_accept(&r, 0, 1, 0), DUP);
	braid_replay_free(&r);
}

static void test_deep_window(void)
{
	struct braid_replay r;
	unsigned dups = 0, oks = 0;

	CHECK_EQ(braid_replay_init(&r, 4096, 15), 0);
	CHECK_EQ(braid_replay_accept(&r, 0, 5000, 0), OK);
	CHECK_EQ(braid_replay_accept(&r, 0, 5000 - 4095, 0), OK);
	CHECK_EQ(braid_replay_accept(&r, 0, 5000 - 4096, 0), OLD);
	/* deliver 5001..9096 in reverse (a 4096-deep reorder): highest first */
	CHECK_EQ(braid_replay_accept(&r, 0, 9096, 0), OK);
	for (uint32_t id = 9095; id >= 5001; id--)
		oks += braid_replay_accept(&r, 0, id, 0) == OK;
	CHECK_EQ(oks, 4095);
	for (uint32_t id = 5001; id <= 9096; id++)
		dups += braid_replay_accept(&r, 0, id, 0) == DUP;
	CHECK_EQ(dups, 4096);
	CHECK_EQ(braid_replay_accept(&r, 0, 5000, 0), OLD); /* diff 4096 */
	/* interleaved two-path pattern: evens arrive 3000 ids ahead of odds */
	braid_replay_reset(&r);
	oks = 0;
	for (uint32_t i = 1; i <= 20000; i++) {
		uint32_t even = 2 * i + 3000, odd = 2 * i - 1;

		oks += braid_replay_accept(&r, 0, even, 0) == OK;
		oks += braid_replay_accept(&r, 0, odd, 0) == OK;
	}
	CHECK_EQ(oks, 40000);
	braid_replay_free(&r);
}

static void test_time_window(void)
{
	struct braid_replay r;

	CHECK_EQ(braid_replay_init(&r, 64, 15), 0);
	CHECK_EQ(braid_replay_accept(&r, 0, 10, 1000), OK);  /* 10 received at t=1000 */
	CHECK_EQ(braid_replay_accept(&r, 0, 20, 1010), OK);  /* 20 at t=1010 */
	/* 5 is in the window; 10 arrived 15 s ago (not more): still acceptable */
	CHECK_EQ(braid_replay_check(&r, 0, 5, 1015), OK);
	/* at 1016, 10 arrived more than 15 s ago: ids <= 10 expired, 11..19 not */
	CHECK_EQ(braid_replay_accept(&r, 0, 5, 1016), EXP);
	CHECK_EQ(braid_replay_accept(&r, 0, 10, 1016), DUP);
	CHECK_EQ(braid_replay_accept(&r, 0, 15, 1016), OK);
	/* at 1026, 20 arrived 16 s ago: everything up to 20 is expired */
	CHECK_EQ(braid_replay_accept(&r, 0, 19, 1026), EXP);
	CHECK_EQ(braid_replay_accept(&r, 0, 21, 1026), OK);  /* above highest: always fine */
	/* a clock stepping back is clamped, nothing un-expires */
	CHECK_EQ(braid_replay_accept(&r, 0, 18, 900), EXP);
	braid_replay_free(&r);

	/* time_window 0 disables the time rule */
	CHECK_EQ(braid_replay_init(&r, 64, 0), 0);
	CHECK_EQ(braid_replay_accept(&r, 0, 10, 0), OK);
	CHECK_EQ(braid_replay_accept(&r, 0, 20, 0), OK);
	CHECK_EQ(braid_replay_accept(&r, 0, 5, 100000), OK);
	braid_replay_free(&r);
}

static void test_long_form_time_backtrack(void)
{
	struct braid_replay r;

	/* tls-auth style (time, id): a newer time starts a new sequence */
	CHECK_EQ(braid_replay_init(&r, 64, 15), 0);
	CHECK_EQ(braid_replay_accept(&r, 1700000000u, 1, 0), OK);
	CHECK_EQ(braid_replay_accept(&r, 1700000000u, 2, 0), OK);
	CHECK_EQ(braid_replay_accept(&r, 1700000000u, 2, 0), DUP);
	CHECK_EQ(braid_replay_accept(&r, 1700000005u, 1, 0), OK);
	CHECK_EQ(braid_replay_accept(&r, 1700000005u, 1, 0), DUP);
	CHECK_EQ(braid_replay_accept(&r, 1700000000u, 3, 0), BRAID_REPLAY_TIME_BACKTRACK);
	CHECK_STR(braid_replay_result_str(BRAID_REPLAY_TIME_BACKTRACK), "time backtrack");
	braid_replay_free(&r);
}

static void test_wrap_edge(void)
{
	struct braid_replay r;

	/* ids near 2^32: no wrap, 0xFFFFFFFF is the last valid id */
	CHECK_EQ(braid_replay_init(&r, 64, 15), 0);
	CHECK_EQ(braid_replay_accept(&r, 0, 0xfffffff0u, 0), OK);
	CHECK_EQ(braid_replay_accept(&r, 0, 0xffffffffu, 0), OK);
	CHECK_EQ(braid_replay_accept(&r, 0, 0xfffffff5u, 0), OK);
	CHECK_EQ(braid_replay_accept(&r, 0, 0xffffffffu, 0), DUP);
	CHECK_EQ(braid_replay_accept(&r, 0, 1, 0), OLD); /* a "wrapped" id is ancient */
	CHECK_EQ(braid_replay_accept(&r, 0, 0, 0), BRAID_REPLAY_ZERO_ID);
	braid_replay_free(&r);
}

int main(void)
{
	test_init_limits();
	test_in_order_and_zero();
	test_reorder_window_edges();
	test_deep_window();
	test_time_window();
	test_long_form_time_backtrack();
	test_wrap_edge();
	CHECK_DONE();
}
