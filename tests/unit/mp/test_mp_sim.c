// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mp_sim.c - two engines through simulated paths on a virtual clock.
 * Usage: test_mp_sim <scenario> (see the table at the end). Every scenario
 * prints its measured numbers on stdout (docs/multipath.md quotes them).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "check.h"

#define MBIT 1000000ULL
#define MS 1000ULL
#define SEC 1000000ULL

static struct sim_link_cfg L(uint64_t mbit, uint32_t delay_ms)
{
	struct sim_link_cfg c = { .rate_bps = mbit * MBIT, .delay_us = delay_ms * 1000 };

	if (!delay_ms)
		c.delay_us = 100;	/* "~0 ms" */
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

static double share(const struct sim *s, int p)
{
	uint64_t t = s->link[0][0].win_data_bytes + s->link[0][1].win_data_bytes;

	return t ? (double)s->link[0][p].win_data_bytes / (double)t : 0.0;
}

static double delivered_frac(const struct sim *s)
{
	return s->win_offered_bytes ? (double)s->win_delivered_bytes /
				      (double)s->win_offered_bytes : 0.0;
}

static void pstats(const struct sim *s, int side, int p, struct braid_mp_path_stats *st)
{
	CHECK_EQ(braid_mp_path_stats(s->side[side].mp, p, st), 0);
}

/* edf, 50 + 20 Mbit/s, ~0 ms, offered 95 % of the sum. */
static void edf_aggregate(void)
{
	struct sim s;
	struct braid_mp_path_stats p0, p1;
	double d, s0;

	if (setup(&s, L(50, 0), L(20, 0), NULL))
		return;
	sim_set_load(&s, 665 * MBIT / 10, 1400, s.now + 6 * SEC);
	sim_run(&s, s.now + 2 * SEC);	/* warm-up: validation + rate ramp */
	sim_window(&s, s.now, s.now + 4 * SEC);
	s.link[0][0].qdelay_max = s.link[0][1].qdelay_max = 0;
	sim_run(&s, s.now + 4 * SEC);
	d = delivered_frac(&s);
	s0 = share(&s, 0);
	pstats(&s, 0, 0, &p0);
	pstats(&s, 0, 1, &p1);
	printf("edf 50+20: delivered %.2f%% of offered, shares %.1f/%.1f %% (rates %.1f/%.1f), "
	       "bw %.2f/%.2f Mbit/s, bottleneck queue max %.2f/%.2f ms\n", 100 * d, 100 * s0,
	       100 * (1 - s0), 100 * 50.0 / 70, 100 * 20.0 / 70, p0.bw_bps / 1e6, p1.bw_bps / 1e6,
	       s.link[0][0].qdelay_max / 1e3, s.link[0][1].qdelay_max / 1e3);
	CHECKM(d >= 0.95, "delivered %.3f", d);
	CHECKM(s0 > 50.0 / 70 - 0.06 && s0 < 50.0 / 70 + 0.06, "share0 %.3f", s0);
	/* rate estimator within 10 % of each path's rate */
	CHECKM(p0.bw_bps >= 45 * MBIT && p0.bw_bps <= 55 * MBIT, "bw0 %llu",
	      (unsigned long long)p0.bw_bps);
	CHECKM(p1.bw_bps >= 18 * MBIT && p1.bw_bps <= 22 * MBIT, "bw1 %llu",
	      (unsigned long long)p1.bw_bps);
	/* pacing keeps the bottleneck queues short */
	CHECKM(s.link[0][0].qdelay_max < 10 * MS && s.link[0][1].qdelay_max < 10 * MS,
	      "queue %llu/%llu", (unsigned long long)s.link[0][0].qdelay_max,
	      (unsigned long long)s.link[0][1].qdelay_max);
	sim_fini(&s);
}

/* edf, 50 + 50 Mbit/s, 10 / 30 ms one way: reordering at the receiver. */
static void edf_reorder(void)
{
	struct sim s;
	struct braid_mp_stats b0, b1;
	double d, s0;
	uint64_t late, gaps;

	if (setup(&s, L(50, 10), L(50, 30), NULL))
		return;
	sim_set_load(&s, 95 * MBIT, 1400, s.now + 8 * SEC);
	sim_run(&s, s.now + 3 * SEC);
	braid_mp_stats(s.side[1].mp, &b0);
	s.max_held_us = 0;
	braid_mp_stats_reset_peaks(s.side[1].mp);
	sim_window(&s, s.now, s.now + 4 * SEC);
	sim_run(&s, s.now + 4 * SEC);
	braid_mp_stats(s.side[1].mp, &b1);
	d = delivered_frac(&s);
	s0 = share(&s, 0);
	late = b1.rx_late - b0.rx_late;
	gaps = (b1.rx_gaps_deadline - b0.rx_gaps_deadline) + (b1.rx_gaps_bound - b0.rx_gaps_bound);
	printf("edf 50+50 10/30 ms: delivered %.2f%%, shares %.1f/%.1f %%, reorder: max held %u "
	       "pkts, max hold %.2f ms, deadline %.2f ms, gaps given up %llu, late %llu of %llu\n",
	       100 * d, 100 * s0, 100 * (1 - s0), b1.rx_max_held, b1.rx_max_hold_us / 1e3,
	       b1.reorder_deadline_us / 1e3, (unsigned long long)gaps, (unsigned long long)late,
	       (unsigned long long)(b1.rx_delivered - b0.rx_delivered));
	CHECKM(d >= 0.95, "delivered %.3f", d);
	CHECKM(s0 > 0.4 && s0 < 0.6, "share0 %.3f", s0);
	/* packets are held at most about the 20 ms delay spread */
	CHECKM(b1.rx_max_hold_us <= 25 * MS, "max hold %llu", (unsigned long long)b1.rx_max_hold_us);
	CHECKM(late * 1000 <= (b1.rx_delivered - b0.rx_delivered), "late %llu",
	      (unsigned long long)late);
	sim_fini(&s);
}

static void shares(const char *name, enum braid_mp_sched sch, const uint32_t *ratio,
		   unsigned int n, struct sim_link_cfg a, struct sim_link_cfg b, uint64_t load,
		   double want0, double tol)
{
	struct braid_mp_config cfg;
	struct sim s;
	double s0, d;

	braid_mp_config_init(&cfg);
	if (setup(&s, a, b, &cfg))
		return;
	CHECK_EQ(braid_mp_set_sched(s.side[0].mp, sch, ratio, n), 0);
	sim_set_load(&s, load, 1400, s.now + 5 * SEC);
	sim_run(&s, s.now + 2 * SEC);
	sim_window(&s, s.now, s.now + 2 * SEC);
	sim_run(&s, s.now + 2 * SEC);
	s0 = share(&s, 0);
	d = delivered_frac(&s);
	printf("%s: shares %.1f/%.1f %% (promised %.1f/%.1f), delivered %.2f%%\n", name,
	       100 * s0, 100 * (1 - s0), 100 * want0, 100 * (1 - want0), 100 * d);
	CHECKM(s0 >= want0 - tol && s0 <= want0 + tol, "%s share0 %.4f", name, s0);
	CHECKM(d >= 0.99, "%s delivered %.3f", name, d);
	sim_fini(&s);
}

static void sched_shares(void)
{
	static const uint32_t r31[] = { 3, 1 }, r11[] = { 1, 1 };

	/* 1/RTT: RTT 20 ms vs 60 ms -> 75 / 25 */
	shares("rtt", BRAID_MP_SCHED_RTT, NULL, 0, L(100, 10), L(100, 30), 20 * MBIT, 0.75, 0.02);
	shares("ratio 3:1", BRAID_MP_SCHED_RATIO, r31, 2, L(100, 5), L(100, 5), 20 * MBIT, 0.75,
	       0.01);
	shares("ratio 1:1", BRAID_MP_SCHED_RATIO, r11, 2, L(100, 5), L(100, 20), 20 * MBIT, 0.50,
	       0.01);
	shares("lowest-rtt", BRAID_MP_SCHED_LOWEST_RTT, NULL, 0, L(100, 20), L(100, 5),
	       20 * MBIT, 0.0, 0.001);
	shares("backup (active-standby)", BRAID_MP_SCHED_BACKUP, NULL, 0, L(100, 20), L(100, 5),
	       20 * MBIT, 1.0, 0.001);
}

/* redundant: every packet on both paths, delivered exactly once. */
static void redundant(void)
{
	struct sim s;
	struct braid_mp_stats b;
	uint64_t from;

	if (setup(&s, L(50, 5), L(50, 15), NULL))
		return;
	CHECK_EQ(braid_mp_set_sched(s.side[0].mp, BRAID_MP_SCHED_REDUNDANT, NULL, 0), 0);
	sim_set_load(&s, 10 * MBIT, 1400, s.now + 4 * SEC);
	sim_run(&s, s.now + 1 * SEC);
	from = s.side[0].next_pid;
	sim_window(&s, s.now, s.now + 3 * SEC);
	sim_run(&s, s.now + 4 * SEC);
	braid_mp_stats(s.side[1].mp, &b);
	printf("redundant: path bytes %llu/%llu, offered %llu, receiver dropped %llu copies, "
	       "app duplicates %llu, lost %llu\n",
	       (unsigned long long)s.link[0][0].win_data_bytes,
	       (unsigned long long)s.link[0][1].win_data_bytes,
	       (unsigned long long)s.win_offered_bytes, (unsigned long long)b.rx_dups,
	       (unsigned long long)s.dup_deliveries, (unsigned long long)sim_lost_from(&s, from));
	CHECK_EQ(s.link[0][0].win_data_bytes, s.link[0][1].win_data_bytes);
	CHECKM(s.link[0][0].win_data_bytes >= s.win_offered_bytes - 2 * 1400, "path0 carries all");
	CHECK_EQ(s.dup_deliveries, 0);
	CHECKM(b.rx_dups * 10 >= s.offered * 9, "dups %llu", (unsigned long long)b.rx_dups);
	CHECK_EQ(sim_lost_from(&s, from), 0);
	sim_fini(&s);
}

/* Path 0 dies at t_cut (cut = both directions, blackhole = forward only).
 * It must be failed within max(3 RTT, 300 ms), its traffic must move with
 * no lost packet, and it must come back after restore. */
static void failover(int blackhole, int backup_flag)
{
	struct sim s;
	struct braid_mp_path_stats a0, a1;
	uint64_t cut, from, limit, aqm0, enq0, detect;
	const char *name = blackhole ? "blackhole" : backup_flag ? "backup-cut" : "cut";

	if (setup(&s, L(50, 10), L(50, 10), NULL))
		return;
	if (backup_flag) {
		CHECK_EQ(braid_mp_path_set(s.side[0].mp, 1, BRAID_MP_PATH_F_BACKUP, 0), 0);
		CHECK_EQ(braid_mp_path_set(s.side[1].mp, 1, BRAID_MP_PATH_F_BACKUP, 0), 0);
	}
	/* 45 Mbit/s: EDF spreads it over both paths, so both are busy at the
	 * cut (at 30 it may leave one idle), and the survivor can carry it */
	sim_set_load(&s, backup_flag ? 30 * MBIT : 45 * MBIT, 1400, s.now + 6 * SEC);
	sim_run(&s, s.now + 2 * SEC);
	from = s.side[0].next_pid;
	aqm0 = s.side[0].rel[BRAID_MP_REL_AQM];
	enq0 = s.enq_fail;
	pstats(&s, 0, 0, &a0);
	pstats(&s, 0, 1, &a1);
	if (backup_flag) {
		CHECK_EQ(a1.state, BRAID_MP_PATH_STANDBY);
		CHECK_EQ(a1.tx_pkts, 0);
	}
	limit = 3 * a0.srtt_us > 300 * MS ? 3 * a0.srtt_us : 300 * MS;
	cut = s.now;
	s.link[0][0].down = 1;
	if (!blackhole)
		s.link[1][0].down = 1;
	sim_run(&s, cut + 1 * SEC);
	pstats(&s, 0, 0, &a0);
	detect = a0.last_fail_us - cut;
	CHECK_EQ(a0.state, BRAID_MP_PATH_FAILED);
	CHECK_EQ(a0.failures, 1);
	/* measured from the cut; the first packet that went into the void left
	 * up to one packet time (< 1 ms) after it */
	CHECKM(detect <= limit + 1 * MS, "%s detected after %llu us > %llu", name,
	      (unsigned long long)detect, (unsigned long long)limit);
	/* restore; challenges re-validate it */
	s.link[0][0].down = s.link[1][0].down = 0;
	sim_run(&s, s.now + 1500 * MS);
	pstats(&s, 0, 0, &a0);
	CHECK_EQ(a0.state, BRAID_MP_PATH_ACTIVE);
	CHECK_EQ(a0.validations, 2);
	sim_window(&s, s.now, s.now + 1 * SEC);
	sim_run(&s, s.now + 1 * SEC);
	CHECKM(share(&s, 0) > 0.2, "%s: path 0 not used again (%.3f)", name, share(&s, 0));
	sim_run(&s, s.now + 2 * SEC);	/* load stops; drain */
	pstats(&s, 0, 0, &a0);
	printf("%s: failed after %.1f ms (limit %.1f ms), re-sent %llu, lost %llu (aqm drops "
	       "%llu, entry drops %llu), revalidated: %s, path-0 share after restore %.1f %%\n",
	       name, detect / 1e3, limit / 1e3, (unsigned long long)a0.resent_pkts,
	       (unsigned long long)sim_lost_from(&s, from),
	       (unsigned long long)(s.side[0].rel[BRAID_MP_REL_AQM] - aqm0),
	       (unsigned long long)(s.enq_fail - enq0),
	       braid_mp_state_name(a0.state), 100 * share(&s, 0));
	CHECKM(a0.resent_pkts > 0, "nothing re-sent");
	CHECK_EQ(sim_lost_from(&s, from), s.side[0].rel[BRAID_MP_REL_AQM] - aqm0);
	CHECK_EQ(s.side[0].rel[BRAID_MP_REL_AQM] - aqm0, 0);
	CHECK_EQ(s.enq_fail - enq0, 0);
	CHECK_EQ(s.dup_deliveries, 0);
	sim_fini(&s);
}

static void cut(void) { failover(0, 0); }
static void blackhole(void) { failover(1, 0); }
static void backup_cut(void) { failover(0, 1); }

/* Single path, 30 Mbit/s, 20 ms, overloaded at 40 Mbit/s: the estimator
 * converges, pacing keeps the bottleneck queue small, CoDel drops at the
 * sender (or marks ECN-capable packets). */
static void rate_and_queue(int ect)
{
	struct sim_link_cfg f[1] = { L(30, 20) }, r[1] = { L(30, 20) };
	struct braid_mp_path_stats p;
	struct sim s;
	double d;

	CHECK_EQ(sim_init(&s, 1, f, r, NULL), 0);
	s.meta = ect ? BRAID_MP_META_ECT : 0;
	sim_set_load(&s, 40 * MBIT, 1400, s.now + 6 * SEC);
	sim_run(&s, s.now + 2 * SEC);
	sim_window(&s, s.now, s.now + 3 * SEC);
	s.link[0][0].qdelay_max = s.link[0][0].qdelay_sum = s.link[0][0].qdelay_n = 0;
	sim_run(&s, s.now + 3 * SEC);
	pstats(&s, 0, 0, &p);
	d = (double)s.win_delivered_bytes * 8 / 3.0 / 1e6;
	printf("rate/queue%s: bw estimate %.2f Mbit/s of 30, goodput %.2f Mbit/s, bottleneck queue "
	       "mean %.2f max %.2f ms, sender aqm drops %llu marks %llu, entry drops %llu\n",
	       ect ? " (ECN)" : "", p.bw_bps / 1e6, d,
	       s.link[0][0].qdelay_sum / 1e3 / (double)(s.link[0][0].qdelay_n ? s.link[0][0].qdelay_n : 1),
	       s.link[0][0].qdelay_max / 1e3, (unsigned long long)p.aqm_drops,
	       (unsigned long long)p.aqm_marks, (unsigned long long)s.enq_fail);
	CHECKM(p.bw_bps >= 27 * MBIT && p.bw_bps <= 33 * MBIT, "bw %llu",
	      (unsigned long long)p.bw_bps);
	CHECKM(d >= 27.0, "goodput %.2f", d);
	CHECKM(s.link[0][0].qdelay_sum / (s.link[0][0].qdelay_n ? s.link[0][0].qdelay_n : 1) <
	      2 * MS, "mean bottleneck queue too long");
	CHECKM(s.link[0][0].qdelay_max < 10 * MS, "max bottleneck queue %llu",
	      (unsigned long long)s.link[0][0].qdelay_max);
	if (ect)
		CHECKM(p.aqm_marks > 0 && p.aqm_drops == 0, "marks %llu drops %llu",
		      (unsigned long long)p.aqm_marks, (unsigned long long)p.aqm_drops);
	else
		CHECKM(p.aqm_drops > 0 && p.aqm_marks == 0, "drops %llu", (unsigned long long)p.aqm_drops);
	sim_fini(&s);
}

static void rate(void) { rate_and_queue(0); }
static void rate_ecn(void) { rate_and_queue(1); }

/* The same path, but arrivals come in batches every 1 ms (a real host: a
 * shaper's batched verdicts, batched reads). A delivery-rate sample over one
 * 5 ms report would read up to 25 % high and the windowed max keeps such
 * samples; joined spans of >= 10 ms keep the estimate within a few %, so the
 * pacing rate does not run a standing queue into the bottleneck. */
static void rate_batched(void)
{
	struct sim_link_cfg f[1] = { L(30, 20) }, r[1] = { L(30, 20) };
	struct braid_mp_path_stats p;
	uint64_t bw_max = 0;
	struct sim s;
	double d;

	f[0].batch_us = 1000;
	CHECK_EQ(sim_init(&s, 1, f, r, NULL), 0);
	sim_set_load(&s, 40 * MBIT, 1400, s.now + 6 * SEC);
	sim_run(&s, s.now + 2 * SEC);
	sim_window(&s, s.now, s.now + 3 * SEC);
	for (int k = 0; k < 30; k++) {
		sim_run(&s, s.now + 100 * MS);
		pstats(&s, 0, 0, &p);
		if (p.bw_bps > bw_max)
			bw_max = p.bw_bps;
	}
	d = (double)s.win_delivered_bytes * 8 / 3.0 / 1e6;
	printf("rate-batched: 1 ms arrival batches: bw estimate max %.2f Mbit/s of 30, goodput %.2f "
	       "Mbit/s\n", bw_max / 1e6, d);
	CHECKM(bw_max <= 31 * MBIT, "bw estimate max %llu", (unsigned long long)bw_max);
	CHECKM(p.bw_bps >= 29 * MBIT, "bw %llu", (unsigned long long)p.bw_bps);
	CHECKM(d >= 28.5, "goodput %.2f", d);
	sim_fini(&s);
}

/* mpip: Algorithm 1 shifts weight toward the path with less queuing. */
static void mpip(void)
{
	struct braid_mp_path_stats p0, p1;
	struct sim s;
	double s0, d;

	if (setup(&s, L(50, 5), L(20, 5), NULL))
		return;
	CHECK_EQ(braid_mp_set_sched(s.side[0].mp, BRAID_MP_SCHED_MPIP, NULL, 0), 0);
	sim_set_load(&s, 50 * MBIT, 1400, s.now + 8 * SEC);
	sim_run(&s, s.now + 4 * SEC);
	sim_window(&s, s.now, s.now + 3 * SEC);
	sim_run(&s, s.now + 3 * SEC);
	pstats(&s, 0, 0, &p0);
	pstats(&s, 0, 1, &p1);
	s0 = share(&s, 0);
	d = delivered_frac(&s);
	printf("mpip 50+20 offered 50: weights %u/%u, shares %.1f/%.1f %%, delivered %.2f%%\n",
	       p0.mpip_weight, p1.mpip_weight, 100 * s0, 100 * (1 - s0), 100 * d);
	CHECKM(p0.mpip_weight > p1.mpip_weight, "weights %u %u", p0.mpip_weight, p1.mpip_weight);
	CHECKM(s0 > 0.6, "share0 %.3f", s0);
	CHECKM(d >= 0.9, "delivered %.3f", d);
	sim_fini(&s);
}

/* Small packets (pure ACKs etc.) go on the lowest-delay path even under
 * a ratio that would put them elsewhere. */
static void classes(void)
{
	static const uint32_t r01[] = { 0, 1 };
	struct sim s;

	if (setup(&s, L(50, 5), L(50, 40), NULL))
		return;
	CHECK_EQ(braid_mp_set_sched(s.side[0].mp, BRAID_MP_SCHED_RATIO, r01, 2), 0);
	s.meta = BRAID_MP_CLASS_ACK;
	sim_set_load(&s, 2 * MBIT, 60, s.now + 3 * SEC);
	sim_run(&s, s.now + 1 * SEC);
	sim_window(&s, s.now, s.now + 1 * SEC);
	sim_run(&s, s.now + 1 * SEC);
	printf("classes: acks on the 5 ms path %.1f %%\n", 100 * share(&s, 0));
	CHECKM(share(&s, 0) > 0.999, "ack share %.3f", share(&s, 0));
	s.meta = BRAID_MP_CLASS_BULK;
	sim_window(&s, s.now, s.now + 1 * SEC);
	sim_run(&s, s.now + 1 * SEC);
	CHECKM(share(&s, 0) < 0.001, "bulk share %.3f", share(&s, 0));
	sim_fini(&s);
}

static const struct {
	const char *name;
	void (*fn)(void);
} scenarios[] = {
	{ "edf", edf_aggregate }, { "reorder", edf_reorder }, { "shares", sched_shares },
	{ "redundant", redundant }, { "cut", cut }, { "blackhole", blackhole },
	{ "backup", backup_cut }, { "rate", rate }, { "rate-ecn", rate_ecn },
	{ "rate-batched", rate_batched },
	{ "mpip", mpip }, { "classes", classes },
};

int main(int argc, char **argv)
{
	size_t i;
	int ran = 0;

	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		if (argc > 1 && strcmp(argv[1], scenarios[i].name))
			continue;
		scenarios[i].fn();
		ran++;
	}
	if (!ran) {
		fprintf(stderr, "unknown scenario '%s'\n", argv[1]);
		return 2;
	}
	CHECK_DONE();
}
