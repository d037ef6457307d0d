// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_mp_tcp.c - one inner TCP flow (simtcp.h) through two engines on a
 * virtual clock: the data-plane targets of the issue "braidd: the multipath
 * data plane", measured in the simulator.
 *
 * Usage: test_mp_tcp <scenario>   (assertions; see the table at the end)
 *        test_mp_tcp table        (every cell, for docs/multipath.md)
 *
 * "TCP capacity" of a path = goodput of the same TCP model over that path
 * alone, without the tunnel (direct), same queue and loss. Goodput counts
 * segments delivered in order to the receiving application.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "check.h"

#define MBIT 1000000ULL
#define MS 1000ULL
#define SEC 1000000ULL

struct path_spec {
	uint32_t mbit;
	uint32_t owd_ms;	/* one way; RTT = 2 x */
	uint32_t ge_good_loss;	/* ppm; 0 = no loss */
	uint32_t buf_ms;
};

struct result {
	double goodput;		/* Mbit/s in the window */
	double share0;
	uint64_t retrans, fast_rec, rtos, entry_drops;
	uint64_t ro_max_hold_us, ro_gaps, ro_late;
	uint32_t ro_max_held;
	uint64_t ping_p50, ping_p95;
	uint64_t aqm_drops, aqm_marks, resent;
	uint32_t failures;		/* path failures at the sender in the window */
	double cap_sum;		/* Mbit/s of the links */
};

static struct sim_link_cfg link_of(const struct path_spec *p, uint64_t seed)
{
	struct sim_link_cfg c;

	memset(&c, 0, sizeof(c));
	c.rate_bps = (uint64_t)p->mbit * MBIT;
	c.delay_us = p->owd_ms ? p->owd_ms * 1000 : 50;
	c.buf_us = (p->buf_ms ? p->buf_ms : 50) * 1000;
	if (p->ge_good_loss) {
		c.ge_p = 10000;		/* 1 % */
		c.ge_r = 750000;	/* 75 % */
		c.ge_bad_loss = 500000;	/* 1-h = 50 % */
		c.ge_good_loss = p->ge_good_loss;
	}
	c.seed = seed;
	return c;
}

/* Two paths ps[0..1] with the fixed seeds of the single-case scenarios, engines validated and settled (300 ms). */
static int sim_two_paths(struct sim *s, const struct path_spec *ps)
{
	struct sim_link_cfg f[2], r[2];
	int i, ret;

	for (i = 0; i < 2; i++) {
		f[i] = link_of(&ps[i], (uint64_t)i + 1);
		r[i] = link_of(&ps[i], (uint64_t)i + 9);
	}
	ret = sim_init(s, 2, f, r, NULL);
	if (!ret)
		sim_run(s, s->now + 300 * MS);
	return ret;
}

static int trace;

/* sim_run, printing the state every 100 ms with MP_TRACE=1 */
static void trace_run(struct sim *s, uint64_t until)
{
	uint64_t last = s->tcp_segs;
	int i;

	if (!trace) {
		sim_run(s, until);
		return;
	}
	while (s->now < until) {
		sim_run(s, s->now + trace * MS);
		printf("t=%6.2f gp %6.2f cwnd %7.1f ss %7.1f srtt %5.1f rec %d retx %llu rto %llu |",
		       s->now / 1e6, (double)(s->tcp_segs - last) * s->pkt_len * 8 / (trace / 1e3) / 1e6,
		       s->tcp->cwnd, s->tcp->ssthresh > 1e8 ? -1.0 : s->tcp->ssthresh,
		       s->tcp->srtt / 1e3, s->tcp->in_rec, (unsigned long long)s->tcp->retrans,
		       (unsigned long long)s->tcp->rtos);
		last = s->tcp_segs;
		printf(" entry %llu", (unsigned long long)s->tcp_entry_drops);
		for (i = 0; i < s->npaths; i++) {
			struct braid_mp_path_stats st;

			braid_mp_path_stats(s->side[0].mp, i, &st);
			printf(" p%d %.3s rate %5.1f bw %5.1f q %4llu qd %4.1f srtt %5.1f loss %u bdrop %llu",
			       i, braid_mp_state_name(st.state), st.rate_bps / 1e6, st.bw_bps / 1e6,
			       (unsigned long long)st.queue_pkts, st.qdelay_us / 1e3, st.srtt_us / 1e3,
			       st.loss_pm, (unsigned long long)s->link[0][i].drop_buf);
		}
		printf("\n");
	}
}

/*
 * Run one TCP flow for warm + dur virtual us. direct < 0: through the
 * tunnel on all paths; direct = k: over path k alone, no tunnel. ping_ms:
 * ping every that many ms during the window (0 = none).
 */
static int run(const struct path_spec *ps, int np, int direct, uint64_t seed, uint64_t warm,
	       uint64_t dur, uint32_t ping_ms, const struct braid_mp_config *cfg,
	       struct result *res)
{
	struct sim_link_cfg f[SIM_MAX_PATHS], r[SIM_MAX_PATHS];
	struct sim_tcp_cfg tc;
	struct braid_mp_stats b0, b1;
	struct sim *s;
	int i, rc;
	uint64_t t0, tot = 0, r0, f0, o0, e0;

	memset(res, 0, sizeof(*res));
	s = calloc(1, sizeof(*s));
	if (!s)
		return -1;
	for (i = 0; i < np; i++) {
		f[i] = link_of(&ps[i], seed * 16 + (uint64_t)i + 1);
		r[i] = link_of(&ps[i], seed * 16 + (uint64_t)i + 9);
		res->cap_sum += ps[i].mbit;
	}
	rc = sim_init(s, np, f, r, cfg);
	CHECK_EQ(rc, 0);
	if (rc)
		goto out;
	/* let the paths validate (the daemon would not start before) */
	sim_run(s, s->now + 300 * MS);
	memset(&tc, 0, sizeof(tc));
	tc.rwnd = 4096;
	CHECK_EQ(sim_tcp_start(s, &tc, direct), 0);
	trace_run(s, s->now + warm);
	t0 = s->now;
	r0 = s->tcp->retrans;
	f0 = s->tcp->fast_recoveries;
	o0 = s->tcp->rtos;
	e0 = s->tcp_entry_drops;
	braid_mp_stats(s->side[1].mp, &b0);
	braid_mp_stats_reset_peaks(s->side[1].mp);
	sim_window(s, t0, t0 + dur);
	if (ping_ms)
		CHECK_EQ(sim_ping_start(s, ping_ms * MS, t0 + dur, (uint32_t)(dur / (ping_ms * MS)) + 8),
			 0);
	trace_run(s, t0 + dur);
	braid_mp_stats(s->side[1].mp, &b1);
	res->goodput = (double)s->win_tcp_segs * s->pkt_len * 8 / ((double)dur / 1e6) / 1e6;
	for (i = 0; i < np; i++)
		tot += s->link[0][i].win_data_bytes;
	res->share0 = tot ? (double)s->link[0][0].win_data_bytes / (double)tot : 0;
	res->retrans = s->tcp->retrans - r0;
	res->fast_rec = s->tcp->fast_recoveries - f0;
	res->rtos = s->tcp->rtos - o0;
	res->entry_drops = s->tcp_entry_drops - e0;
	res->ro_max_hold_us = b1.rx_max_hold_us;
	res->ro_max_held = b1.rx_max_held;
	res->ro_gaps = (b1.rx_gaps_deadline - b0.rx_gaps_deadline) +
		       (b1.rx_gaps_bound - b0.rx_gaps_bound);
	res->ro_late = b1.rx_late - b0.rx_late;
	for (i = 0; i < np; i++) {
		struct braid_mp_path_stats st;

		braid_mp_path_stats(s->side[0].mp, i, &st);
		res->aqm_drops += st.aqm_drops;
		res->aqm_marks += st.aqm_marks;
		res->resent += st.resent_pkts + st.arq_resent;
		res->failures += st.failures;
	}
	if (ping_ms) {
		res->ping_p50 = sim_ping_pct(s, 50);
		res->ping_p95 = sim_ping_pct(s, 95);
	}
out:
	sim_fini(s);
	free(s);
	return rc;
}

static void print_result(const char *name, const struct result *r)
{
	printf("%-34s %7.2f Mbit/s (%5.1f%% of links) share0 %4.1f%% retx %llu fr %llu rto %llu "
	       "entry %llu aqm %llu/%llu ro hold %.1f ms held %u gaps %llu late %llu\n",
	       name, r->goodput, 100 * r->goodput / r->cap_sum, 100 * r->share0,
	       (unsigned long long)r->retrans, (unsigned long long)r->fast_rec,
	       (unsigned long long)r->rtos, (unsigned long long)r->entry_drops,
	       (unsigned long long)r->aqm_drops, (unsigned long long)r->aqm_marks,
	       r->ro_max_hold_us / 1e3, r->ro_max_held, (unsigned long long)r->ro_gaps,
	       (unsigned long long)r->ro_late);
}

static void one(void)
{
	struct path_spec ps[2];
	struct result r;
	const char *e = getenv("MP_CASE");
	int direct = -1;

	memset(ps, 0, sizeof(ps));
	if (!e || sscanf(e, "%u,%u,%u,%u,%u,%u,%d", &ps[0].mbit, &ps[0].owd_ms, &ps[0].ge_good_loss,
			 &ps[1].mbit, &ps[1].owd_ms, &ps[1].ge_good_loss, &direct) < 6) {
		fprintf(stderr, "MP_CASE=mbit0,owd0,loss0,mbit1,owd1,loss1[,direct]\n");
		return;
	}
	{
		struct braid_mp_config cfg;

		braid_mp_config_init(&cfg);
		if (getenv("MP_AQM"))
			cfg.aqm_target_us = (uint32_t)atoi(getenv("MP_AQM"));
		if (getenv("MP_QLIM"))
			cfg.queue_limit_us = (uint32_t)atoi(getenv("MP_QLIM"));
		run(ps, 2, direct, getenv("MP_SEED") ? (uint64_t)atoi(getenv("MP_SEED")) : 1, 3 * SEC,
		    (getenv("MP_DUR") ? (uint64_t)atoi(getenv("MP_DUR")) : 5) * SEC, 10, &cfg, &r);
	}
	print_result("case", &r);
	printf("ping p50 %.2f p95 %.2f ms\n", r.ping_p50 / 1e3, r.ping_p95 / 1e3);
}

static void explore(void)
{
	struct path_spec a[2] = { { 50, 0, 0, 0 }, { 20, 0, 0, 0 } };
	struct path_spec b[2] = { { 50, 10, 0, 0 }, { 50, 30, 0, 0 } };
	struct result r;
	char nm[64];
	int k;

	for (k = 0; k < 2; k++) {
		run(a, 2, k, 1, 3 * SEC, 5 * SEC, 0, NULL, &r);
		snprintf(nm, sizeof(nm), "50+20 direct %d", k);
		print_result(nm, &r);
	}
	run(a, 2, -1, 1, 3 * SEC, 5 * SEC, 0, NULL, &r);
	print_result("50+20 tunnel", &r);
	for (k = 0; k < 2; k++) {
		run(b, 2, k, 1, 3 * SEC, 5 * SEC, 0, NULL, &r);
		snprintf(nm, sizeof(nm), "50+50 20/60 direct %d", k);
		print_result(nm, &r);
	}
	run(b, 2, -1, 1, 3 * SEC, 5 * SEC, 0, NULL, &r);
	print_result("50+50 20/60 tunnel", &r);
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Median goodput over nseeds runs (nseeds <= 9); *last = the last run. */
static double median_run(const struct path_spec *ps, int np, int direct, int nseeds,
			 uint64_t warm, uint64_t dur, struct result *last)
{
	double g[9];
	int i;

	for (i = 0; i < nseeds; i++) {
		run(ps, np, direct, (uint64_t)i + 1, warm, dur, 0, NULL, last);
		g[i] = last->goodput;
	}
	qsort(g, (size_t)nseeds, sizeof(g[0]), cmp_d);
	return g[nseeds / 2];
}

static void grid(void)
{
	static const uint32_t loss[3] = { 0, 5000, 30000 };
	const char *e = getenv("MP_SEEDS");
	int nseeds = e ? atoi(e) : 3, ratio, l;

	for (l = 0; l < 3; l++)
		for (ratio = 1; ratio <= 5; ratio++) {
			struct path_spec ps[2] = { { 10, 10, loss[l], 0 },
						   { 10, 10 * (uint32_t)ratio, loss[l], 0 } };
			struct result r;
			double d0, d1, t;

			d0 = median_run(ps, 2, 0, nseeds, 2 * SEC, 10 * SEC, &r);
			d1 = median_run(ps, 2, 1, nseeds, 2 * SEC, 10 * SEC, &r);
			t = median_run(ps, 2, -1, nseeds, 2 * SEC, 10 * SEC, &r);
			printf("10+10 1:%d loss %5.1f%%: direct %.2f / %.2f, tunnel %.2f (%.0f%% of best, "
			       "%.0f%% of sum) retx %llu rto %llu resent %llu ro hold %.1f ms\n", ratio,
			       loss[l] / 1e4, d0, d1, t, 100 * t / (d0 > d1 ? d0 : d1),
			       100 * t / (d0 + d1), (unsigned long long)r.retrans,
			       (unsigned long long)r.rtos, (unsigned long long)r.resent,
			       r.ro_max_hold_us / 1e3);
		}
}

/* ---- assertions: the data-plane targets ---- */

/* Goodput of the tunnel against the sum of the paths' TCP capacities. */
static void aggregate(const char *name, const struct path_spec *ps, double want)
{
	struct result d0, d1, t;
	double frac;

	run(ps, 2, 0, 1, 3 * SEC, 5 * SEC, 0, NULL, &d0);
	run(ps, 2, 1, 1, 3 * SEC, 5 * SEC, 0, NULL, &d1);
	run(ps, 2, -1, 1, 3 * SEC, 5 * SEC, 0, NULL, &t);
	frac = t.goodput / (d0.goodput + d1.goodput);
	printf("%s: TCP capacity %.2f + %.2f Mbit/s, tunnel %.2f Mbit/s = %.1f%% of the sum "
	       "(%.1f%% of the link rates); inner retransmits %llu, RTOs %llu; reorder max hold "
	       "%.1f ms, max held %u; share path 0 %.1f%%; sender AQM drops %llu, path failures %u\n",
	       name, d0.goodput, d1.goodput, t.goodput, 100 * frac, 100 * t.goodput / t.cap_sum,
	       (unsigned long long)t.retrans, (unsigned long long)t.rtos, t.ro_max_hold_us / 1e3,
	       t.ro_max_held, 100 * t.share0, (unsigned long long)t.aqm_drops, t.failures);
	CHECKM(frac >= want, "%s: %.3f of the paths' TCP capacity < %.2f", name, frac, want);
	CHECK_EQ(t.rtos, 0);
	CHECK_EQ(t.failures, 0);
}

static void tcp_50_20(void)
{
	static const struct path_spec ps[2] = { { 50, 0, 0, 0 }, { 20, 0, 0, 0 } };

	aggregate("tcp 50+20 ~0 ms", ps, 0.95);
}

static void tcp_50_50(void)
{
	static const struct path_spec ps[2] = { { 50, 10, 0, 0 }, { 50, 30, 0, 0 } };

	aggregate("tcp 50+50 RTT 20/60 ms", ps, 0.95);
}

/* Seed grid row: two 10 Mbit/s paths, RTT 20 ms : 20..100 ms, GE loss. */
static void grid_row(uint32_t good_loss)
{
	int ratio;

	for (ratio = 1; ratio <= 5; ratio++) {
		struct path_spec ps[2] = { { 10, 10, good_loss, 0 },
					   { 10, 10 * (uint32_t)ratio, good_loss, 0 } };
		struct result d0, d1, t;
		double best;

		run(ps, 2, 0, 1, 2 * SEC, 10 * SEC, 0, NULL, &d0);
		run(ps, 2, 1, 1, 2 * SEC, 10 * SEC, 0, NULL, &d1);
		run(ps, 2, -1, 1, 2 * SEC, 10 * SEC, 0, NULL, &t);
		best = d0.goodput > d1.goodput ? d0.goodput : d1.goodput;
		printf("grid 10+10 RTT 20:%d ms, GE 1-k %.1f%%: single paths %.2f / %.2f, tunnel %.2f "
		       "Mbit/s (%.0f%% of the best path); inner retransmits %llu, RTOs %llu, ARQ "
		       "re-sent %llu, reorder max hold %.1f ms\n",
		       20 * ratio, good_loss / 1e4, d0.goodput, d1.goodput, t.goodput,
		       100 * t.goodput / best, (unsigned long long)t.retrans,
		       (unsigned long long)t.rtos, (unsigned long long)t.resent,
		       t.ro_max_hold_us / 1e3);
		CHECKM(t.goodput >= best, "grid 1:%d loss %u: tunnel %.2f below the best path %.2f",
		      ratio, good_loss, t.goodput, best);
		if (!good_loss)
			CHECKM(t.goodput >= 0.9 * (d0.goodput + d1.goodput),
			      "grid 1:%d: tunnel %.2f < 90%% of the sum", ratio, t.goodput);
	}
}

static void grid_clean(void) { grid_row(0); }
static void grid_2pct(void) { grid_row(5000); }
static void grid_7pct(void) { grid_row(30000); }

/*
 * Path cut under one TCP flow: 50 + 50 Mbit/s, 20 ms RTT each; path 0 dies
 * (both directions). Throughput must be back (>= 80 % of the surviving
 * path over 100 ms) within 300 ms, and the inner TCP must not see the loss
 * of the packets in flight on the dead path: no retransmission in the first
 * 300 ms but of what the sender's AQM dropped (telling it that the capacity
 * has halved), no RTO.
 */
/* packets the tunnel dropped on purpose at A: AQM and the entry limit */
static uint64_t tunnel_drops(struct sim *s)
{
	uint64_t n = s->tcp_entry_drops;
	int i;

	for (i = 0; i < s->npaths; i++) {
		struct braid_mp_path_stats st;

		braid_mp_path_stats(s->side[0].mp, i, &st);
		n += st.aqm_drops;
	}
	return n;
}

static void tcp_cut(void)
{
	static const struct path_spec ps[2] = { { 50, 10, 0, 0 }, { 50, 10, 0, 0 } };
	struct sim_tcp_cfg tc;
	struct braid_mp_path_stats st;
	struct sim *s = calloc(1, sizeof(*s));
	uint64_t cut, t, seg[100], retx0, rto0, back = 0, retx300 = 0, drops0, drops300 = 0;
	int i;

	if (!s)
		return;
	CHECK_EQ(sim_two_paths(s, ps), 0);
	memset(&tc, 0, sizeof(tc));
	tc.rwnd = 4096;
	CHECK_EQ(sim_tcp_start(s, &tc, -1), 0);
	sim_run(s, s->now + 4 * SEC);
	retx0 = s->tcp->retrans;
	rto0 = s->tcp->rtos;
	drops0 = tunnel_drops(s);
	cut = s->now;
	s->link[0][0].down = s->link[1][0].down = 1;
	/* goodput in 10 ms bins for 1 s */
	for (i = 0; i < 100; i++) {
		t = s->tcp_segs;
		sim_run(s, cut + (uint64_t)(i + 1) * 10 * MS);
		seg[i] = s->tcp_segs - t;
		if (i == 29) {
			retx300 = s->tcp->retrans - retx0;
			drops300 = tunnel_drops(s) - drops0;
		}
		if (trace)
			printf("t+%d cwnd %.1f retx %llu rec %d una %u\n", (i + 1) * 10, s->tcp->cwnd,
			       (unsigned long long)s->tcp->retrans, s->tcp->in_rec, s->tcp->una);
	}
	for (i = 0; i + 10 <= 100 && !back; i++) {
		uint64_t n = 0;
		int k;

		for (k = i; k < i + 10; k++)
			n += seg[k];
		if ((double)n * 1400 * 8 / 0.1 >= 0.8 * 50e6)
			back = (uint64_t)i * 10 * MS;
	}
	if (trace)
		for (i = 0; i < 60; i++)
			printf("bin %d: %llu segs\n", i * 10, (unsigned long long)seg[i]);
	braid_mp_path_stats(s->side[0].mp, 0, &st);
	printf("tcp cut 50+50 20 ms: path failed after %.1f ms, throughput back (>= 40 Mbit/s over "
	       "100 ms) %.0f ms after the cut; inner retransmits in the first 300 ms %llu (in 1 s "
	       "%llu: the flow adapting to half the capacity), RTOs %llu; engine re-sent %llu\n",
	       (st.last_fail_us - cut) / 1e3, back / 1e3, (unsigned long long)retx300,
	       (unsigned long long)(s->tcp->retrans - retx0),
	       (unsigned long long)(s->tcp->rtos - rto0), (unsigned long long)st.resent_pkts);
	CHECKM(back > 0 && back <= 300 * MS, "throughput back after %llu us",
	      (unsigned long long)back);
	/* the packets lost in the cut are re-sent by the engine: the inner
	 * flow retransmits only what the sender's AQM / queue limit dropped
	 * to tell it that the capacity halved, nothing lost in the cut */
	printf("tcp cut: sender AQM + entry drops in the first 300 ms %llu\n",
	       (unsigned long long)drops300);
	CHECKM(retx300 <= drops300, "%llu inner retransmits, %llu tunnel drops",
	       (unsigned long long)retx300, (unsigned long long)drops300);
	CHECK_EQ(s->tcp->rtos - rto0, 0);
	CHECK_EQ(st.state, BRAID_MP_PATH_FAILED);
	sim_fini(s);
	free(s);
}

/*
 * The return path of one TCP flow after a failover: 20 + 20 Mbit/s, one-way
 * 5 / 10 ms (the netns bed of tests/daemon/mp_failover.sh); path 1 goes down
 * at the receiving side B (a link event: B fails it at once, A finds out by
 * itself). B's surviving path then carries every ACK and all of B's control
 * traffic (reports with NACK tails, probes, echoes). The pacing of that path
 * is charged with the control bytes, so its delivery-rate samples must count
 * them too: if they count only the data (the ACKs), each sample reads the
 * path lower than the rate it is paced at, the estimate ratchets down to the
 * floor and the control bytes take the whole budget - the ACKs starve and
 * the inner flow stalls. The flow must keep >= 75 % of the surviving path
 * in each of the 5 s after the failover, and B's estimate of the path must
 * stay above what it is asked to carry.
 */
static void ack_path(void)
{
	static const struct path_spec ps[2] = { { 20, 5, 0, 0 }, { 20, 10, 0, 0 } };
	struct sim_tcp_cfg tc;
	struct braid_mp_path_stats st;
	struct sim *s = calloc(1, sizeof(*s));
	uint64_t down, segs, sec_segs = 0;
	double gp, sec_gp[5];
	int i;

	if (!s)
		return;
	CHECK_EQ(sim_two_paths(s, ps), 0);
	memset(&tc, 0, sizeof(tc));
	tc.rwnd = 4096;
	CHECK_EQ(sim_tcp_start(s, &tc, -1), 0);
	sim_run(s, s->now + 3 * SEC);
	down = s->now;
	s->link[0][1].down = s->link[1][1].down = 1;
	CHECK_EQ(braid_mp_path_link_event(s->side[1].mp, s->now, 1, 0), 0);
	for (i = 0; i < 50; i++) {
		if (i % 10 == 0)
			sec_segs = s->tcp_segs;
		segs = s->tcp_segs;
		sim_run(s, down + (uint64_t)(i + 1) * 100 * MS);
		if (i % 10 == 9)
			sec_gp[i / 10] = (double)(s->tcp_segs - sec_segs) * s->pkt_len * 8 / 1e6;
		if (trace) {
			gp = (double)(s->tcp_segs - segs) * s->pkt_len * 8 / 0.1 / 1e6;
			braid_mp_path_stats(s->side[1].mp, 0, &st);
			printf("t+%4d ms gp %6.2f Mbit/s | B path 0: bw %7.3f Mbit/s queue %llu\n",
			       (i + 1) * 100, gp, st.bw_bps / 1e6, (unsigned long long)st.queue_pkts);
		}
	}
	braid_mp_path_stats(s->side[1].mp, 0, &st);
	printf("ack path after a link down at the receiver: goodput in the 5 s after it %.1f %.1f "
	       "%.1f %.1f %.1f Mbit/s; B's estimate of its path %.3f Mbit/s, %llu queued\n",
	       sec_gp[0], sec_gp[1], sec_gp[2], sec_gp[3], sec_gp[4], st.bw_bps / 1e6,
	       (unsigned long long)st.queue_pkts);
	for (i = 0; i < 5; i++)
		CHECKM(sec_gp[i] >= 0.75 * 20, "second %d after the link down: goodput %.2f Mbit/s", i + 1,
		      sec_gp[i]);
	sim_fini(s);
	free(s);
}

/* Ping every 10 ms, idle and then with one TCP flow saturating both paths:
 * p95 of the added delay <= 20 ms. */
static void ping_case(const char *name, const struct path_spec *ps)
{
	struct result idle, load;
	struct sim *s = calloc(1, sizeof(*s));

	if (!s)
		return;
	CHECK_EQ(sim_two_paths(s, ps), 0);
	sim_window(s, s->now, s->now + 2 * SEC);
	CHECK_EQ(sim_ping_start(s, 10 * MS, s->now + 2 * SEC, 256), 0);
	sim_run(s, s->now + 2 * SEC);
	memset(&idle, 0, sizeof(idle));
	idle.ping_p50 = sim_ping_pct(s, 50);
	idle.ping_p95 = sim_ping_pct(s, 95);
	sim_fini(s);
	free(s);
	run(ps, 2, -1, 1, 3 * SEC, 5 * SEC, 10, NULL, &load);
	printf("%s: ping idle p50 %.2f ms; under one saturating TCP flow (%.1f Mbit/s) p50 %.2f, "
	       "p95 %.2f ms: added p95 %.2f ms\n", name, idle.ping_p50 / 1e3, load.goodput,
	       load.ping_p50 / 1e3, load.ping_p95 / 1e3,
	       ((double)load.ping_p95 - (double)idle.ping_p50) / 1e3);
	CHECKM(idle.ping_p50 > 0 && load.ping_p95 > 0, "no ping samples");
	CHECKM(load.ping_p95 <= idle.ping_p50 + 20 * MS, "%s: ping p95 %llu vs idle %llu", name,
	      (unsigned long long)load.ping_p95, (unsigned long long)idle.ping_p50);
	CHECKM(load.goodput >= 0.9 * load.cap_sum, "%s: not saturated (%.1f)", name, load.goodput);
}

static void ping(void)
{
	static const struct path_spec a[2] = { { 50, 10, 0, 0 }, { 50, 30, 0, 0 } };
	static const struct path_spec b[2] = { { 50, 0, 0, 0 }, { 20, 0, 0, 0 } };

	ping_case("ping 50+50 RTT 20/60 ms", a);
	ping_case("ping 50+20 ~0 ms", b);
}

static const struct {
	const char *name;
	void (*fn)(void);
} scenarios[] = {
	{ "tcp-50-20", tcp_50_20 }, { "tcp-50-50", tcp_50_50 }, { "grid-clean", grid_clean },
	{ "grid-2pct", grid_2pct }, { "grid-7pct", grid_7pct }, { "tcp-cut", tcp_cut },
	{ "ack-path", ack_path },
	{ "ping", ping },
	/* not run by ctest: exploration and the median table */
	{ "explore", explore }, { "one", one }, { "grid", grid },
};

int main(int argc, char **argv)
{
	size_t i;
	int ran = 0;

	trace = getenv("MP_TRACE") ? atoi(getenv("MP_TRACE")) : 0;
	for (i = 0; i < sizeof(scenarios) / sizeof(scenarios[0]); i++) {
		if (argc > 1 && strcmp(argv[1], scenarios[i].name))
			continue;
		if (argc < 2 && scenarios[i].fn == explore)
			break;
		scenarios[i].fn();
		ran++;
	}
	if (!ran) {
		fprintf(stderr, "unknown scenario '%s'\n", argv[1]);
		return 2;
	}
	CHECK_DONE();
}
