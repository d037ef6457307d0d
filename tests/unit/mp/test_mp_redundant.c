// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mp_redundant.c - the redundant scheduler's rule (docs/multipath.md §4)
 * on the simulator: every packet on every usable path, except a copy for a
 * path whose send queue is over its delay budget (redundant_skipped); the
 * slow path never holds back the fast one, and nothing is lost or delivered
 * twice.
 *
 * 50 Mbit/s 5 ms + 10 Mbit/s 10 ms, constant 30 Mbit/s A -> B for 4 s, the
 * last 3 s measured.
 */
#include <stdio.h>
#include <string.h>

#include "sim.h"
#include "check.h"

#define MBIT 1000000ULL
#define SEC 1000000ULL

static struct sim_link_cfg L(uint64_t mbit, uint32_t delay_ms)
{
	struct sim_link_cfg c = { .rate_bps = mbit * MBIT, .delay_us = delay_ms * 1000 };

	return c;
}

int main(void)
{
	struct sim_link_cfg f[2] = { L(50, 5), L(10, 10) }, r[2] = { L(50, 5), L(10, 10) };
	struct braid_mp_path_stats p0, p1;
	struct braid_mp_stats b;
	struct sim s;
	uint64_t from, cap1, enq0;

	CHECK_EQ(sim_init(&s, 2, f, r, NULL), 0);
	CHECK_EQ(braid_mp_set_sched(s.side[0].mp, BRAID_MP_SCHED_REDUNDANT, NULL, 0), 0);
	sim_set_load(&s, 30 * MBIT, 1400, s.now + 4 * SEC);
	sim_run(&s, s.now + 1 * SEC);
	from = s.side[0].next_pid;
	enq0 = s.enq_fail;	/* refusals in startup are not counted */
	sim_window(&s, s.now, s.now + 3 * SEC);
	sim_run(&s, s.now + 4 * SEC);
	CHECK_EQ(braid_mp_path_stats(s.side[0].mp, 0, &p0), 0);
	CHECK_EQ(braid_mp_path_stats(s.side[0].mp, 1, &p1), 0);
	braid_mp_stats(s.side[1].mp, &b);
	cap1 = 10 * MBIT / 8 * 3;	/* bytes the slow path can carry in the window */
	printf("redundant 50+10, 30 offered: path bytes %llu/%llu (slow path %.0f %% of its "
	       "capacity), offered %llu, skipped %llu/%llu, aqm drops %llu/%llu, receiver "
	       "dropped %llu copies, lost %llu, enqueue refused %llu (window)\n",
	       (unsigned long long)s.link[0][0].win_data_bytes,
	       (unsigned long long)s.link[0][1].win_data_bytes,
	       100.0 * (double)s.link[0][1].win_data_bytes / (double)cap1,
	       (unsigned long long)s.win_offered_bytes,
	       (unsigned long long)p0.redundant_skipped, (unsigned long long)p1.redundant_skipped,
	       (unsigned long long)p0.aqm_drops, (unsigned long long)p1.aqm_drops,
	       (unsigned long long)b.rx_dups, (unsigned long long)sim_lost_from(&s, from),
	       (unsigned long long)(s.enq_fail - enq0));
	/* the fast path carries every packet: the slow one does not hold it back */
	CHECKM(s.link[0][0].win_data_bytes + 2 * 1400 >= s.win_offered_bytes,
	       "fast path %llu of %llu offered bytes", (unsigned long long)s.link[0][0].win_data_bytes,
	       (unsigned long long)s.win_offered_bytes);
	CHECK_EQ(p0.redundant_skipped, 0);
	CHECK_EQ(s.enq_fail - enq0, 0);
	/* the slow path carries copies up to its capacity, the rest is skipped */
	CHECKM(s.link[0][1].win_data_bytes * 10 >= cap1 * 8, "slow path %llu bytes of %llu",
	       (unsigned long long)s.link[0][1].win_data_bytes, (unsigned long long)cap1);
	CHECK(p1.redundant_skipped > 0);
	/* exactly once at the receiver, nothing lost */
	CHECK_EQ(s.dup_deliveries, 0);
	CHECK_EQ(sim_lost_from(&s, from), 0);
	sim_fini(&s);
	CHECK_DONE();
}
