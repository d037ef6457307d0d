// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_model.c - deterministic unit tests of pathemu's model: GE long-run loss and burst length against the
 * analytic values, tail drop, serialisation timing, the monotonic clamp, seed reproducibility, link states,
 * control commands and option errors.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ctlcmd.h"
#include "ge.h"
#include "link.h"
#include "options.h"
#include "params.h"


#define MS 1000000ULL
#define US 1000ULL

static struct pe_params base(void)
{
	struct pe_params p;

	params_default(&p);
	p.qms = 0;
	return p;
}

/* Long-run GE loss and mean burst vs analytic values, over n packets straight through the model. */
static void ge_case(double p, double r, double lg, double lb, unsigned n)
{
	struct ge_params gp = { p, r, lg, lb };
	struct pe_params par = base();
	struct link l;
	struct link_pkt out[4];
	double want = ge_stationary_loss(&gp), want_burst = ge_mean_burst(&gp);
	double got, got_burst, sigma;
	double lam = 1.0 - p / 100.0 - r / 100.0;
	double pb = p + r > 0 ? p / (p + r) : 0.0;
	unsigned i;

	par.ge_on = true;
	par.ge = gp;
	par.seed = 7;
	link_init(&l, &par);
	for (i = 0; i < n; i++) {
		link_arrive(&l, i * US, i, 100);
		link_release(&l, i * US, 0, out, 4);
	}
	got = (double)l.st.dropped_loss / n;
	got_burst = l.st.loss_bursts ? (double)l.st.dropped_loss / (double)l.st.loss_bursts : 0;
	/* variance of the mean of a two-state Markov-modulated Bernoulli sequence */
	sigma = sqrt((want * (1 - want) +
		      2 * pb * (1 - pb) * (lb - lg) * (lb - lg) / 1e4 * (lam / (1 - lam))) / n);
	printf("ge %g,%g,%g,%g over %u: loss %.4f%% (analytic %.4f%%, 4 sigma %.4f%%), mean burst %.3f (analytic %.3f)\n",
	       p, r, lg, lb, n, got * 100, want * 100, 4 * sigma * 100, got_burst, want_burst);
	CHECKM(fabs(got - want) < 4 * sigma, "loss %.5f vs %.5f", got, want);
	CHECKM(fabs(got_burst - want_burst) < 0.05 * want_burst, "burst %.4f vs %.4f", got_burst, want_burst);
	CHECKM(l.st.received == n && l.st.sent + l.st.dropped_loss == n, "accounting");
	link_free(&l);
}

static void test_ge(void)
{
	struct ge_params seed004 = { 1, 75, 3, 50 };

	/* analytic values computed by hand: pi_bad = 1/76; loss = 75/76*0.03 + 1/76*0.5 */
	CHECKM(fabs(ge_stationary_loss(&seed004) - (75.0 / 76 * 0.03 + 1.0 / 76 * 0.5)) < 1e-12, "stationary");
	ge_case(1, 75, 3, 50, 1000000);
	ge_case(1, 75, 0, 50, 1000000);
	ge_case(1, 20, 0, 100, 1000000); /* bursty: 4.76 %, mean burst 5 */
	CHECKM(fabs(ge_mean_burst(&(struct ge_params){ 1, 20, 0, 100 }) - 5.0) < 1e-9, "burst 1,20,0,100 = 1/r");
}

static void test_uniform(void)
{
	struct pe_params par = base();
	struct link l;
	struct link_pkt out[4];
	unsigned i, n = 200000;
	double got, sigma = sqrt(0.02 * 0.98 / n);

	par.loss_pct = 2;
	link_init(&l, &par);
	for (i = 0; i < n; i++) {
		link_arrive(&l, 0, i, 100);
		link_release(&l, 0, 0, out, 4);
	}
	got = (double)l.st.dropped_loss / n;
	printf("uniform 2%% over %u: %.4f%%\n", n, got * 100);
	CHECKM(fabs(got - 0.02) < 4 * sigma, "uniform loss %.5f", got);
	link_free(&l);
}

/* 8 Mbit/s: a packet of 986 IP bytes (+14) takes exactly 1 ms on the wire. */
static void test_queue_limits(void)
{
	struct pe_params par = base();
	struct link l;
	int i, queued = 0, dropped = 0;

	par.rate_mbit = 8;
	par.qms = 10;
	link_init(&l, &par);
	for (i = 0; i < 20; i++) {
		enum link_fate f = link_arrive(&l, 0, (uint32_t)i, 986);

		queued += f == LINK_QUEUED;
		dropped += f == LINK_DROP_QUEUE;
	}
	CHECKM(queued == 10 && dropped == 10, "qms=10: queued %d dropped %d", queued, dropped);
	/* 2.5 ms later 2 packets have left the serialiser: room for exactly 2 more */
	queued = 0;
	for (i = 0; i < 5; i++)
		queued += link_arrive(&l, 2500 * US, 100 + (uint32_t)i, 986) == LINK_QUEUED;
	CHECKM(queued == 2, "after 2.5 ms: queued %d, want 2", queued);
	CHECKM(l.st.dropped_queue == 13, "dropped_queue %llu", (unsigned long long)l.st.dropped_queue);
	link_free(&l);

	par.qms = 0;
	par.qpkts = 5;
	link_init(&l, &par);
	queued = 0;
	for (i = 0; i < 20; i++)
		queued += link_arrive(&l, 0, (uint32_t)i, 986) == LINK_QUEUED;
	CHECKM(queued == 5, "qpkts=5: queued %d", queued);
	queued = 0;
	for (i = 0; i < 5; i++) /* at 3 ms, 3 have been serialised */
		queued += link_arrive(&l, 3 * MS, 100 + (uint32_t)i, 986) == LINK_QUEUED;
	CHECKM(queued == 3, "qpkts after 3 ms: queued %d, want 3", queued);
	link_free(&l);
}

static void test_rate_timing(void)
{
	struct pe_params par = base();
	struct link l;
	struct link_pkt out[32];
	uint64_t due;
	size_t n;
	int i;

	par.rate_mbit = 8;
	par.delay_ms = 3;
	link_init(&l, &par);
	for (i = 0; i < 10; i++)
		CHECKM(link_arrive(&l, 0, (uint32_t)i, 986) == LINK_QUEUED, "arrive %d", i);
	CHECKM(link_next_due(&l, &due) == 0 && due == 4 * MS, "first due %llu", (unsigned long long)due);
	n = link_release(&l, 5500 * US, 0, out, 32);
	CHECKM(n == 2 && out[0].id == 0 && out[1].id == 1 && out[1].due_ns == 5 * MS, "release at 5.5 ms: %zu", n);
	n = link_release(&l, 5800 * US, 250 * US, out, 32); /* window reaches 6.05 ms: one more */
	CHECKM(n == 1 && out[0].due_ns == 6 * MS, "window release: %zu", n);
	n = link_release(&l, 100 * MS, 0, out, 32);
	CHECKM(n == 7 && out[6].due_ns == 13 * MS && out[6].id == 9, "rest: %zu", n);
	CHECKM(l.st.sent == 10 && l.st.bytes_sent == 9860, "sent %llu bytes %llu", (unsigned long long)l.st.sent,
	      (unsigned long long)l.st.bytes_sent);
	CHECKM(link_next_due(&l, &due) == -ENOENT, "empty");
	/* an idle link starts serialising at the arrival time, not at the old backlog end */
	link_arrive(&l, 50 * MS, 99, 986);
	CHECKM(link_next_due(&l, &due) == 0 && due == 54 * MS, "idle restart due %llu", (unsigned long long)due);
	link_free(&l);
}

/* Count inversions of release order vs arrival order with jitter, clamped or not. */
static int jitter_run(bool reorder, double *mean_extra_ms)
{
	struct pe_params par = base();
	struct link l;
	struct link_pkt out[2048];
	uint64_t last_due = 0, sum = 0;
	uint32_t last_id = 0;
	size_t n, k;
	int i, inv = 0, nondecr = 1;

	par.delay_ms = 10;
	par.jitter_ms = 5;
	par.reorder = reorder;
	par.seed = 3;
	link_init(&l, &par);
	for (i = 0; i < 1000; i++)
		link_arrive(&l, (uint64_t)i * 100 * US, (uint32_t)i, 100);
	n = link_release(&l, 10000 * MS, 0, out, 2048);
	CHECKM(n == 1000, "released %zu", n);
	for (k = 0; k < n; k++) {
		if (k && out[k].id < last_id)
			inv++;
		if (out[k].due_ns < last_due)
			nondecr = 0;
		last_id = out[k].id;
		last_due = out[k].due_ns;
		sum += out[k].due_ns - (uint64_t)out[k].id * 100 * US;
	}
	CHECKM(nondecr, "release order by due time");
	*mean_extra_ms = (double)sum / n / 1e6;
	link_free(&l);
	return inv;
}

static void test_jitter(void)
{
	double m1, m2;
	int inv_clamped = jitter_run(false, &m1), inv_reorder = jitter_run(true, &m2);

	printf("jitter 5 ms at 100 us spacing: clamped %d inversions (mean delay %.2f ms), reorder %d (mean %.2f ms)\n",
	       inv_clamped, m1, inv_reorder, m2);
	CHECKM(inv_clamped == 0, "clamped run reordered %d", inv_clamped);
	CHECKM(inv_reorder > 100, "reorder run only %d inversions", inv_reorder);
	/* unclamped mean stays near the delay (normal, 2 sigma clipped at send time) */
	CHECKM(fabs(m2 - 10.0) < 0.6, "reorder mean %.3f", m2);
	CHECKM(m1 > m2, "clamp raises the mean");
}

static void pattern(uint64_t seed, uint32_t stream, double jitter, unsigned char *bits, int n)
{
	struct pe_params par = base();
	struct link l;
	struct link_pkt out[4];
	int i;

	par.seed = seed;
	par.stream = stream;
	par.loss_pct = 5;
	par.ge_on = true;
	par.ge = (struct ge_params){ 1, 20, 0, 100 };
	par.jitter_ms = jitter;
	link_init(&l, &par);
	for (i = 0; i < n; i++) {
		bits[i] = link_arrive(&l, (uint64_t)i * MS, (uint32_t)i, 100) == LINK_DROP_LOSS;
		link_release(&l, (uint64_t)i * MS + 60000 * MS, 0, out, 4);
	}
	link_free(&l);
}

static void test_seed(void)
{
	enum { N = 10000 };
	static unsigned char a[N], b[N], c[N], d[N], e[N];

	pattern(42, 1, 0, a, N);
	pattern(42, 1, 0, b, N);
	pattern(43, 1, 0, c, N);
	pattern(42, 1, 7, d, N);
	pattern(42, 2, 0, e, N);
	CHECKM(!memcmp(a, b, N), "same seed, different drops");
	CHECKM(memcmp(a, c, N), "seeds 42 and 43 gave the same drops");
	CHECKM(!memcmp(a, d, N), "jitter changed the drop pattern");
	CHECKM(memcmp(a, e, N), "queues 1 and 2 of one seed gave the same drops");
}

static void test_states(void)
{
	struct pe_params par = base();
	struct link l;
	struct link_pkt out[16];
	char reply[1024];
	int i;

	par.delay_ms = 10;
	link_init(&l, &par);
	for (i = 0; i < 5; i++)
		link_arrive(&l, 0, (uint32_t)i, 100);
	CHECKM(ctlcmd_exec(&l, "blackhole", reply, sizeof(reply)) == CTL_NONE, "blackhole");
	CHECKM(!strcmp(reply, "ok blackhole, 5 queued still leave, 0 sent before"), "reply '%s'", reply);
	CHECKM(link_arrive(&l, 1, 5, 100) == LINK_DROP_DOWN, "blackhole drops arrivals");
	CHECKM(link_release(&l, 10 * MS, 0, out, 16) == 5, "queued leave during blackhole");
	ctlcmd_exec(&l, "up", reply, sizeof(reply));
	CHECKM(!strcmp(reply, "ok up"), "reply '%s'", reply);
	for (i = 0; i < 3; i++)
		link_arrive(&l, 20 * MS, 10 + (uint32_t)i, 100);
	CHECKM(ctlcmd_exec(&l, "down", reply, sizeof(reply)) == CTL_FLUSHED, "down flushes");
	CHECKM(!strcmp(reply, "ok down, dropped 3 queued"), "reply '%s'", reply);
	CHECKM(link_queued(&l) == 0 && link_arrive(&l, 21 * MS, 20, 100) == LINK_DROP_DOWN, "down drops");
	CHECKM(l.st.received == 10 && l.st.sent == 5 && l.st.dropped_down == 5, "counts %llu %llu %llu",
	      (unsigned long long)l.st.received, (unsigned long long)l.st.sent, (unsigned long long)l.st.dropped_down);
	CHECKM(ctlcmd_exec(&l, "stats", reply, sizeof(reply)) == CTL_NONE, "stats");
	CHECKM(!strncmp(reply, "ok {\"received\":10,\"sent\":5,\"dropped_loss\":0,\"dropped_queue\":0,"
			      "\"dropped_down\":5,\"queued\":0,\"bytes_sent\":500,", 104),
	      "stats '%s'", reply);
	CHECKM(strstr(reply, "\"state\":\"down\"") && reply[strlen(reply) - 1] == '}', "stats '%s'", reply);
	link_free(&l);
}

static void expect_reply(struct link *l, const char *cmd, const char *want)
{
	char reply[1024];

	ctlcmd_exec(l, cmd, reply, sizeof(reply));
	CHECKM(!strcmp(reply, want), "'%s' -> '%s', want '%s'", cmd, reply, want);
}

static void test_ctl(void)
{
	struct pe_params par = base();
	struct link l;
	char reply[1024];

	link_init(&l, &par);
	expect_reply(&l, "frobnicate", "error: unknown command 'frobnicate' (set down blackhole up stats quit)");
	expect_reply(&l, "   ", "error: empty command");
	expect_reply(&l, "up now", "error: 'up' takes no arguments, got 'now'");
	expect_reply(&l, "set", "error: set needs at least one key=value (rate delay jitter loss ge qms qpkts batch)");
	expect_reply(&l, "set rate", "error: set: 'rate' is not key=value");
	expect_reply(&l, "set speed=3", "error: set: unknown parameter 'speed'");
	expect_reply(&l, "set seed=3", "error: set: unknown parameter 'seed'");
	expect_reply(&l, "set rate=fast", "error: set: bad value 'fast' for rate (want a rate in Mbit/s, 0..100000)");
	expect_reply(&l, "set loss=101", "error: set: bad value '101' for loss (want a loss percentage, 0..100)");
	expect_reply(&l, "set ge=1,2,3", "error: set: bad value '1,2,3' for ge (want p,r,1-k,1-h as four percentages 0..100, or off)");
	expect_reply(&l, "set ge=1,,2,3", "error: set: bad value '1,,2,3' for ge (want p,r,1-k,1-h as four percentages 0..100, or off)");
	/* atomic: a bad key later in the line leaves the earlier ones unapplied */
	expect_reply(&l, "set delay=5 qpkts=-1", "error: set: bad value '-1' for qpkts (want a queue limit in packets, 0..200000 (0 = off))");
	CHECKM(l.par.delay_ms == 0, "partial set applied");
	ctlcmd_exec(&l, "set rate=20 delay=10 jitter=1.5 loss=2 ge=1,75,3,50 qms=50 qpkts=100", reply, sizeof(reply));
	CHECKM(!strncmp(reply, "ok {\"rate_mbit\":20,\"delay_ms\":10,\"jitter_ms\":1.5,\"reorder\":false,\"qms\":50,"
			      "\"qpkts\":100,\"loss_pct\":2,\"ge\":[1,75,3,50],", 110), "set reply '%s'", reply);
	ctlcmd_exec(&l, "set loss=0 ge=off", reply, sizeof(reply));
	CHECKM(l.par.loss_pct == 0 && !l.par.ge_on && l.par.rate_mbit == 20, "clear loss");
	CHECKM(ctlcmd_exec(&l, "quit", reply, sizeof(reply)) == CTL_QUIT && !strcmp(reply, "ok bye"), "quit");
	link_free(&l);
}

static int parse(const char *line, struct pe_options *o, char *err)
{
	char buf[512], *argv[32], *t, *save = NULL;
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	for (t = strtok_r(buf, " ", &save); t && argc < 31; t = strtok_r(NULL, " ", &save))
		argv[argc++] = t;
	argv[argc] = NULL;
	err[0] = '\0';
	return options_parse(argc, argv, o, err, 256);
}

static void expect_opt_err(const char *line, const char *want)
{
	struct pe_options o;
	char err[256];

	CHECKM(parse(line, &o, err) == -EINVAL && !strcmp(err, want), "'%s' -> '%s', want '%s'", line, err, want);
}

static void test_options(void)
{
	struct pe_options o;
	char err[256];

	CHECKM(parse("pathemu -q 3 -c /tmp/x -r 20 -d 10 -j 2 --reorder -Q 50 -P 100 -l 1.5 -g 1,75,3,50 -s 9 -G 100",
		    &o, err) == 0, "valid line: %s", err);
	CHECKM(o.qnum == 3 && o.par.rate_mbit == 20 && o.par.delay_ms == 10 && o.par.jitter_ms == 2 &&
	      o.par.reorder && o.par.qms == 50 && o.par.qpkts == 100 && o.par.loss_pct == 1.5 && o.par.ge_on &&
	      o.par.ge.r == 75 && o.par.seed == 9 && o.par.batch_us == 100, "values");
	CHECKM(parse("pathemu -q 1 -c s", &o, err) == 0 && o.par.qms == 100 && o.par.batch_us == 250 &&
	      o.par.seed == 1 && !o.par.reorder, "defaults");
	expect_opt_err("pathemu -q 1 -c s -r fast", "option -r: bad value 'fast' for rate (want a rate in Mbit/s, 0..100000)");
	expect_opt_err("pathemu -q 70000 -c s", "bad value '70000' for -q (want a queue number 0..65535)");
	expect_opt_err("pathemu -q 1 -c s -x", "unknown option '-x'");
	expect_opt_err("pathemu -q 1 -c s --bogus", "unknown option '--bogus'");
	expect_opt_err("pathemu -q 1 -c s -d", "option '-d' needs a value");
	expect_opt_err("pathemu -c s", "missing -q QNUM");
	expect_opt_err("pathemu -q 1", "missing -c CTLSOCK");
	expect_opt_err("pathemu -q 1 -c s extra", "unexpected argument 'extra'");
	expect_opt_err("pathemu -q 1 -c s -g 1,2", "option -g: bad value '1,2' for ge (want p,r,1-k,1-h as four percentages 0..100, or off)");
	/* delay-only mode: no rate, no queue, in either option order */
	CHECKM(parse("pathemu -q 1 -c s -D -d 10 -l 1", &o, err) == 0 && o.par.delay_only && o.par.qms == 0 &&
	      o.par.rate_mbit == 0 && o.par.qpkts == 0 && o.par.delay_ms == 10 && o.par.loss_pct == 1, "-D: %s", err);
	CHECKM(parse("pathemu -q 1 -c s -r 0 -Q 0 -D", &o, err) == 0 && o.par.delay_only, "-D with zeros: %s", err);
	expect_opt_err("pathemu -q 1 -c s -r 20 -D", "-D (delay-only) takes no rate or queue: drop -r, -Q and -P or set them to 0");
	expect_opt_err("pathemu -q 1 -c s -D -Q 50", "option -Q: qms=50 refused in delay-only mode (no rate or queue model; use 0)");
	expect_opt_err("pathemu -q 1 -c s -P 10 --delay-only", "-D (delay-only) takes no rate or queue: drop -r, -Q and -P or set them to 0");
}

/* Delay-only: a burst far above any rate leaves after exactly the delay, nothing is tail-dropped, and the
 * control socket refuses a rate or a queue limit while still taking delay and loss. */
static void test_delay_only(void)
{
	struct pe_params par = base();
	struct link_pkt out[512];
	struct link l;
	char reply[1024];
	uint64_t due;
	int i;

	par.delay_only = true;
	par.qms = 0;
	par.delay_ms = 15;
	link_init(&l, &par);
	for (i = 0; i < 500; i++)
		CHECKM(link_arrive(&l, 1000, (uint32_t)i, 1500) == LINK_QUEUED, "arrive %d", i);
	CHECKM(link_next_due(&l, &due) == 0 && due == 1000 + 15 * MS, "due %llu", (unsigned long long)due);
	CHECKM(link_release(&l, 1000 + 15 * MS, 0, out, 512) == 500 && l.st.dropped_queue == 0, "all 500 at once");
	expect_reply(&l, "set rate=10", "error: set: rate=10 refused in delay-only mode (no rate or queue model; use 0)");
	expect_reply(&l, "set qms=50", "error: set: qms=50 refused in delay-only mode (no rate or queue model; use 0)");
	expect_reply(&l, "set delay=5 qpkts=3", "error: set: qpkts=3 refused in delay-only mode (no rate or queue model; use 0)");
	CHECKM(l.par.delay_ms == 15, "refused set applied");
	ctlcmd_exec(&l, "set delay=5 loss=1 rate=0", reply, sizeof(reply));
	CHECKM(l.par.delay_ms == 5 && l.par.loss_pct == 1 && strstr(reply, "\"delay_only\":true"), "set '%s'", reply);
	link_free(&l);
}

int main(void)
{
	test_ge();
	test_uniform();
	test_queue_limits();
	test_rate_timing();
	test_jitter();
	test_seed();
	test_states();
	test_ctl();
	test_options();
	test_delay_only();
	CHECK_DONE();
}
