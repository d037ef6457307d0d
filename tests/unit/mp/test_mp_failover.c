// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mp_failover.c - issue 17's failover target on the simulator: one
 * inner TCP flow (simtcp.h) A -> B over two paths, one path is cut, and the
 * goodput must be back above 90 % of the surviving path's TCP capacity
 * within 300 ms at the median and 500 ms in every run, without an inner
 * RTO, for a blackhole and a link down, on 10+10 (RTT 20 ms) and 50+20
 * (~0 ms), n = 10 runs per cell (link seeds and cut times differ).
 *
 * Measured like tests/bench/flowtool.py failover90: 20 ms bins of in-order
 * goodput from the cut; back = the first bin boundary from which every
 * 100 ms window (5 bins) of the next 500 ms has a mean at or above the
 * threshold (later dips are the inner flow's own congestion control, which
 * it has before the cut too). Capacity = the same TCP model over the
 * surviving path alone, without the tunnel.
 *
 * Usage: test_mp_failover <cell>    10-10-blackhole 10-10-down 50-20-blackhole 50-20-down
 *        test_mp_failover table     every cell, per-run numbers (docs/multipath.md §8)
 *        test_mp_failover lossy     no cut, lossy paths: false failures (MP_SEEDS, default 2)
 *        test_mp_failover redundant mp-scheduler redundant: zero loss across a cut
 *        test_mp_failover class-redundant  an `mp-class ... redundant` flow beside bulk TCP:
 *                                          zero loss of that class across a cut, bulk not copied
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "check.h"

#define MBIT 1000000ULL
#define MS 1000ULL
#define SEC 1000000ULL
#define NRUNS 10
#define BIN_MS 20
#define NBINS 100	/* 2 s after the cut */
#define WINDOW 5
#define HOLD_BINS 25	/* back = and stays so for 500 ms */

struct cell {
	const char *name;
	uint32_t mbit[2], owd_us[2];
	int down;		/* 0 blackhole (both ways, no event), 1 link down at B too */
	int cut;		/* the path that is cut */
};

struct fo_run {
	double back_ms;		/* < 0: not back */
	double fail_ms;		/* path failed at A after the cut */
	uint64_t rtos, retx300, false_fail;
};

static int verbose;

static struct sim_link_cfg link_of(uint32_t mbit, uint32_t owd_us, uint64_t seed)
{
	struct sim_link_cfg c;

	memset(&c, 0, sizeof(c));
	c.rate_bps = (uint64_t)mbit * MBIT;
	c.delay_us = owd_us ? owd_us : 50;
	c.jitter_us = 200;
	c.buf_us = 50 * 1000;
	c.seed = seed;
	return c;
}

static struct sim *start(const struct cell *c, uint64_t seed, int direct)
{
	struct sim_link_cfg f[2], r[2];
	struct sim_tcp_cfg tc;
	struct sim *s = calloc(1, sizeof(*s));
	int i;

	if (!s)
		abort();
	for (i = 0; i < 2; i++) {
		f[i] = link_of(c->mbit[i], c->owd_us[i], seed * 16 + (uint64_t)i + 1);
		r[i] = link_of(c->mbit[i], c->owd_us[i], seed * 16 + (uint64_t)i + 9);
	}
	CHECK_EQ(sim_init(s, 2, f, r, NULL), 0);
	sim_run(s, s->now + 300 * MS);
	memset(&tc, 0, sizeof(tc));
	tc.rwnd = 4096;
	CHECK_EQ(sim_tcp_start(s, &tc, direct), 0);
	return s;
}

static void stop(struct sim *s)
{
	sim_fini(s);
	free(s);
}

/* goodput of the TCP model over path k alone (no tunnel), Mbit/s */
static double capacity(const struct cell *c, int k)
{
	struct sim *s = start(c, 1, k);
	uint64_t t0, n0;
	double g;

	sim_run(s, s->now + 2 * SEC);
	t0 = s->now;
	n0 = s->tcp_segs;
	sim_run(s, t0 + 3 * SEC);
	g = (double)(s->tcp_segs - n0) * s->pkt_len * 8 / 3.0 / 1e6;
	stop(s);
	return g;
}

/* back = the first bin boundary t such that every 100 ms window (5 bins) in
 * [t, t + 500 ms] has a mean >= thr; -1 if none (tests/bench/flowtool.py
 * back90_from_bins) */
static double back_from_bins(const double *b, int n, double thr)
{
	int t, j, m;

	for (t = 0; t + HOLD_BINS <= n; t++) {
		int ok = 1;

		for (j = t; j + WINDOW <= t + HOLD_BINS && ok; j++) {
			double sum = 0;

			for (m = j; m < j + WINDOW; m++)
				sum += b[m];
			ok = sum / WINDOW >= thr;
		}
		if (ok)
			return t * BIN_MS;
	}
	return -1;
}

static void one_run(const struct cell *c, uint64_t seed, double thr, struct fo_run *out)
{
	struct sim *s = start(c, seed, -1);
	struct braid_mp_path_stats st;
	double bins[NBINS];
	uint64_t cut, rto0, retx0, t;
	uint32_t f0;
	int i, live = !c->cut;

	sim_run(s, s->now + 3 * SEC + seed * 13700);
	braid_mp_path_stats(s->side[0].mp, live, &st);
	f0 = st.failures;
	if (verbose) {
		struct braid_mp_path_stats s0;

		braid_mp_path_stats(s->side[0].mp, c->cut, &s0);
		printf("  before the cut: startup %d qd %.1f srtt %.1f var %.1f failures %u/%u (suspects %u/%u)\n", s0.in_startup, s0.qdelay_us / 1e3, s0.srtt_us / 1e3, s0.rttvar_us / 1e3, s0.failures, st.failures,
		       s0.suspects, st.suspects);
	}
	rto0 = s->tcp->rtos;
	retx0 = s->tcp->retrans;
	cut = s->now;
	s->link[0][c->cut].down = s->link[1][c->cut].down = 1;
	if (c->down)
		CHECK_EQ(braid_mp_path_link_event(s->side[1].mp, s->now, c->cut, 0), 0);
	for (i = 0; i < NBINS; i++) {
		t = s->tcp_segs;
		sim_run(s, cut + (uint64_t)(i + 1) * BIN_MS * MS);
		bins[i] = (double)(s->tcp_segs - t) * s->pkt_len * 8 / (BIN_MS / 1e3) / 1e6;
		if (i == 300 / BIN_MS - 1)
			out->retx300 = s->tcp->retrans - retx0;
		if (verbose > 1 && i < 40) {
			struct braid_mp_stats bs;

			braid_mp_stats(s->side[1].mp, &bs);
			printf("   B held %u gaps_dl %llu dl %.1f |", bs.rx_held,
			       (unsigned long long)bs.rx_gaps_deadline, bs.reorder_deadline_us / 1e3);
			braid_mp_path_stats(s->side[0].mp, live, &st);
			printf("   t+%3d gp %5.1f cwnd %6.1f retx %llu rec %d entry %llu aqm %llu/%llu "
			       "q %llu rate %.1f bw %.1f qd %.1f %s srtt %.1f\n", (i + 1) * BIN_MS, bins[i],
			       s->tcp->cwnd, (unsigned long long)(s->tcp->retrans - retx0),
			       s->tcp->in_rec, (unsigned long long)s->tcp_entry_drops,
			       (unsigned long long)st.aqm_drops, (unsigned long long)st.aqm_marks,
			       (unsigned long long)st.queue_pkts, st.rate_bps / 1e6, st.bw_bps / 1e6,
			       st.qdelay_us / 1e3, braid_mp_state_name(sim_state(s, 0, c->cut)),
			       st.srtt_us / 1e3);
			printf("      live %s tx %llu resent %llu linkpk %llu dbuf %llu dloss %llu dmtu %llu | B live %s\n",
			       braid_mp_state_name(st.state), (unsigned long long)st.tx_pkts,
			       (unsigned long long)st.resent_pkts, (unsigned long long)s->link[0][live].pkts,
			       (unsigned long long)s->link[0][live].drop_buf,
			       (unsigned long long)s->link[0][live].drop_loss,
			       (unsigned long long)s->link[0][live].drop_mtu,
			       braid_mp_state_name(sim_state(s, 1, live)));
		}
	}
	out->back_ms = back_from_bins(bins, NBINS, thr);
	out->rtos = s->tcp->rtos - rto0;
	braid_mp_path_stats(s->side[0].mp, c->cut, &st);
	out->fail_ms = st.last_fail_us >= cut ? (st.last_fail_us - cut) / 1e3 : -1;
	braid_mp_path_stats(s->side[0].mp, live, &st);
	out->false_fail = st.failures - f0;
	if (verbose) {
		printf("  seed %llu bins:", (unsigned long long)seed);
		for (i = 0; i < 30; i++)
			printf(" %.1f", bins[i]);
		printf("\n");
	}
	stop(s);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void run_cell(const struct cell *c)
{
	struct fo_run r[NRUNS];
	double cap = capacity(c, !c->cut), thr = 0.9 * cap, b[NRUNS], med, max = 0;
	uint64_t rtos = 0, falsef = 0;
	int i, notback = 0;

	printf("%s: surviving path TCP capacity %.2f Mbit/s, threshold %.2f\n", c->name, cap, thr);
	for (i = 0; i < NRUNS; i++) {
		if (getenv("MP_RUN") && atoi(getenv("MP_RUN")) != i) {
			r[i].back_ms = 0;
			r[i].rtos = r[i].false_fail = 0;
			b[i] = 0;
			continue;
		}
		one_run(c, (uint64_t)i + 1, thr, &r[i]);
		printf("  run %d: failed after %.1f ms, back %.0f ms, inner RTOs %llu, inner "
		       "retransmits in 300 ms %llu, failures of the live path %llu\n", i,
		       r[i].fail_ms, r[i].back_ms, (unsigned long long)r[i].rtos,
		       (unsigned long long)r[i].retx300, (unsigned long long)r[i].false_fail);
		b[i] = r[i].back_ms < 0 ? 1e9 : r[i].back_ms;
		notback += r[i].back_ms < 0;
		if (b[i] > max)
			max = b[i];
		rtos += r[i].rtos;
		falsef += r[i].false_fail;
	}
	qsort(b, NRUNS, sizeof(b[0]), cmp_d);
	med = (b[NRUNS / 2 - 1] + b[NRUNS / 2]) / 2;
	printf("%s: back median %.0f ms, max %.0f ms (n = %d, %d not back), inner RTOs %llu, "
	       "failures of the live path %llu\n", c->name, med, max, NRUNS, notback,
	       (unsigned long long)rtos, (unsigned long long)falsef);
	CHECKM(med <= 300, "%s: median back %.0f ms > 300", c->name, med);
	CHECKM(max <= 500, "%s: max back %.0f ms > 500", c->name, max);
	CHECK_EQ(rtos, 0);
	CHECK_EQ(falsef, 0);
}

/*
 * False failures: no cut, one TCP flow for 10 s over two lossy paths
 * (Gilbert-Elliott as in the seed grid: p 1 %, r 75 %, 1-h 50 %, 1-k 0.5 or
 * 3 %, about 2 and 7 % round trip; and 10 % uniform), RTT 20 ms : 20 / 60 /
 * 100 ms, seeds 1-5; every path failure at either side is a false one.
 * "lossy" prints the counts and bounds them (MP_SEEDS=2, the default).
 */
static uint32_t lossy_suspects;	/* of those, by the early checks */

static uint32_t lossy_run(uint32_t owd1_ms, uint32_t good_loss, uint32_t uni_pm, uint64_t seed)
{
	struct sim_link_cfg f[2], r[2];
	struct sim_tcp_cfg tc;
	struct sim *s = calloc(1, sizeof(*s));
	uint32_t n = 0;
	int i, k;

	if (!s)
		abort();
	for (i = 0; i < 2; i++) {
		f[i] = link_of(10, i ? owd1_ms * 1000 : 10000, seed * 16 + (uint64_t)i + 1);
		r[i] = link_of(10, i ? owd1_ms * 1000 : 10000, seed * 16 + (uint64_t)i + 9);
		for (k = 0; k < 2; k++) {
			struct sim_link_cfg *c = k ? &r[i] : &f[i];

			if (good_loss) {
				c->ge_p = 10000;
				c->ge_r = 750000;
				c->ge_bad_loss = 500000;
				c->ge_good_loss = good_loss;
			}
			c->loss_pm = uni_pm;
		}
	}
	CHECK_EQ(sim_init(s, 2, f, r, NULL), 0);
	sim_run(s, s->now + 300 * MS);
	memset(&tc, 0, sizeof(tc));
	tc.rwnd = 4096;
	CHECK_EQ(sim_tcp_start(s, &tc, -1), 0);
	sim_run(s, s->now + 10 * SEC);
	for (k = 0; k < 2; k++)
		for (i = 0; i < 2; i++) {
			struct braid_mp_path_stats st;

			braid_mp_path_stats(s->side[k].mp, i, &st);
			n += st.failures;
			lossy_suspects += st.suspects;
		}
	stop(s);
	return n;
}

static void lossy(int nseeds)
{
	static const uint32_t owd1[3] = { 10, 30, 50 };
	static const struct { uint32_t ge, uni; const char *name; } loss[3] = {
		{ 5000, 0, "GE 2%" }, { 30000, 0, "GE 7%" }, { 0, 100, "uniform 10%" } };
	uint32_t total = 0;
	int l, o;
	uint64_t seed;

	for (l = 0; l < 3; l++)
		for (o = 0; o < 3; o++) {
			uint32_t n = 0;

			for (seed = 1; seed <= (uint64_t)nseeds; seed++)
				n += lossy_run(owd1[o], loss[l].ge, loss[l].uni, seed);
			printf("lossy 10+10 RTT 20:%u ms, %s: %u path failures in %d runs of 10 s\n",
			       2 * owd1[o], loss[l].name, n, nseeds);
			total += n;
		}
	printf("lossy: %u false path failures in total, %u of them by the early checks\n", total,
	       lossy_suspects);
	/* a regression guard, not zero: the rule before issue 17 failed these
	 * paths 49 times with 2 seeds (254 with 10), this one 7 (23 with 10);
	 * docs/multipath.md §8.5 */
	if (nseeds == 2)
		CHECKM(total <= 12, "%u false failures > 12", total);
}

/*
 * mp-scheduler redundant across a cut: 10+10 Mbit/s, RTT 20 ms, 5 Mbit/s
 * offered (each path carries every packet), path 0 blackholed, then link
 * down at B: not one offered packet may be lost, none delivered twice, and
 * the receiver never waits (no gap given up, no hold beyond the deadline).
 */
/* two paths of 10 Mbit/s, 10 ms one way, fixed seeds (the cut scenarios) */
static struct sim *sim_10_10(void)
{
	struct sim_link_cfg f[2], r[2];
	struct sim *s = calloc(1, sizeof(*s));
	int i;

	if (!s)
		abort();
	for (i = 0; i < 2; i++) {
		f[i] = link_of(10, 10000, (uint64_t)i + 1);
		r[i] = link_of(10, 10000, (uint64_t)i + 9);
	}
	CHECK_EQ(sim_init(s, 2, f, r, NULL), 0);
	return s;
}

static void redundant_cut(int down)
{
	struct braid_mp_stats b0, b1;
	struct sim *s = sim_10_10();
	uint64_t from, cut;

	CHECK_EQ(braid_mp_set_sched(s->side[0].mp, BRAID_MP_SCHED_REDUNDANT, NULL, 0), 0);
	CHECK_EQ(braid_mp_set_sched(s->side[1].mp, BRAID_MP_SCHED_REDUNDANT, NULL, 0), 0);
	sim_run(s, s->now + 300 * MS);
	sim_set_load(s, 5 * MBIT, 1400, s->now + 4 * SEC);
	sim_run(s, s->now + 1 * SEC);
	from = s->side[0].next_pid;
	braid_mp_stats(s->side[1].mp, &b0);
	cut = s->now;
	s->link[0][0].down = s->link[1][0].down = 1;
	if (down)
		CHECK_EQ(braid_mp_path_link_event(s->side[1].mp, s->now, 0, 0), 0);
	sim_run(s, cut + 4 * SEC);
	braid_mp_stats(s->side[1].mp, &b1);
	printf("redundant cut (%s): offered %llu packets after the cut began, lost %llu, "
	       "delivered twice %llu, gaps given up %llu, path 0 %s\n", down ? "link down" : "blackhole",
	       (unsigned long long)(s->side[0].next_pid - from),
	       (unsigned long long)sim_lost_from(s, from), (unsigned long long)s->dup_deliveries,
	       (unsigned long long)(b1.rx_gaps_deadline - b0.rx_gaps_deadline),
	       braid_mp_state_name(sim_state(s, 0, 0)));
	CHECK_EQ(sim_lost_from(s, from), 0);
	CHECK_EQ(s->dup_deliveries, 0);
	/* control ids lost with the path are SKIPped: nothing waits (23 gaps
	 * given up after the deadline before issue 17) */
	CHECK_EQ(b1.rx_gaps_deadline - b0.rx_gaps_deadline, 0);
	CHECK_EQ(sim_state(s, 0, 0), BRAID_MP_PATH_FAILED);
	stop(s);
}

static uint64_t sum_paths(struct sim *s, int side, size_t off)
{
	struct braid_mp_path_stats st;
	uint64_t n = 0;

	for (int i = 0; i < s->npaths; i++) {
		CHECK_EQ(braid_mp_path_stats(s->side[side].mp, i, &st), 0);
		n += *(const uint64_t *)((const char *)&st + off);
	}
	return n;
}

#define SUMP(s, side, f) sum_paths(s, side, offsetof(struct braid_mp_path_stats, f))

/*
 * Per-class redundancy across a cut (issue 17): 10+10 Mbit/s, RTT 20 ms, one
 * bulk TCP flow (1400 B segments, the default scheduler) and a flow of a
 * `redundant` class beside it (what `mp-class proto udp port 5060 redundant`
 * makes of SIP/RTP: 200 B at 50 packets/s, the latency class EF with the
 * copy flag; B's daemon has the same rule, so it gets EF too). Before the
 * cut, 1 s measured: every marked packet got one copy (or a budget skip),
 * the bulk packets none. Then path 0 is blackholed (down: and its link goes
 * down at B): not one marked packet lost, none delivered twice, none later
 * than before the cut (the engine's re-sends alone lose none either, but
 * deliver those that were on path 0 only after ARQ / the failover).
 */
static void class_cut(int down)
{
	struct sim_tcp_cfg tc;
	struct braid_mp_stats a0, a1, b0, b1;
	struct sim *s = sim_10_10();
	uint64_t pre_delay, from, cut, off0, fail0, marked, copies, skipped, tx, enq, arq, resent, q0, segs0;

	sim_run(s, s->now + 300 * MS);
	memset(&tc, 0, sizeof(tc));
	tc.rwnd = 4096;
	s->seg_len = 1400;
	CHECK_EQ(sim_tcp_start(s, &tc, -1), 0);
	s->meta = BRAID_MP_META_REDUNDANT | BRAID_MP_CLASS_EF;
	s->load_rx_meta = BRAID_MP_CLASS_EF;
	sim_set_load(s, 50 * 200 * 8, 200, s->now + 5 * SEC);
	sim_run(s, s->now + 2 * SEC);

	/* 1 s with both paths: copies of the marked packets only */
	braid_mp_stats(s->side[0].mp, &a0);
	braid_mp_stats(s->side[1].mp, &b0);
	off0 = s->offered;
	fail0 = s->enq_fail;
	skipped = SUMP(s, 0, redundant_skipped);
	tx = SUMP(s, 0, tx_pkts);
	arq = SUMP(s, 0, arq_resent);
	resent = SUMP(s, 0, resent_pkts);
	q0 = SUMP(s, 0, queue_pkts);
	sim_run(s, s->now + 1 * SEC);
	braid_mp_stats(s->side[0].mp, &a1);
	braid_mp_stats(s->side[1].mp, &b1);
	marked = (s->offered - off0) - (s->enq_fail - fail0);
	copies = a1.class_copies - a0.class_copies;
	skipped = SUMP(s, 0, redundant_skipped) - skipped;
	tx = SUMP(s, 0, tx_pkts) - tx;
	enq = a1.enq_pkts - a0.enq_pkts;
	arq = SUMP(s, 0, arq_resent) - arq;
	resent = SUMP(s, 0, resent_pkts) - resent;
	printf("class redundant, 1 s before the cut: marked %llu, copies %llu, skipped %llu; "
	       "packets queued %llu, sent %llu (ARQ %llu, failover %llu, queued at start %llu); "
	       "B dropped %llu copies\n", (unsigned long long)marked,
	       (unsigned long long)copies, (unsigned long long)skipped, (unsigned long long)enq,
	       (unsigned long long)tx, (unsigned long long)arq, (unsigned long long)resent,
	       (unsigned long long)q0, (unsigned long long)(b1.rx_dups - b0.rx_dups));
	CHECK(marked >= 49 && marked <= 51);
	/* one copy per marked packet (two paths), or a skip over budget; none here:
	 * the marked packets wait in the priority queue only */
	CHECK_EQ(copies + skipped, marked);
	CHECK_EQ(skipped, 0);
	/* bulk is not copied: what went out is what was queued, the copies and the
	 * re-sends (bulk copied too would add ~the TCP packets again) */
	CHECKM(tx <= enq + copies + arq + resent + q0, "sent %llu > queued %llu + copies %llu + "
	       "re-sent %llu + backlog %llu", (unsigned long long)tx, (unsigned long long)enq,
	       (unsigned long long)copies, (unsigned long long)(arq + resent),
	       (unsigned long long)q0);
	CHECKM(enq > 10 * marked, "bulk TCP queued only %llu packets", (unsigned long long)enq);
	/* B drops the second copies (the latency class is delivered at once) */
	CHECK(b1.rx_dups - b0.rx_dups >= copies / 2);
	CHECK_EQ(s->dup_deliveries, 0);
	pre_delay = s->load_max_delay_us;

	from = s->side[0].next_pid;
	s->load_max_delay_us = 0;
	off0 = s->offered;
	segs0 = s->tcp_segs;
	cut = s->now;
	s->link[0][0].down = s->link[1][0].down = 1;
	if (down)
		CHECK_EQ(braid_mp_path_link_event(s->side[1].mp, s->now, 0, 0), 0);
	sim_run(s, cut + 3 * SEC);	/* the marked flow stops 1 s after the cut: all drained */
	printf("class redundant cut (%s): marked offered %llu after the cut began, lost %llu "
	       "(since the start %llu), delivered twice %llu, path 0 %s, TCP segments after the "
	       "cut %llu; marked delay max %.1f ms (%.1f ms before the cut)\n",
	       down ? "link down" : "blackhole",
	       (unsigned long long)(s->offered - off0), (unsigned long long)sim_lost_from(s, from),
	       (unsigned long long)sim_lost(s), (unsigned long long)s->dup_deliveries,
	       braid_mp_state_name(sim_state(s, 0, 0)), (unsigned long long)(s->tcp_segs - segs0),
	       s->load_max_delay_us / 1e3, pre_delay / 1e3);
	CHECK(s->offered - off0 >= 95);
	CHECK_EQ(sim_lost_from(s, from), 0);
	CHECK_EQ(sim_lost(s), 0);
	CHECK_EQ(s->dup_deliveries, 0);
	/* and none waited for the failover: the copy on path 1 was there (without
	 * the copies, the ids lost on path 0 come late by ARQ: 84 ms, 57 before) */
	CHECKM(s->load_max_delay_us <= pre_delay + 10 * MS, "marked delay %.1f ms after the cut, "
	       "%.1f before", s->load_max_delay_us / 1e3, pre_delay / 1e3);
	CHECK_EQ(sim_state(s, 0, 0), BRAID_MP_PATH_FAILED);
	CHECK(s->tcp_segs - segs0 > 1000);	/* the bulk flow goes on over path 1 */
	stop(s);
}

static const struct cell cells[] = {
	{ "10-10-blackhole", { 10, 10 }, { 10000, 10000 }, 0, 0 },
	{ "10-10-down", { 10, 10 }, { 10000, 10000 }, 1, 0 },
	{ "50-20-blackhole", { 50, 20 }, { 0, 0 }, 0, 0 },
	{ "50-20-down", { 50, 20 }, { 0, 0 }, 1, 0 },
};

int main(int argc, char **argv)
{
	size_t i;
	int ran = 0;

	verbose = getenv("MP_TRACE") ? atoi(getenv("MP_TRACE")) : 0;
	if (argc > 1 && !strcmp(argv[1], "redundant")) {
		redundant_cut(0);
		redundant_cut(1);
		CHECK_DONE();
	}
	if (argc > 1 && !strcmp(argv[1], "class-redundant")) {
		class_cut(0);
		class_cut(1);
		CHECK_DONE();
	}
	if (argc > 1 && !strcmp(argv[1], "lossy")) {
		lossy(getenv("MP_SEEDS") ? atoi(getenv("MP_SEEDS")) : 2);
		CHECK_DONE();
	}
	for (i = 0; i < sizeof(cells) / sizeof(cells[0]); i++) {
		if (argc > 1 && strcmp(argv[1], "table") && strcmp(argv[1], cells[i].name))
			continue;
		run_cell(&cells[i]);
		ran++;
	}
	if (!ran) {
		fprintf(stderr, "unknown cell '%s'\n", argv[1]);
		return 2;
	}
	CHECK_DONE();
}
