// SPDX-License-Identifier: GPL-2.0-only
/*
 * lg_report.c - gateway RSS from /proc and the load generator's JSON report
 * (lg_report.h).
 */
#include "lg_report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

long lg_rss_parse(const char *text, size_t len)
{
	size_t i = 0;

	while (i < len) {
		const char *line = text + i, *nl = memchr(line, '\n', len - i);
		size_t ll = nl ? (size_t)(nl - line) : len - i;
		if (ll > 6 && memcmp(line, "VmRSS:", 6) == 0) {
			long v = 0;
			size_t j = 6;
			while (j < ll && (line[j] == ' ' || line[j] == '\t'))
				j++;
			if (j == ll || line[j] < '0' || line[j] > '9')
				return -EBADMSG;
			while (j < ll && line[j] >= '0' && line[j] <= '9') {
				if (v > 1000000000L)
					return -EBADMSG;
				v = v * 10 + (line[j++] - '0');
			}
			return v;
		}
		i += ll + 1;
	}
	return -EBADMSG;
}

long lg_rss_kb(pid_t pid)
{
	char path[64], buf[8192];
	ssize_t n;
	size_t got = 0;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (got < sizeof(buf) && (n = read(fd, buf + got, sizeof(buf) - got)) > 0)
		got += (size_t)n;
	close(fd);
	return lg_rss_parse(buf, got);
}

/* The q-quantile (0..1) of a 1 ms histogram, in ms; -1 if empty. */
static long quantile(const uint32_t *h, double q)
{
	uint64_t total = 0, acc = 0, want;
	size_t i;

	for (i = 0; i < LG_RTT_BUCKETS; i++)
		total += h[i];
	if (!total)
		return -1;
	want = (uint64_t)(q * (double)total);
	if (want >= total)
		want = total - 1;
	for (i = 0; i < LG_RTT_BUCKETS; i++) {
		acc += h[i];
		if (acc > want)
			return (long)i;
	}
	return LG_RTT_BUCKETS - 1;
}

static void hist_json(FILE *f, const char *name, const uint32_t *h)
{
	fprintf(f, "\"%s\":{\"p50\":%ld,\"p90\":%ld,\"p99\":%ld,\"max\":%ld}", name, quantile(h, 0.5),
		quantile(h, 0.9), quantile(h, 0.99), quantile(h, 1.0));
}

#define ULL(x) ((unsigned long long)(x))

/* Per mode: sessions, and the multipath sessions' paths and engine messages. */
static void mp_json(FILE *f, const struct lg_ctx *ctx)
{
	fprintf(f, "\"mp_share\":%.3f,\"established_sp\":%u,\"established_mp\":%u,\"mp\":{"
		   "\"announced\":%u,\"accepted\":%u,\"not_offered\":%u,\"sessions_2_paths_validated\":%llu,"
		   "\"reports_tx\":%llu,\"rx_dups\":%llu,\"ctl_rx\":%llu,\"ctl_bad\":%llu,\"ctl_other\":%llu,\"challenges_answered\":%llu,"
		   "\"probes_echoed\":%llu,\"mtu_probes_acked\":%llu,\"pings_sent\":%llu,\"pings_replied\":%llu,\"tx_path\":[%llu,%llu],"
		   "\"rx_path\":[%llu,%llu]},",
		ctx->mp_share_pm / 1000.0, ctx->established - ctx->established_mp, ctx->established_mp,
		ctx->mp_announced, ctx->mp_accepted, ctx->mp_not_offered, ULL(ctx->mp_sessions_validated),
		ULL(ctx->mp_reports_tx), ULL(ctx->mp_rx_dups), ULL(ctx->mp_ctl_rx), ULL(ctx->mpst.malformed), ULL(ctx->mpst.other), ULL(ctx->mpst.challenges),
		ULL(ctx->mpst.probes), ULL(ctx->mpst.mtu_probes), ULL(ctx->mp_pings_sent),
		ULL(ctx->mp_pings_replied), ULL(ctx->mp_tx_path[0]),
		ULL(ctx->mp_tx_path[1]), ULL(ctx->mp_rx_path[0]), ULL(ctx->mp_rx_path[1]));
}

void lg_report_json(FILE *f, const struct lg_ctx *ctx, const struct lg_run *run)
{
	static const char *const fail_names[LG_F_N] = { "timeout", "fatal", "auth_failed", "push",
							 "keys", "socket" };
	double hs = run->t_handshakes_s > 0 ? run->t_handshakes_s : 1e-9, est_s;
	struct rusage ru;
	unsigned i;

	fprintf(f, "{\"tool\":\"braid-loadgen\",\"label\":\"%s\",\"mode\":\"%s\",", run->label,
		!ctx->mp_share_pm ? "single-path" : ctx->mp_share_pm == 1000 ? "multipath" : "mixed");
	fprintf(f, "\"sessions\":%u,\"rate\":%u,\"established\":%u,\"failed\":%u,\"dropped\":%u,"
		   "\"held\":%u,\"fail\":{", run->sessions, run->rate, ctx->established, ctx->failed,
		ctx->dropped, ctx->established - ctx->dropped);
	for (i = 0; i < LG_F_N; i++)
		fprintf(f, "%s\"%s\":%u", i ? "," : "", fail_names[i], ctx->fail[i]);
	est_s = ctx->established ? (double)(ctx->last_est_ms - ctx->t0_ms) / 1000.0 : 0.0;
	fprintf(f, "},\"launch_s\":%.3f,\"handshakes_s\":%.3f,\"last_established_s\":%.3f,"
		   "\"handshakes_per_s\":%.1f,\"finished_per_s\":%.1f,", run->t_launch_s, run->t_handshakes_s,
		est_s, est_s > 0 ? (double)ctx->established / est_s : 0.0,
		(double)(ctx->established + ctx->failed) / hs);
	hist_json(f, "handshake_ms", ctx->hs_hist);
	fprintf(f, ",\"pings_per_session\":%u,\"ping_size\":%u,\"pings_sent\":%llu,\"pings_replied\":%llu,"
		   "\"pings_dup\":%llu,\"pings_late\":%llu,\"loss\":%.6f,\"sessions_all_replies\":%llu,"
		   "\"sessions_some_lost\":%llu,\"min_bytes\":%llu,\"sessions_min_bytes\":%llu,"
		   "\"session_reply_bytes_min\":%lld,\"mp_sessions_echoes_both_paths\":%llu,",
		ctx->pings, ctx->ping_size, (unsigned long long)ctx->pings_sent,
		(unsigned long long)ctx->pings_replied, (unsigned long long)ctx->pings_dup,
		(unsigned long long)ctx->pings_late,
		ctx->pings_sent ? 1.0 - (double)ctx->pings_replied / (double)ctx->pings_sent : 0.0,
		(unsigned long long)ctx->sessions_all_replies, (unsigned long long)ctx->sessions_some_lost,
		ULL(ctx->min_bytes), ULL(ctx->sessions_min_bytes),
		ctx->session_bytes_min == UINT64_MAX ? -1LL : (long long)ctx->session_bytes_min,
		ULL(ctx->mp_sessions_both_paths));
	hist_json(f, "rtt_ms", ctx->rtt_hist);
	fprintf(f, ",\"retried\":%llu,\"rx_before_keys\":%llu", (unsigned long long)ctx->retried,
		(unsigned long long)ctx->rx_before_keys);
	fprintf(f, ",\"tun_bytes_tx\":%llu,\"tun_bytes_rx\":%llu,\"keepalives_tx\":%llu,\"keepalives_rx\":%llu,"
		   "\"rx_ctl_dropped\":%llu,\"rx_data_dropped\":%llu,\"rx_not_ours\":%llu,\"rx_truncated\":%llu,",
		(unsigned long long)ctx->tun_bytes_tx, (unsigned long long)ctx->tun_bytes_rx,
		(unsigned long long)ctx->keepalives_tx, (unsigned long long)ctx->keepalives_rx,
		(unsigned long long)ctx->rx_ctl_dropped, (unsigned long long)ctx->rx_data_dropped,
		(unsigned long long)ctx->rx_not_ours, (unsigned long long)ctx->rx_truncated);
	mp_json(f, ctx);
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		fprintf(f, "\"loadgen_cpu_s\":%.2f,\"loadgen_maxrss_kb\":%ld,",
			(double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
				(double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6,
			ru.ru_maxrss);
	fprintf(f, "\"gateway_pid\":%d,\"rss\":[", (int)run->gw_pid);
	for (i = 0; i < run->n_rss; i++)
		fprintf(f, "%s{\"phase\":\"%s\",\"t_s\":%.3f,\"sessions\":%u,\"rss_kb\":%ld}", i ? "," : "",
			run->rss[i].phase, run->rss[i].t_s, run->rss[i].sessions, run->rss[i].rss_kb);
	fprintf(f, "]}\n");
	fflush(f);
}
