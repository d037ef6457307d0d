// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mp_mtu.c - per-path MTU search (docs/multipath.md §11) through the
 * simulator: links drop packets above their MTU (engine sizes), as a router
 * with a smaller link MTU does to a DF datagram (and the ICMP is ignored).
 * Usage: test_mp_mtu <scenario>; each prints its numbers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "check.h"

#define MBIT 1000000ULL
#define MS 1000ULL
#define SEC 1000000ULL
#define STEP 8u	/* cfg.pmtu_step default */

static struct sim_link_cfg L(uint64_t mbit, uint32_t delay_ms, uint32_t mtu)
{
	struct sim_link_cfg c = { .rate_bps = mbit * MBIT, .delay_us = delay_ms * 1000, .mtu = mtu };

	return c;
}

static int setup(struct sim *s, struct sim_link_cfg a, struct sim_link_cfg b,
		 const struct braid_mp_config *cfg)
{
	struct sim_link_cfg f[2] = { a, b }, r[2] = { a, b };
	int rc = sim_init(s, 2, f, r, cfg);

	CHECK_EQ(rc, 0);
	return rc;
}

static void pstats(const struct sim *s, int side, int p, struct braid_mp_path_stats *st)
{
	CHECK_EQ(braid_mp_path_stats(s->side[side].mp, p, st), 0);
}

/* Run in 1 ms steps until path p of side 0 has finished its search at a
 * value in [lo, hi]; returns the time it took (UINT64_MAX: never). */
static uint64_t run_until_mtu(struct sim *s, int p, uint32_t lo, uint32_t hi, uint64_t limit)
{
	uint64_t t0 = s->now;
	struct braid_mp_path_stats st;

	while (s->now < t0 + limit) {
		sim_run(s, s->now + MS);
		pstats(s, 0, p, &st);
		if (st.mtu >= lo && st.mtu <= hi && st.mtu_probes == st.mtu_acks + st.mtu_probes_lost)
			return s->now - t0;
	}
	return UINT64_MAX;
}

/*
 * Two paths, 20 ms RTT; path 1's links drop packets above 1300 bytes. Both
 * sides converge: path 0 to the maximum (1500) with one probe, path 1 to
 * 1300 - step < mtu <= 1300 within 1 + ceil(log2(300 / step)) sizes, each
 * costing at most MP_PMTU_TRIES probes. The lost probes fail nothing.
 */
static void converge(void)
{
	struct braid_mp_path_stats a0, a1, b1;
	struct sim s;
	uint64_t t;

	if (setup(&s, L(50, 10, 0), L(50, 10, 1300), NULL))
		return;
	t = run_until_mtu(&s, 1, 1300 - STEP + 1, 1300, 5 * SEC);
	sim_run(&s, s.now + 100 * MS);
	pstats(&s, 0, 0, &a0);
	pstats(&s, 0, 1, &a1);
	pstats(&s, 1, 1, &b1);
	printf("converge: path 0 mtu %u (%llu probes), path 1 mtu %u after %.0f ms "
	       "(%llu probes, %llu lost, %u search), B's path 1 mtu %u; tunnel mtu A %u B %u; "
	       "path 1 failures %u, probes lost %llu, loss %u pm\n",
	       a0.mtu, (unsigned long long)a0.mtu_probes, a1.mtu, t == UINT64_MAX ? -1.0 : t / 1e3,
	       (unsigned long long)a1.mtu_probes, (unsigned long long)a1.mtu_probes_lost,
	       a1.mtu_searches, b1.mtu, braid_mp_tunnel_mtu(s.side[0].mp),
	       braid_mp_tunnel_mtu(s.side[1].mp), a1.failures,
	       (unsigned long long)a1.probes_lost_peer, a1.loss_pm);
	CHECKM(t != UINT64_MAX && t <= 2 * SEC, "path 1 converged after %llu us",
	       (unsigned long long)t);
	CHECK_EQ(a0.mtu, 1500);
	CHECK_EQ(a0.mtu_probes, 1);
	CHECK_EQ(a0.mtu_probes_lost, 0);
	CHECKM(a1.mtu > 1300 - STEP && a1.mtu <= 1300, "path 1 mtu %u", a1.mtu);
	CHECKM(b1.mtu > 1300 - STEP && b1.mtu <= 1300, "B path 1 mtu %u", b1.mtu);
	/* max first, then bisection of (1200, 1500): ceil(log2(300 / 8)) = 6 sizes */
	CHECKM(a1.mtu_acks + a1.mtu_probes_lost / 3 <= 1 + 6, "rounds: %llu acks, %llu lost",
	       (unsigned long long)a1.mtu_acks, (unsigned long long)a1.mtu_probes_lost);
	CHECKM(a1.mtu_probes_lost >= 3 && a1.mtu_probes_lost % 3 == 0, "lost %llu",
	       (unsigned long long)a1.mtu_probes_lost);
	CHECK_EQ(braid_mp_tunnel_mtu(s.side[0].mp), a1.mtu);
	CHECK_EQ(a1.state, BRAID_MP_PATH_ACTIVE);
	CHECK_EQ(a1.failures, 0);
	CHECK_EQ(a1.suspects, 0);
	CHECK_EQ(a1.probes_lost_peer, 0);	/* MTU probes are not the path's probes */
	CHECK_EQ(a1.loss_pm, 0);
	CHECK_EQ(a1.lost_pkts, 0);
	CHECK_EQ(s.link[0][1].drop_mtu, a1.mtu_probes_lost);
	CHECK_EQ(a1.mtu_searches, 1);
	sim_fini(&s);
}

/*
 * Scheduling: after the search, 1400-byte packets go only on path 0 (the
 * only one they fit), 1000-byte ones on both; none is dropped for its size.
 */
static void schedule(void)
{
	struct braid_mp_path_stats a0, a1;
	uint64_t big_drops;
	struct sim s;

	if (setup(&s, L(50, 10, 0), L(50, 10, 1300), NULL))
		return;
	if (run_until_mtu(&s, 1, 1300 - STEP + 1, 1300, 5 * SEC) == UINT64_MAX) {
		CHECKM(0, "no convergence");
		sim_fini(&s);
		return;
	}
	sim_set_load(&s, 30 * MBIT, 1400, s.now + 3 * SEC);
	sim_window(&s, s.now, s.now + 3 * SEC);
	sim_run(&s, s.now + 3 * SEC + 500 * MS);
	pstats(&s, 0, 0, &a0);
	pstats(&s, 0, 1, &a1);
	big_drops = s.link[0][1].drop_mtu_data;
	printf("schedule 1400 B at 30 Mbit/s: path 0 %llu / path 1 %llu data packets, "
	       "delivered %llu of %llu (refused at entry %llu, AQM %llu), %llu lost, dropped for "
	       "size %llu, oversize %llu\n",
	       (unsigned long long)a0.tx_pkts, (unsigned long long)a1.tx_pkts,
	       (unsigned long long)s.delivered, (unsigned long long)s.offered,
	       (unsigned long long)s.enq_fail, (unsigned long long)s.side[0].rel[BRAID_MP_REL_AQM],
	       (unsigned long long)sim_lost(&s), (unsigned long long)big_drops,
	       (unsigned long long)(a0.mtu_oversize + a1.mtu_oversize));
	CHECK_EQ(a1.tx_pkts, 0);
	CHECK_EQ(a0.tx_pkts, s.delivered);
	CHECK_EQ(big_drops, 0);
	/* path 0 starts from idle (startup): its sender AQM may drop a few */
	CHECK_EQ(sim_lost(&s), s.side[0].rel[BRAID_MP_REL_AQM]);
	CHECK_EQ(s.delivered + s.enq_fail + sim_lost(&s), s.offered);
	CHECK_EQ(a0.mtu_oversize + a1.mtu_oversize, 0);

	sim_set_load(&s, 60 * MBIT, 1000, s.now + 3 * SEC);
	sim_window(&s, s.now + SEC, s.now + 3 * SEC);
	sim_run(&s, s.now + 3 * SEC + 500 * MS);
	pstats(&s, 0, 1, &a1);
	printf("schedule 1000 B at 60 Mbit/s: path 1 carries %.1f %% of the window's bytes, "
	       "delivered %.2f %%\n",
	       100.0 * s.link[0][1].win_data_bytes /
	       (double)(s.link[0][0].win_data_bytes + s.link[0][1].win_data_bytes),
	       100.0 * s.win_delivered_bytes / (double)s.win_offered_bytes);
	CHECKM(s.link[0][1].win_data_bytes * 4 > s.link[0][0].win_data_bytes, "path 1 unused");
	CHECK_EQ(s.link[0][1].drop_mtu_data, 0);
	CHECKM(s.win_delivered_bytes * 100 >= s.win_offered_bytes * 99, "delivered %llu of %llu",
	       (unsigned long long)s.win_delivered_bytes, (unsigned long long)s.win_offered_bytes);
	sim_fini(&s);
}

/*
 * No path fits: both paths 1300, 1400-byte packets. They still go out, on
 * the paths of the largest MTU, flagged oversize and counted.
 */
static void oversize(void)
{
	struct braid_mp_path_stats a0, a1;
	struct braid_mp_stats st;
	struct sim s;

	if (setup(&s, L(50, 10, 1300), L(50, 10, 1300), NULL))
		return;
	if (run_until_mtu(&s, 1, 1300 - STEP + 1, 1300, 5 * SEC) == UINT64_MAX ||
	    run_until_mtu(&s, 0, 1300 - STEP + 1, 1300, 5 * SEC) == UINT64_MAX) {
		CHECKM(0, "no convergence");
		sim_fini(&s);
		return;
	}
	/* above one path's first rate (64 kB per RTT: 25.6 Mbit/s), so EDF
	 * needs both */
	sim_set_load(&s, 40 * MBIT, 1400, s.now + 200 * MS);
	sim_run(&s, s.now + 300 * MS);
	pstats(&s, 0, 0, &a0);
	pstats(&s, 0, 1, &a1);
	braid_mp_stats(s.side[0].mp, &st);
	printf("oversize: offered %llu, sent oversize %llu + %llu (engine %llu), tunnel mtu %u\n",
	       (unsigned long long)s.offered, (unsigned long long)a0.mtu_oversize,
	       (unsigned long long)a1.mtu_oversize, (unsigned long long)st.tx_oversize,
	       st.tunnel_mtu);
	CHECKM(a0.mtu_oversize + a1.mtu_oversize >= s.offered, "oversize %llu of %llu",
	       (unsigned long long)(a0.mtu_oversize + a1.mtu_oversize),
	       (unsigned long long)s.offered);
	CHECK_EQ(st.tx_oversize, a0.mtu_oversize + a1.mtu_oversize);
	CHECKM(a0.mtu_oversize && a1.mtu_oversize, "both paths have the largest MTU");
	sim_fini(&s);
}

/*
 * Black hole: both paths converge to 1500, then path 1's links start to
 * drop packets above 1300 while 1400-byte packets flow on both. The
 * engine notices (small probes still pass), confirms with a probe of its
 * MTU, drops path 1 to base, moves its big packets to path 0 and searches
 * again: path 1 ends at 1300 - step < mtu <= 1300 without failing, and
 * every packet arrives.
 */
static void blackhole(void)
{
	struct braid_mp_path_stats a1;
	struct sim s;
	uint64_t t, cut, conv;

	if (setup(&s, L(50, 10, 0), L(50, 10, 0), NULL))
		return;
	if (run_until_mtu(&s, 1, 1500, 1500, 5 * SEC) == UINT64_MAX) {
		CHECKM(0, "no convergence");
		sim_fini(&s);
		return;
	}
	sim_set_load(&s, 40 * MBIT, 1400, s.now + 4 * SEC);
	sim_run(&s, s.now + 2 * SEC);
	pstats(&s, 0, 1, &a1);
	CHECKM(a1.tx_pkts > 1000, "path 1 carried %llu before", (unsigned long long)a1.tx_pkts);
	cut = s.now;
	s.link[0][1].cfg.mtu = 1300;
	s.link[1][1].cfg.mtu = 1300;
	for (t = 0; t < 2 * SEC; t += MS) {
		sim_run(&s, s.now + MS);
		pstats(&s, 0, 1, &a1);
		if (a1.mtu_blackholes)
			break;
	}
	conv = run_until_mtu(&s, 1, 1300 - STEP + 1, 1300, 3 * SEC);
	sim_run(&s, cut + 2 * SEC + SEC);
	pstats(&s, 0, 1, &a1);
	printf("blackhole: detected %.1f ms after the MTU drop, re-searched to %u %.0f ms later; "
	       "path 1 failures %u, suspects %u, state %s, resent %llu, lost %llu of %llu, "
	       "big data dropped %llu\n", t / 1e3, a1.mtu, conv == UINT64_MAX ? -1.0 : conv / 1e3,
	       a1.failures, a1.suspects, braid_mp_state_name(a1.state),
	       (unsigned long long)a1.resent_pkts, (unsigned long long)sim_lost(&s),
	       (unsigned long long)s.offered, (unsigned long long)s.link[0][1].drop_mtu_data);
	CHECK_EQ(a1.mtu_blackholes, 1);
	/* suspicion after srtt + 4 rttvar + 50 ms, then 2 confirmations of >= 100 ms */
	CHECKM(t < 500 * MS, "detected after %llu us", (unsigned long long)t);
	CHECKM(conv != UINT64_MAX, "no re-convergence");
	CHECKM(a1.mtu > 1300 - STEP && a1.mtu <= 1300, "path 1 mtu %u", a1.mtu);
	CHECK_EQ(a1.failures, 0);
	CHECK_EQ(a1.state, BRAID_MP_PATH_ACTIVE);
	CHECK_EQ(sim_lost(&s), 0);
	CHECK_EQ(braid_mp_tunnel_mtu(s.side[0].mp), a1.mtu);
	sim_fini(&s);
}

/*
 * Probe loss is not path failure: path 1 drops everything above 400 bytes,
 * so every MTU probe on it is lost, forever, while 300-byte data and the
 * small probes pass. The path stays ACTIVE at the floor (assumed), with no
 * data loss, no probe loss and no failure.
 */
static void probe_loss(void)
{
	struct braid_mp_path_stats a1;
	struct sim s;

	if (setup(&s, L(50, 10, 0), L(50, 10, 400), NULL))
		return;
	sim_set_load(&s, 10 * MBIT, 300, s.now + 6 * SEC);
	sim_run(&s, s.now + 6 * SEC + 500 * MS);
	pstats(&s, 0, 1, &a1);
	printf("probe-loss: path 1 mtu %u, MTU probes %llu lost %llu, state %s, failures %u, "
	       "suspects %u, data loss %u pm, lost pkts %llu, tx %llu, lost %llu of %llu "
	       "(AQM %llu)\n", a1.mtu, (unsigned long long)a1.mtu_probes,
	       (unsigned long long)a1.mtu_probes_lost, braid_mp_state_name(a1.state), a1.failures,
	       a1.suspects, a1.loss_pm, (unsigned long long)a1.lost_pkts,
	       (unsigned long long)a1.tx_pkts, (unsigned long long)sim_lost(&s),
	       (unsigned long long)s.offered, (unsigned long long)s.side[0].rel[BRAID_MP_REL_AQM]);
	CHECK_EQ(a1.mtu, 480);
	CHECK_EQ(a1.mtu_acks, 0);
	CHECK_EQ(a1.mtu_probes_lost, a1.mtu_probes);
	CHECKM(a1.mtu_probes_lost >= 3 * 15, "lost %llu", (unsigned long long)a1.mtu_probes_lost);
	CHECK_EQ(a1.state, BRAID_MP_PATH_ACTIVE);
	CHECK_EQ(a1.failures, 0);
	CHECK_EQ(a1.suspects, 0);
	CHECK_EQ(a1.lost_pkts, 0);
	CHECK_EQ(a1.loss_pm, 0);
	CHECK_EQ(a1.probes_lost_peer, 0);
	CHECKM(a1.tx_pkts > 1000, "path 1 carried %llu", (unsigned long long)a1.tx_pkts);
	CHECK_EQ(sim_lost(&s), s.side[0].rel[BRAID_MP_REL_AQM]);
	sim_fini(&s);
}

/*
 * A path below base: path 1 drops everything above 1000 bytes. Base (1200)
 * is probed itself, fails, and the search goes on below it: path 1 ends at
 * 1000 - step < mtu <= 1000, the tunnel MTU with it, and 900-byte data
 * flows on both paths without loss.
 */
static void below_base(void)
{
	struct braid_mp_path_stats a1;
	struct sim s;
	uint64_t t;

	if (setup(&s, L(50, 10, 0), L(50, 10, 1000), NULL))
		return;
	t = run_until_mtu(&s, 1, 1000 - STEP + 1, 1000, 10 * SEC);
	sim_set_load(&s, 30 * MBIT, 900, s.now + 2 * SEC);
	sim_run(&s, s.now + 2 * SEC + 500 * MS);
	pstats(&s, 0, 1, &a1);
	printf("below-base: path 1 mtu %u after %.0f ms (%llu probes, %llu lost); tunnel mtu %u; "
	       "then path 1 carried %llu of 900 B, failures %u, lost %llu of %llu (AQM %llu)\n",
	       a1.mtu, t == UINT64_MAX ? -1.0 : t / 1e3, (unsigned long long)a1.mtu_probes,
	       (unsigned long long)a1.mtu_probes_lost, braid_mp_tunnel_mtu(s.side[0].mp),
	       (unsigned long long)a1.tx_pkts, a1.failures, (unsigned long long)sim_lost(&s),
	       (unsigned long long)s.offered, (unsigned long long)s.side[0].rel[BRAID_MP_REL_AQM]);
	CHECKM(t != UINT64_MAX, "no convergence");
	CHECKM(a1.mtu > 1000 - STEP && a1.mtu <= 1000, "path 1 mtu %u", a1.mtu);
	CHECK_EQ(braid_mp_tunnel_mtu(s.side[0].mp), a1.mtu);
	CHECK_EQ(a1.failures, 0);
	CHECK_EQ(a1.state, BRAID_MP_PATH_ACTIVE);
	CHECKM(a1.tx_pkts > 1000, "path 1 carried %llu", (unsigned long long)a1.tx_pkts);
	CHECK_EQ(s.link[0][1].drop_mtu_data, 0);
	CHECK_EQ(sim_lost(&s), s.side[0].rel[BRAID_MP_REL_AQM]);
	sim_fini(&s);
}

/*
 * A lossy path: 10 % random loss each way on path 1 (MTU 1300), 1000-byte
 * data flowing. A lost probe of a size that passes is tried again, so the
 * search still ends within its granularity, and the path is not failed by
 * the lost probes.
 */
static void lossy(void)
{
	struct sim_link_cfg p1 = L(50, 10, 1300);
	struct braid_mp_path_stats a1;
	struct sim s;
	uint64_t t;

	p1.loss_pm = 100;
	/* a seed whose random losses hit at least one probe of a size that
	 * passes (what this case is about); the default depends on timing */
	p1.seed = getenv("MP_LOSSY_SEED") ? strtoull(getenv("MP_LOSSY_SEED"), NULL, 0) : 3;
	if (setup(&s, L(50, 10, 0), p1, NULL))
		return;
	sim_set_load(&s, 10 * MBIT, 1000, s.now + 10 * SEC);
	t = run_until_mtu(&s, 1, 1300 - STEP + 1, 1300, 10 * SEC);
	pstats(&s, 0, 1, &a1);
	printf("lossy: path 1 mtu %u after %.0f ms (%llu probes, %llu lost, %llu dropped by the "
	       "link for size), failures %u\n", a1.mtu, t == UINT64_MAX ? -1.0 : t / 1e3,
	       (unsigned long long)a1.mtu_probes, (unsigned long long)a1.mtu_probes_lost,
	       (unsigned long long)s.link[0][1].drop_mtu, a1.failures);
	CHECKM(t != UINT64_MAX, "no convergence");
	CHECKM(a1.mtu > 1300 - STEP && a1.mtu <= 1300, "path 1 mtu %u", a1.mtu);
	CHECKM(a1.mtu_probes_lost > s.link[0][1].drop_mtu, "no probe lost to the random loss");
	CHECK_EQ(a1.failures, 0);
	sim_fini(&s);
}

/*
 * A search under load: every MTU probe lost for its size would leave a
 * packet-id gap in B's reorder buffer until the deadline; the SKIP sent
 * behind each probe (braid_mp_ctl_sent) fills it, so no gap is given up by
 * the deadline and nothing is held long.
 */
static void search_gaps(void)
{
	struct braid_mp_path_stats a1;
	struct braid_mp_stats b;
	struct sim s;

	if (setup(&s, L(50, 10, 0), L(50, 10, 1300), NULL))
		return;
	sim_set_load(&s, 30 * MBIT, 1000, s.now + 3 * SEC);
	sim_run(&s, s.now + 3 * SEC + 500 * MS);
	pstats(&s, 0, 1, &a1);
	braid_mp_stats(s.side[1].mp, &b);
	printf("search-gaps: path 1 mtu %u, %llu MTU probes lost during the load; B: %llu gaps "
	       "given up at the deadline, max hold %.1f ms, %llu delivered late; lost %llu\n",
	       a1.mtu, (unsigned long long)a1.mtu_probes_lost,
	       (unsigned long long)b.rx_gaps_deadline, b.rx_max_hold_us / 1e3,
	       (unsigned long long)b.rx_late, (unsigned long long)sim_lost(&s));
	CHECKM(a1.mtu > 1300 - STEP && a1.mtu <= 1300, "path 1 mtu %u", a1.mtu);
	CHECKM(a1.mtu_probes_lost >= 12, "lost %llu", (unsigned long long)a1.mtu_probes_lost);
	CHECK_EQ(b.rx_gaps_deadline, 0);
	CHECK_EQ(sim_lost(&s), s.side[0].rel[BRAID_MP_REL_AQM]);
	sim_fini(&s);
}

/* The search is off (pmtu_max 0): no MTU probes, every size fits. */
static void off(void)
{
	struct braid_mp_config cfg;
	struct braid_mp_path_stats a1;
	struct sim s;

	braid_mp_config_init(&cfg);
	cfg.pmtu_max = 0;
	if (setup(&s, L(50, 10, 0), L(50, 10, 0), &cfg))
		return;
	sim_set_load(&s, 20 * MBIT, 1400, s.now + SEC);
	sim_run(&s, s.now + SEC + 200 * MS);
	pstats(&s, 0, 1, &a1);
	CHECK_EQ(a1.mtu, 0);
	CHECK_EQ(a1.mtu_probes, 0);
	CHECK_EQ(a1.mtu_oversize, 0);
	CHECK_EQ(braid_mp_tunnel_mtu(s.side[0].mp), 0);
	CHECKM(a1.tx_pkts > 100, "path 1 carried %llu", (unsigned long long)a1.tx_pkts);
	CHECK_EQ(sim_lost(&s), s.side[0].rel[BRAID_MP_REL_AQM]);
	sim_fini(&s);
	/* bad search parameters are refused */
	{
		struct braid_mp *mp;

		braid_mp_config_init(&cfg);
		cfg.tx_release = (void (*)(void *, void *, enum braid_mp_release))abort;
		cfg.random = (int (*)(void *, uint8_t *, size_t))abort;
		cfg.pmtu_max = BRAID_MP_MTU_PROBE_MAX + 1;
		CHECK_EQ(braid_mp_new(&mp, &cfg), -EINVAL);
		cfg.pmtu_max = 1500;
		cfg.pmtu_base = 1501;
		CHECK_EQ(braid_mp_new(&mp, &cfg), -EINVAL);
		cfg.pmtu_base = BRAID_MP_MTU_HDR_LEN - 1;
		CHECK_EQ(braid_mp_new(&mp, &cfg), -EINVAL);
		cfg.pmtu_base = 1200;
		cfg.pmtu_step = 0;
		CHECK_EQ(braid_mp_new(&mp, &cfg), -EINVAL);
	}
}

/*
 * ratio 1:0 while the weighted path's first search runs: path 0 (weight 1,
 * 40 ms) has MTU base until its first probe (of max) comes back, path 1
 * (weight 0, 5 ms) finished its search first. 1400-byte packets from the
 * start go out on path 0 (oversize until its probe is answered), none on
 * path 1, and all arrive.
 */
static void ratio_search(void)
{
	static const unsigned int r10[2] = { 1, 0 };
	struct braid_mp_path_stats a0, a1;
	struct sim s;

	if (setup(&s, L(50, 20, 0), L(50, 2, 0), NULL))
		return;
	CHECK_EQ(braid_mp_set_sched(s.side[0].mp, BRAID_MP_SCHED_RATIO, r10, 2), 0);
	sim_set_load(&s, 5 * MBIT, 1400, s.now + 1 * SEC);
	sim_run(&s, s.now + 1 * SEC + 500 * MS);
	pstats(&s, 0, 0, &a0);
	pstats(&s, 0, 1, &a1);
	printf("ratio-search: path 0 %llu / path 1 %llu data packets (path 0 mtu %u, oversize %llu), "
	       "delivered %llu of %llu\n",
	       (unsigned long long)a0.tx_pkts, (unsigned long long)a1.tx_pkts, a0.mtu,
	       (unsigned long long)a0.mtu_oversize, (unsigned long long)s.delivered,
	       (unsigned long long)s.offered);
	CHECK_EQ(a1.tx_pkts, 0);
	CHECKM(a0.mtu_oversize > 0, "path 0's search was over before the load");
	CHECK_EQ(a0.mtu, 1500);
	CHECK_EQ(s.delivered + s.enq_fail + sim_lost(&s), s.offered);
	CHECK_EQ(sim_lost(&s), 0);
	sim_fini(&s);
}

static const struct {
	const char *name;
	void (*fn)(void);
} scenarios[] = {
	{ "converge", converge },
	{ "schedule", schedule },
	{ "oversize", oversize },
	{ "blackhole", blackhole },
	{ "probe-loss", probe_loss },
	{ "below-base", below_base },
	{ "lossy", lossy },
	{ "search-gaps", search_gaps },
	{ "off", off },
	{ "ratio-search", ratio_search },
};

int main(int argc, char **argv)
{
	unsigned int i;
	int ran = 0;

	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++)
		if (argc < 2 || !strcmp(argv[1], scenarios[i].name)) {
			scenarios[i].fn();
			ran++;
		}
	if (!ran) {
		fprintf(stderr, "test_mp_mtu: unknown scenario '%s'\n", argv[1]);
		return 2;
	}
	CHECK_DONE();
}
