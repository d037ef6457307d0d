// SPDX-License-Identifier: GPL-2.0-only
/*
 * loadgen.c - braid-loadgen: many real OpenVPN 2.6 client sessions from one
 * process (libev, non-blocking) against a gateway (braidd or stock openvpn),
 * for the scale tests and benchmarks of issue 16 (docs/scaling.md).
 *
 *   braid-loadgen --remote IP:PORT --ca F --cert F --key F [options]
 *
 *   --sessions N          sessions to open (default 100)
 *   --rate R              new sessions per second (default 100)
 *   --wrap none|auth|crypt, --wrap-key F   tls-auth (key-direction 1) / tls-crypt
 *   --ciphers LIST        IV_CIPHERS (default AES-256-GCM:AES-128-GCM:CHACHA20-POLY1305)
 *   --kdf ekm|prf         announce tls-ekm (default) or not
 *   --pings N             ICMP echoes per session through the tunnel to the gateway's tunnel
 *                         address (route-gateway), default 3, max 4096
 *   --ping-interval MS    between one session's echoes (default 1000)
 *   --ping-size B         IPv4 packet size of an echo (default 84)
 *   --ping-after-all      no session sends its echoes before every handshake has ended
 *                         (echo loss measured apart from the handshake load)
 *   --ping-wait MS        wait for replies after a session's last echo (default 3000)
 *   --min-bytes B         count the sessions whose echoes and whose replies each carried at least B bytes
 *                         of IP packets (`sessions_min_bytes`; default 0); `session_reply_bytes_min` is the
 *                         fewest reply bytes of one session, `mp_sessions_echoes_both_paths` the multipath
 *                         sessions whose echoes went and whose replies came on both paths
 *   --keepalive S         OpenVPN keepalive ping interval (default: the pushed `ping`, else 10)
 *   --hs-timeout S        one handshake's limit (default 30)
 *   --retries K           a handshake that failed (timeout, fatal error) starts again from a
 *                         new port, at most K times per session (default 0; counted as `retried`)
 *   --hold S              after every session finished its echoes, idle S seconds with
 *                         keepalives, then read the gateway's RSS again (default 0)
 *   --bind IP             source address (repeatable, round robin; default: any)
 *   --multipath           every session announces multipath (= --mp-share 1)
 *   --mp-share F          this fraction (0..1, 3 decimals) of the sessions, spread evenly, announces
 *                         IV_BRAID_MP=1, takes up the gateway's `braid-mp` offer, opens a second path
 *                         from an --mp-bind address, answers the gateway's PATH_CHALLENGE / PROBE /
 *                         MTU_PROBE on the path they came by and sends its data round robin on both
 *                         paths once the gateway probes the second one (validated) (docs/multipath-negotiation.md; lg_mp.h)
 *   --mp-bind IP          source address of the second path (repeatable, round robin; required with
 *                         multipath; the first path is the session's socket, --bind)
 *   --gateway-pid PID     read the gateway's VmRSS at start, after the echoes, after the hold
 *   --ready-file F        written (the JSON so far) when the hold starts
 *   --label L             copied into the report ([A-Za-z0-9_.-])
 *   --timeout S           the whole run's limit (default 600)
 *   --no-exit-notify      leave without telling the gateway (default: OCC EXIT per session)
 *
 * handshakes_per_s = sessions established / time from the start to the last one established
 * (handshakes that time out do not stretch it; finished_per_s counts them and their wait).
 *
 * Prints one JSON object (lg_report.h) on stdout; exit 0 when the run completed
 * (whatever the counts: the caller asserts them), 1 on a setup error.
 * A multipath session's control channel stays on its first socket, as braidd's client's does.
 */
#include <errno.h>
#include <ev.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include <arpa/inet.h>
#include <openssl/crypto.h>

#include "km2.h"
#include "lg_mp.h"
#include "lg_report.h"
#include "lg_session.h"
#include "static_key.h"
#include "tls.h"

struct lg_main {
	struct lg_ctx ctx;
	struct lg_run run;
	struct lg_session *ss;
	unsigned launched;
	unsigned hold_s, timeout_s;
	double t0;
	bool holding, finished, exit_notify;
	const char *ready_file;
	ev_timer launch, hold, deadline;
};

static struct lg_main M;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "braid-loadgen: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void rss_point(const char *phase)
{
	struct lg_rss_point *p;

	if (!M.run.gw_pid || M.run.n_rss >= sizeof(M.run.rss) / sizeof(M.run.rss[0]))
		return;
	p = &M.run.rss[M.run.n_rss++];
	p->phase = phase;
	p->t_s = now_s() - M.t0;
	p->sessions = M.ctx.established - M.ctx.dropped;
	p->rss_kb = lg_rss_kb(M.run.gw_pid);
}

static void finish(void)
{
	unsigned i;

	if (M.finished)
		return;
	M.finished = true;
	rss_point("idle");
	for (i = 0; i < M.launched; i++)
		lg_session_close(&M.ss[i], M.exit_notify);
	lg_report_json(stdout, &M.ctx, &M.run);
	ev_break(M.ctx.loop, EVBREAK_ALL);
}

static void on_hold(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop;
	(void)w;
	(void)revents;
	finish();
}

static void on_deadline(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop;
	(void)w;
	(void)revents;
	fprintf(stderr, "braid-loadgen: run limit of %u s reached\n", M.timeout_s);
	finish();
}

static void start_hold(void)
{
	M.holding = true;
	rss_point("established");
	if (M.ready_file) {
		FILE *f = fopen(M.ready_file, "w");
		if (f) {
			lg_report_json(f, &M.ctx, &M.run);
			fclose(f);
		}
	}
	fprintf(stderr, "braid-loadgen: %u established, %u failed; holding %u s\n", M.ctx.established,
		M.ctx.failed, M.hold_s);
	ev_timer_init(&M.hold, on_hold, (double)M.hold_s, 0.0);
	ev_timer_start(M.ctx.loop, &M.hold);
}

/* A session changed state: are the handshakes over, are the probes over? */
static void on_change(struct lg_ctx *ctx)
{
	if (M.launched < M.run.sessions || M.holding)
		return;
	if (ctx->established + ctx->failed == M.run.sessions && M.run.t_handshakes_s == 0) {
		M.run.t_handshakes_s = now_s() - M.t0;
		if (ctx->probes_held) {
			ctx->probes_held = false;
			for (unsigned i = 0; i < M.launched; i++)
				lg_session_kick(&M.ss[i]);
		}
	}
	if (ctx->probes_done + ctx->failed == M.run.sessions)
		start_hold();
}

static void on_launch(struct ev_loop *loop, ev_timer *w, int revents)
{
	double el = now_s() - M.t0;
	unsigned want = (unsigned)(el * M.run.rate) + 1;

	(void)revents;
	if (want > M.run.sessions)
		want = M.run.sessions;
	while (M.launched < want) {
		unsigned i = M.launched++;
		lg_session_start(&M.ss[i], &M.ctx, i);
	}
	if (M.launched == M.run.sessions) {
		ev_timer_stop(loop, w);
		M.run.t_launch_s = now_s() - M.t0;
		on_change(&M.ctx);
	}
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *b;
	long n;

	if (!f)
		die("%s: %s", path, strerror(errno));
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || n > 65536)
		die("%s: unreadable or too big", path);
	rewind(f);
	b = calloc(1, (size_t)n + 1);
	if (!b || fread(b, 1, (size_t)n, f) != (size_t)n)
		die("%s: read failed", path);
	fclose(f);
	return b;
}

static void parse_addr(const char *s, struct sockaddr_in *a, bool port)
{
	char host[64];
	const char *c = port ? strrchr(s, ':') : s + strlen(s);

	if (!c || (size_t)(c - s) >= sizeof(host))
		die("bad address '%s'%s", s, port ? " (want IP:PORT)" : "");
	memcpy(host, s, (size_t)(c - s));
	host[c - s] = 0;
	memset(a, 0, sizeof(*a));
	a->sin_family = AF_INET;
	if (port)
		a->sin_port = htons((uint16_t)atoi(c + 1));
	if (inet_pton(AF_INET, host, &a->sin_addr) != 1)
		die("bad IPv4 address '%s'", host);
}

static unsigned num(const char *opt, const char *v, unsigned lo, unsigned hi)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || *end || !*v || n < lo || n > hi)
		die("%s: want a number in %u..%u, got '%s'", opt, lo, hi, v);
	return (unsigned)n;
}

/* "0".."1" with at most 3 decimals -> sessions in 1000 */
static unsigned share_pm(const char *v)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	if (errno || *end || !*v || !(d >= 0.0 && d <= 1.0))
		die("--mp-share: want a fraction 0..1, got '%s'", v);
	return (unsigned)(d * 1000.0 + 0.5);
}

static void raise_nofile(unsigned need)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < need + 64) {
		rl.rlim_cur = rl.rlim_max;
		if (rl.rlim_cur < need + 64)
			rl.rlim_cur = rl.rlim_max = need + 64;
		if (setrlimit(RLIMIT_NOFILE, &rl))
			die("cannot raise the open-files limit to %u: %s", need + 64, strerror(errno));
	}
}

int main(int argc, char **argv)
{
	struct braid_tls_config tc = { 0 };
	struct braid_key2 wkey;
	const char *wrap = "none", *wrap_key = NULL, *remote = NULL;
	const char *ciphers = "AES-256-GCM:AES-128-GCM:CHACHA20-POLY1305";
	char err[256], peer_info[512], peer_info_mp[544], opts[256];
	static char label[64] = "run";
	SSL_CTX *ssl = NULL;
	bool ekm = true;
	unsigned proto;
	struct lg_ctx *ctx = &M.ctx;

	signal(SIGPIPE, SIG_IGN);
	M.run.sessions = 100;
	M.run.rate = 100;
	M.timeout_s = 600;
	M.exit_notify = true;
	ctx->pings = 3;
	ctx->ping_interval_ms = 1000;
	ctx->ping_size = 84;
	ctx->ping_wait_ms = 3000;
	ctx->session_bytes_min = UINT64_MAX;
	ctx->hs_timeout_ms = 30000;
	ctx->log_budget = 20;
	ctx->cipher_default = "AES-256-GCM";
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--ping-after-all")) {
			ctx->probes_held = true;
			continue;
		}
		if (!strcmp(a, "--multipath")) {
			ctx->mp_share_pm = 1000;
			continue;
		}
		if (!strcmp(a, "--no-exit-notify")) {
			M.exit_notify = false;
			continue;
		}
		if (!v)
			die("option %s needs a value", a);
		i++;
		if (!strcmp(a, "--remote"))
			remote = v;
		else if (!strcmp(a, "--ca"))
			tc.ca_file = v;
		else if (!strcmp(a, "--cert"))
			tc.cert_file = v;
		else if (!strcmp(a, "--key"))
			tc.key_file = v;
		else if (!strcmp(a, "--wrap"))
			wrap = v;
		else if (!strcmp(a, "--wrap-key"))
			wrap_key = v;
		else if (!strcmp(a, "--ciphers"))
			ciphers = v;
		else if (!strcmp(a, "--kdf"))
			ekm = strcmp(v, "prf") != 0;
		else if (!strcmp(a, "--sessions"))
			M.run.sessions = num(a, v, 1, 1000000);
		else if (!strcmp(a, "--rate"))
			M.run.rate = num(a, v, 1, 1000000);
		else if (!strcmp(a, "--pings"))
			ctx->pings = num(a, v, 0, LG_PINGS_MAX);
		else if (!strcmp(a, "--ping-interval"))
			ctx->ping_interval_ms = num(a, v, 1, 3600000);
		else if (!strcmp(a, "--ping-size"))
			ctx->ping_size = num(a, v, 36, 1400);
		else if (!strcmp(a, "--min-bytes"))
			ctx->min_bytes = num(a, v, 0, 1u << 30);
		else if (!strcmp(a, "--ping-wait"))
			ctx->ping_wait_ms = num(a, v, 0, 3600000);
		else if (!strcmp(a, "--keepalive"))
			ctx->keepalive_s = num(a, v, 1, 86400);
		else if (!strcmp(a, "--hs-timeout"))
			ctx->hs_timeout_ms = num(a, v, 1, 3600) * 1000;
		else if (!strcmp(a, "--retries"))
			ctx->retries = num(a, v, 0, 100);
		else if (!strcmp(a, "--hold"))
			M.hold_s = num(a, v, 0, 86400);
		else if (!strcmp(a, "--timeout"))
			M.timeout_s = num(a, v, 1, 86400);
		else if (!strcmp(a, "--gateway-pid"))
			M.run.gw_pid = (pid_t)num(a, v, 1, 0x7fffffff);
		else if (!strcmp(a, "--ready-file"))
			M.ready_file = v;
		else if (!strcmp(a, "--bind")) {
			if (ctx->n_binds == sizeof(ctx->binds) / sizeof(ctx->binds[0]))
				die("at most 16 --bind addresses");
			parse_addr(v, &ctx->binds[ctx->n_binds++], false);
		} else if (!strcmp(a, "--mp-bind")) {
			if (ctx->n_mp_binds == sizeof(ctx->mp_binds) / sizeof(ctx->mp_binds[0]))
				die("at most 16 --mp-bind addresses");
			parse_addr(v, &ctx->mp_binds[ctx->n_mp_binds++], false);
		} else if (!strcmp(a, "--mp-share")) {
			ctx->mp_share_pm = share_pm(v);
		} else if (!strcmp(a, "--label")) {
			if (strlen(v) >= sizeof(label) || strspn(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-") != strlen(v))
				die("--label: letters, digits, '_', '.', '-' only (< 64)");
			snprintf(label, sizeof(label), "%s", v);
		} else
			die("unknown option %s (see the comment at the top of loadgen.c)", a);
	}
	if (!remote || !tc.ca_file || !tc.cert_file || !tc.key_file)
		die("usage: braid-loadgen --remote IP:PORT --ca F --cert F --key F [options]");
	parse_addr(remote, &ctx->remote, true);
	if (ctx->mp_share_pm && !ctx->n_mp_binds)
		die("--multipath / --mp-share need --mp-bind IP (the second path's source address)");
	M.run.label = label;
	/* one socket per session, a second one per multipath session (lg_mp_wanted picks N * share of them) */
	raise_nofile(M.run.sessions + (unsigned)((uint64_t)M.run.sessions * ctx->mp_share_pm / 1000));

	tc.server = false;
	tc.remote_cert_tls = BRAID_REMOTE_CERT_SERVER;
	if (braid_tls_ctx_new(&ssl, &tc, err, sizeof(err)))
		die("%s", err);
	ctx->cc.server = false;
	ctx->cc.ssl_ctx = ssl;
	ctx->cc.hand_window_s = ctx->hs_timeout_ms / 1000;
	if (!strcmp(wrap, "auth") || !strcmp(wrap, "crypt")) {
		char *txt;
		if (!wrap_key)
			die("--wrap %s needs --wrap-key", wrap);
		txt = slurp(wrap_key);
		if (braid_static_key_parse(txt, strlen(txt), &wkey, err, sizeof(err)))
			die("%s: %s", wrap_key, err);
		OPENSSL_cleanse(txt, strlen(txt));
		free(txt);
		ctx->cc.wrap = !strcmp(wrap, "auth") ? BRAID_CTLS_WRAP_AUTH : BRAID_CTLS_WRAP_CRYPT;
		ctx->cc.wrap_key = &wkey;
		ctx->cc.key_direction = BRAID_KEY_DIR_INVERSE;
	} else if (strcmp(wrap, "none")) {
		die("--wrap: none, auth or crypt");
	}
	snprintf(opts, sizeof(opts),
		 "V4,dev-type tun,link-mtu 1541,tun-mtu 1500,proto UDPv4,%sauth SHA1,keysize 128,%skey-method 2,"
		 "tls-client", ctx->cc.wrap == BRAID_CTLS_WRAP_AUTH ? "keydir 1," : "",
		 ctx->cc.wrap == BRAID_CTLS_WRAP_AUTH ? "tls-auth," : "");
	ctx->cc.options_string = opts;
	/* stock 2.6.14's IV_PROTO minus dyn-tls-crypt (not spoken); without tls-ekm the server uses the PRF */
	proto = 990 & ~BRAID_IV_PROTO_DYN_TLS_CRYPT;
	if (!ekm)
		proto &= ~BRAID_IV_PROTO_TLS_KEY_EXPORT;
	if (strlen(ciphers) > 200 || strpbrk(ciphers, "\n\r,"))
		die("--ciphers: a ':'-separated list under 200 characters");
	snprintf(peer_info, sizeof(peer_info),
		 "IV_VER=2.6.14\nIV_PLAT=linux\nIV_TCPNL=1\nIV_MTU=1600\nIV_CIPHERS=%s\nIV_PROTO=%u\n", ciphers,
		 proto);
	ctx->cc.peer_info = peer_info;
	if (ctx->mp_share_pm) {
		/* as braidd's TLS client announces it (daemon/client/client_peerinfo.c) */
		snprintf(peer_info_mp, sizeof(peer_info_mp), "%sIV_BRAID_MP=%u\n", peer_info, LG_MP_VERSION);
		ctx->peer_info_mp = peer_info_mp;
	}
	ctx->on_change = on_change;

	M.ss = calloc(M.run.sessions, sizeof(*M.ss));
	if (!M.ss)
		die("out of memory for %u sessions", M.run.sessions);
	ctx->loop = ev_default_loop(EVFLAG_AUTO);
	M.t0 = now_s();
	ctx->t0_ms = lg_now_ms();
	rss_point("start");
	ev_timer_init(&M.launch, on_launch, 0.0, 0.01);
	ev_timer_start(ctx->loop, &M.launch);
	ev_timer_init(&M.deadline, on_deadline, (double)M.timeout_s, 0.0);
	ev_timer_start(ctx->loop, &M.deadline);
	ev_run(ctx->loop, 0);
	if (!M.finished)
		finish();
	free(M.ss);
	OPENSSL_cleanse(&wkey, sizeof(wkey));
	braid_tls_ctx_free(ssl);
	return 0;
}
