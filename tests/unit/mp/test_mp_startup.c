// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mp_startup.c - the rate controller's startup and the delivery-rate
 * samples, on the simulator's virtual clock (docs/multipath.md §3, §8).
 * Usage: test_mp_startup <scenario>; every scenario prints its numbers.
 *
 * What is asserted: how long a path takes from the first data to carrying
 * 90 % of its rate (in 20 ms bins of delivered bytes), that the startup
 * overshoot leaves a bounded bottleneck queue, that startup comes back
 * after idle and when a path that left it app-limited runs backlogged, and
 * that control bytes are in the delivery-rate estimate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "check.h"

#define MBIT 1000000ULL
#define MS 1000ULL
#define SEC 1000000ULL
#define BIN_US (20 * MS)

static struct sim_link_cfg L(uint64_t mbit, uint32_t delay_ms)
{
	struct sim_link_cfg c = { .rate_bps = mbit * MBIT, .delay_us = delay_ms * 1000 };

	if (!delay_ms)
		c.delay_us = 100;	/* "~0 ms" */
	return c;
}

static int setup(struct sim *s, int n, const struct sim_link_cfg *l)
{
	int rc = sim_init(s, n, l, l, NULL);

	CHECK_EQ(rc, 0);
	return rc;
}

/*
 * Offer bps from now until now + secs; return the time from now to the end
 * of the first 20 ms bin that delivered >= 90 % of target_bps
 * (UINT64_MAX: never). Bottleneck queue peaks of path links are reset at
 * the start, so the caller reads the peak of this ramp.
 */
static uint64_t ramp(struct sim *s, uint64_t bps, uint64_t target_bps, uint64_t secs)
{
	uint64_t t0 = s->now, end = s->now + secs * SEC, t90 = UINT64_MAX, last;
	int p;

	for (p = 0; p < s->npaths; p++)
		s->link[0][p].qdelay_max = 0;
	sim_set_load(s, bps, 1400, end);
	while (s->now < end) {
		if (s->now - t0 == secs * SEC / 2)
			for (p = 0; p < s->npaths; p++)
				s->link[0][p].qdelay_sum = s->link[0][p].qdelay_n = 0;
		last = s->delivered_bytes;
		sim_run(s, s->now + BIN_US);
		if (t90 == UINT64_MAX &&
		    (s->delivered_bytes - last) * 8 * SEC >= target_bps * BIN_US * 9 / 10)
			t90 = s->now - t0;
	}
	return t90;
}

static uint64_t qmax(const struct sim *s)
{
	uint64_t m = 0;
	int p;

	for (p = 0; p < s->npaths; p++)
		if (s->link[0][p].qdelay_max > m)
			m = s->link[0][p].qdelay_max;
	return m;
}

/* Mean bottleneck queue over the second half of the last ramp: what
 * stands once startup is over. */
static uint64_t qmean(const struct sim *s)
{
	uint64_t m = 0, v;
	int p;

	for (p = 0; p < s->npaths; p++) {
		v = s->link[0][p].qdelay_sum / (s->link[0][p].qdelay_n ? s->link[0][p].qdelay_n : 1);
		if (v > m)
			m = v;
	}
	return m;
}

static void pstats(const struct sim *s, int side, int p, struct braid_mp_path_stats *st)
{
	CHECK_EQ(braid_mp_path_stats(s->side[side].mp, p, st), 0);
}

/* A fresh path and a load above its rate from the first moment (the
 * tunnel just came up): 50 Mbit/s at RTT 20 ms and at ~0 ms. With the old
 * 2 Mbit/s first rate, x2 per round: 0.16 s at 20 ms; the first rate is
 * now 64 kB per first RTT (at most 100 Mbit/s). */
static void first(void)
{
	static const uint32_t delay[2] = { 10, 0 };
	int k;

	for (k = 0; k < 2; k++) {
		struct sim_link_cfg l = L(50, delay[k]);
		struct braid_mp_path_stats a;
		struct sim s;
		uint64_t t90, q, qm;

		if (setup(&s, 1, &l))
			return;
		sim_run(&s, s.now + 50 * MS);	/* validation, first probe RTT */
		t90 = ramp(&s, 60 * MBIT, 50 * MBIT, 1);
		q = qmax(&s);
		qm = qmean(&s);
		pstats(&s, 0, 0, &a);
		printf("first: 50 Mbit/s, one-way %u ms: 90 %% after %.0f ms, bottleneck queue max "
		       "%.1f ms, mean in the second half %.2f ms, bw %.2f Mbit/s, in startup %d\n",
		       delay[k], t90 == UINT64_MAX ? -1.0 : t90 / 1e3, q / 1e3, qm / 1e3,
		       a.bw_bps / 1e6, a.in_startup);
		CHECKM(t90 <= (k ? 60 : 120) * MS, "90 %% of the rate after %llu us",
		       (unsigned long long)t90);
		/* the overshoot is bounded: one round at twice the rate */
		CHECKM(q <= 40 * MS, "bottleneck queue %llu us", (unsigned long long)q);
		CHECKM(qm <= 5 * MS, "standing queue %llu us", (unsigned long long)qm);
		CHECKM(a.bw_bps >= 47 * MBIT && a.bw_bps <= 53 * MBIT, "bw %llu",
		       (unsigned long long)a.bw_bps);
		CHECK_EQ(a.in_startup, 0);
		CHECK_EQ(a.failures, 0);
		sim_fini(&s);
	}
}

/* The bed's finding (2): the tunnel is up, only pings flow for a second
 * (16 app-limited rounds ended startup at the first rate), then a
 * download. 50 + 20 Mbit/s, ~0 ms. Before, path 0 sat at 4.6 Mbit/s after
 * the second: EDF starved it and cuts on a lagging queuing delay took it
 * down (90 % of 70 Mbit/s never reached). */
static void late(void)
{
	struct sim_link_cfg l[2] = { L(50, 0), L(20, 0) };
	struct braid_mp_path_stats a0, a1;
	struct sim s;
	uint64_t t90, q, qm;

	if (setup(&s, 2, l))
		return;
	CHECK_EQ(sim_ping_start(&s, 10 * MS, s.now + 1 * SEC, 200), 0);
	sim_run(&s, s.now + 1 * SEC);
	t90 = ramp(&s, 75 * MBIT, 70 * MBIT, 1);
	q = qmax(&s);
	qm = qmean(&s);
	pstats(&s, 0, 0, &a0);
	pstats(&s, 0, 1, &a1);
	printf("late: 50+20 ~0 ms, 1 s of pings, then 75 Mbit/s: 90 %% of 70 after %.0f ms, "
	       "bottleneck queue max %.1f ms, mean in the second half %.2f ms, bw %.2f/%.2f\n",
	       t90 == UINT64_MAX ? -1.0 : t90 / 1e3, q / 1e3, qm / 1e3, a0.bw_bps / 1e6,
	       a1.bw_bps / 1e6);
	CHECKM(t90 <= 100 * MS, "90 %% of the rate after %llu us", (unsigned long long)t90);
	/* the first rate (100 Mbit/s at ~0 ms) overshoots the 20 Mbit/s
	 * path until the queuing delay shows: a transient, in the 100 ms
	 * buffer; nothing may stand */
	CHECKM(q <= 60 * MS, "bottleneck queue %llu us", (unsigned long long)q);
	CHECKM(qm <= 5 * MS, "standing queue %llu us", (unsigned long long)qm);
	CHECKM(a0.bw_bps >= 47 * MBIT && a1.bw_bps >= 19 * MBIT, "bw %llu/%llu",
	       (unsigned long long)a0.bw_bps, (unsigned long long)a1.bw_bps);
	CHECK_EQ(a0.failures + a1.failures, 0);
	sim_fini(&s);
}

/* A second transfer after 2 s of idle starts from the known rate again
 * (startup from bw), 50 Mbit/s at RTT 40 ms. */
static void idle(void)
{
	struct sim_link_cfg l = L(50, 20);
	struct braid_mp_path_stats a, b;
	struct sim s;
	uint64_t t1, t2, q, qm;

	if (setup(&s, 1, &l))
		return;
	sim_run(&s, s.now + 50 * MS);
	t1 = ramp(&s, 60 * MBIT, 50 * MBIT, 1);
	pstats(&s, 0, 0, &a);
	sim_run(&s, s.now + 2 * SEC);	/* queues drain, nothing sent */
	t2 = ramp(&s, 60 * MBIT, 50 * MBIT, 1);
	q = qmax(&s);
	qm = qmean(&s);
	pstats(&s, 0, 0, &b);
	printf("idle: 50 Mbit/s, RTT 40 ms: 90 %% after %.0f ms, after 2 s idle %.0f ms, "
	       "bottleneck queue max %.1f ms, mean in the second half %.2f ms, startup restarts "
	       "%llu, bw %.2f\n",
	       t1 == UINT64_MAX ? -1.0 : t1 / 1e3, t2 == UINT64_MAX ? -1.0 : t2 / 1e3, q / 1e3,
	       qm / 1e3,
	       (unsigned long long)(b.startup_restarts - a.startup_restarts), b.bw_bps / 1e6);
	CHECKM(t2 <= 100 * MS, "90 %% of the rate after idle after %llu us",
	       (unsigned long long)t2);
	CHECKM(q <= 40 * MS, "bottleneck queue %llu us", (unsigned long long)q);
	/* the cut threshold at RTT 40 ms is min RTT / 4 = 10 ms */
	CHECKM(qm <= 10 * MS, "standing queue %llu us", (unsigned long long)qm);
	CHECK_EQ(b.startup_restarts - a.startup_restarts, 1);
	CHECK_EQ(b.in_startup, 0);
	CHECK_EQ(b.failures, 0);
	sim_fini(&s);
}

/* Control bytes count: a 1 Mbit/s path carries probes, echoes and reports
 * beside the data (a few % of its rate). The estimate is the link's rate,
 * data and control, not the data alone; the data goodput stays within the
 * link minus its control share. Before control bytes counted, the
 * estimate was 0.957 Mbit/s. */
static void ctl(void)
{
	struct sim_link_cfg l = L(1, 10);
	struct braid_mp_path_stats a;
	struct sim s;
	uint64_t data0, bytes0, data, all;

	if (setup(&s, 1, &l))
		return;
	sim_set_load(&s, 2 * MBIT, 1400, s.now + 8 * SEC);
	sim_run(&s, s.now + 4 * SEC);
	data0 = s.link[0][0].data_bytes;
	bytes0 = s.link[0][0].bytes;
	sim_run(&s, s.now + 4 * SEC);
	data = s.link[0][0].data_bytes - data0;
	all = s.link[0][0].bytes - bytes0;
	pstats(&s, 0, 0, &a);
	printf("ctl: 1 Mbit/s, RTT 20 ms, offered 2: bw %.3f Mbit/s, link carried %.3f (data "
	       "%.3f, control %.1f %%), bottleneck queue max %.1f ms\n", a.bw_bps / 1e6,
	       all * 8.0 / 4 / 1e6, data * 8.0 / 4 / 1e6, 100.0 * (all - data) / all,
	       s.link[0][0].qdelay_max / 1e3);
	CHECKM(all > data, "no control bytes on the link");
	/* within 3 % of the link's rate (the data alone is below it by the
	 * control share) */
	CHECKM(a.bw_bps >= 970000 && a.bw_bps <= 1030000, "bw %llu", (unsigned long long)a.bw_bps);
	CHECKM(data * 8 / 4 >= 850000, "data %llu bit/s", (unsigned long long)(data * 8 / 4));
	sim_fini(&s);
}

static const struct {
	const char *name;
	void (*fn)(void);
} scenarios[] = {
	{ "first", first }, { "late", late }, { "idle", idle }, { "ctl", ctl },
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
