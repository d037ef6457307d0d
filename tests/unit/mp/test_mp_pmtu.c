// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mp_pmtu.c - the per-path MTU search state machine (mp_pmtu.c) on its
 * own: bisection order, the try count per size, late answers, black-hole
 * confirmation and its hold, the raise timer.
 */
#include <stdio.h>
#include <string.h>

#include "mp_pmtu.h"
#include "check.h"

#define PTO 100000ULL
#define RAISE 600000000ULL

static unsigned int shrinks;	/* timeouts that lowered mtu */

/* Run the search against a path that passes sizes <= limit; returns the
 * number of probes it took. Probes above the limit time out. */
static unsigned int search(struct mp_pmtu *u, uint64_t *now, uint32_t limit, uint32_t *sizes,
			   unsigned int max_sizes)
{
	unsigned int n = 0;
	uint32_t size, seq = 0;

	while ((size = mp_pmtu_due(u, *now)) != 0 && n < 200) {
		if (n < max_sizes)
			sizes[n] = size;
		n++;
		mp_pmtu_sent(u, *now, ++seq, size);
		if (size <= limit) {
			*now += 20000;
			mp_pmtu_ack(u, *now, seq, size, RAISE);
		} else {
			*now += PTO;
			CHECK_EQ(mp_pmtu_timeout(u, *now - 1, PTO, RAISE), 0);	/* not yet */
			shrinks += mp_pmtu_timeout(u, *now, PTO, RAISE);
		}
	}
	return n;
}

static void test_whole_path(void)
{
	struct mp_pmtu u;
	uint64_t now = 1000000;
	uint32_t sizes[32];

	mp_pmtu_off(&u);
	CHECK_EQ(u.mtu, UINT32_MAX);
	CHECK_EQ(mp_pmtu_due(&u, now), 0);
	CHECK_EQ(mp_pmtu_next(&u, PTO), UINT64_MAX);
	mp_pmtu_start(&u, now, 1200, 1500, 8);
	CHECK_EQ(u.mtu, 1200);
	CHECK_EQ(search(&u, &now, 9000, sizes, 32), 1);
	CHECK_EQ(sizes[0], 1500);
	CHECK_EQ(u.mtu, 1500);
	CHECK_EQ(u.state, MP_PMTU_DONE);
	CHECK_EQ(mp_pmtu_next(&u, PTO), now + RAISE);
	/* the raise timer: a new search from the current MTU (max: nothing to do) */
	CHECK_EQ(mp_pmtu_due(&u, now + RAISE), 0);
	CHECK_EQ(u.state, MP_PMTU_DONE);
}

static void test_bisection(void)
{
	static const uint32_t want[] = { 1500, 1350, 1275, 1312, 1293, 1302, 1297 };
	struct mp_pmtu u;
	uint64_t now = 1000000;
	uint32_t sizes[64];
	unsigned int n, i, k = 0;

	memset(&u, 0, sizeof(u));
	mp_pmtu_start(&u, now, 1200, 1500, 8);
	n = search(&u, &now, 1300, sizes, 64);
	/* each size too big is tried 3 times; the distinct sizes in order */
	for (i = 0; i < n && i < 64; i++)
		if (!i || sizes[i] != sizes[i - 1]) {
			CHECKM(k < sizeof(want) / sizeof(want[0]) && sizes[i] == want[k],
			       "size %u: %u", k, sizes[i]);
			k++;
		}
	CHECK_EQ(k, sizeof(want) / sizeof(want[0]));
	CHECK_EQ(u.mtu, 1297);
	CHECK_EQ(u.hi, 1302);
	CHECK_EQ(u.state, MP_PMTU_DONE);
	CHECK_EQ(n, 4 * MP_PMTU_TRIES + 3);
	CHECK_EQ(u.lost, 4 * MP_PMTU_TRIES);
	CHECK_EQ(u.acks, 3);
	/* one lost probe of a size that passes is retried, not taken as too big */
	mp_pmtu_start(&u, now, 1200, 1500, 8);
	CHECK_EQ(mp_pmtu_due(&u, now), 1500);
	mp_pmtu_sent(&u, now, 100, 1500);
	CHECK_EQ(mp_pmtu_timeout(&u, now + PTO, PTO, RAISE), 0);
	CHECK_EQ(u.hi, 1501);
	CHECK_EQ(mp_pmtu_due(&u, now + PTO), 1500);
	mp_pmtu_sent(&u, now + PTO, 101, 1500);
	CHECK_EQ(mp_pmtu_ack(&u, now + PTO + 1, 101, 1500, RAISE), 1);
	CHECK_EQ(u.mtu, 1500);
	CHECK_EQ(u.searches, 2);
}

/* A path below base: nothing above base passes, so base itself is probed;
 * it fails too, the MTU falls to the floor (a shrink) and the search goes
 * on between the floor and base. Below the floor nothing passes: the floor
 * is kept (assumed) and the search ends. */
static void test_below_base(void)
{
	static const uint32_t want[] = { 1500, 1350, 1275, 1237, 1218, 1209, 1204, 1200,
					 840, 1020, 930, 975, 997, 1008, 1002 };
	struct mp_pmtu u;
	uint64_t now = 1000000;
	uint32_t sizes[128];
	unsigned int n, i, k = 0;

	memset(&u, 0, sizeof(u));
	mp_pmtu_start(&u, now, 1200, 1500, 8);
	shrinks = 0;
	n = search(&u, &now, 1000, sizes, 128);
	for (i = 0; i < n && i < 128; i++)
		if (!i || sizes[i] != sizes[i - 1]) {
			CHECKM(k < sizeof(want) / sizeof(want[0]) && sizes[i] == want[k],
			       "size %u: %u", k, sizes[i]);
			k++;
		}
	CHECK_EQ(k, sizeof(want) / sizeof(want[0]));
	CHECK_EQ(shrinks, 1);
	CHECK_EQ(u.low, MP_PMTU_FLOOR);
	CHECK_EQ(u.mtu, 997);
	CHECK_EQ(u.state, MP_PMTU_DONE);
	/* nothing passes: the floor stays, assumed, and the search ends */
	mp_pmtu_start(&u, now, 1200, 1500, 8);
	shrinks = 0;
	n = search(&u, &now, 100, sizes, 128);
	CHECK_EQ(shrinks, 1);
	CHECK_EQ(u.mtu, MP_PMTU_FLOOR);
	CHECK_EQ(u.state, MP_PMTU_DONE);
	CHECK_EQ(sizes[n - 1], MP_PMTU_FLOOR);
	CHECK_EQ(mp_pmtu_suspect(&u, now), 0);	/* nothing to confirm at the floor */
}

/* An answer that comes after its probe was counted lost still counts, and
 * if its size had been judged too big the bound is forgotten. */
static void test_late_ack(void)
{
	struct mp_pmtu u;
	uint64_t now = 1000000;
	uint32_t seq;

	memset(&u, 0, sizeof(u));
	mp_pmtu_start(&u, now, 1200, 1500, 8);
	for (seq = 1; seq <= MP_PMTU_TRIES; seq++) {
		CHECK_EQ(mp_pmtu_due(&u, now), 1500);
		mp_pmtu_sent(&u, now, seq, 1500);
		now += PTO;
		mp_pmtu_timeout(&u, now, PTO, RAISE);
	}
	CHECK_EQ(u.hi, 1500);
	CHECK_EQ(mp_pmtu_due(&u, now), 1350);
	mp_pmtu_sent(&u, now, 4, 1350);
	/* the answer to probe 2 (1500 bytes) arrives now: the host was slow */
	CHECK_EQ(mp_pmtu_ack(&u, now + 1000, 2, 1500, RAISE), 1);
	CHECK_EQ(u.mtu, 1500);
	CHECK_EQ(u.state, MP_PMTU_DONE);
	/* an answer with a wrong sequence for the probe in flight, or from the
	 * far past, changes nothing */
	mp_pmtu_start(&u, now, 1200, 1500, 8);
	mp_pmtu_sent(&u, now, 200, 1500);
	CHECK_EQ(mp_pmtu_ack(&u, now + 10, 100, 1400, RAISE), 0);
	CHECK_EQ(u.mtu, 1200);
	CHECK_EQ(mp_pmtu_ack(&u, now + 10, 201, 1500, RAISE), 0);
	CHECK_EQ(u.mtu, 1200);
}

static void test_black_hole(void)
{
	struct mp_pmtu u;
	uint64_t now = 1000000;
	uint32_t sizes[64];

	memset(&u, 0, sizeof(u));
	mp_pmtu_start(&u, now, 1200, 1500, 8);
	CHECK_EQ(mp_pmtu_suspect(&u, now), 0);	/* at base: nothing to confirm */
	search(&u, &now, 9000, sizes, 64);
	CHECK_EQ(u.mtu, 1500);
	/* suspicion: a confirmation of 1500 at once, twice lost: black hole */
	CHECK_EQ(mp_pmtu_suspect(&u, now), 1);
	CHECK_EQ(mp_pmtu_suspect(&u, now), 0);	/* one at a time */
	CHECK_EQ(mp_pmtu_next(&u, PTO), 0);
	CHECK_EQ(mp_pmtu_due(&u, now), 1500);
	mp_pmtu_sent(&u, now, 50, 1500);
	CHECK_EQ(mp_pmtu_timeout(&u, now + PTO, PTO, RAISE), 0);
	CHECK_EQ(u.mtu, 1500);
	CHECK_EQ(mp_pmtu_due(&u, now + PTO), 1500);
	mp_pmtu_sent(&u, now + PTO, 51, 1500);
	CHECK_EQ(mp_pmtu_timeout(&u, now + 2 * PTO, PTO, RAISE), 1);
	CHECK_EQ(u.mtu, 1200);
	CHECK_EQ(u.hi, 1500);
	CHECK_EQ(u.blackholes, 1);
	CHECK_EQ(u.state, MP_PMTU_SEARCH);
	now += 2 * PTO;
	search(&u, &now, 1300, sizes, 64);
	CHECK_EQ(u.mtu, 1297);
	/* a confirmation that is answered clears it, and holds new ones off 1 s */
	CHECK_EQ(mp_pmtu_suspect(&u, now), 1);
	CHECK_EQ(mp_pmtu_due(&u, now), 1297);
	mp_pmtu_sent(&u, now, 90, 1297);
	CHECK_EQ(mp_pmtu_ack(&u, now + 100, 90, 1297, RAISE), 0);
	CHECK_EQ(u.mtu, 1297);
	CHECK_EQ(u.state, MP_PMTU_DONE);
	CHECK_EQ(mp_pmtu_suspect(&u, now + 100 + MP_PMTU_BH_HOLD_US - 1), 0);
	CHECK_EQ(mp_pmtu_suspect(&u, now + 100 + MP_PMTU_BH_HOLD_US), 1);
	/* a failed path stops: nothing due, nothing in flight */
	mp_pmtu_stop(&u);
	CHECK_EQ(mp_pmtu_due(&u, now + 10 * RAISE), 0);
	CHECK_EQ(mp_pmtu_next(&u, PTO), UINT64_MAX);
}

int main(void)
{
	test_whole_path();
	test_bisection();
	test_below_base();
	test_late_ack();
	test_black_hole();
	CHECK_DONE();
}
