// SPDX-License-Identifier: GPL-2.0-only
/*
 * show.c - `braidctl status [--watch [SECS]]`: the session (state, tunnel
 * address, remote, bytes) and its path table; a gateway: its counters and
 * its clients. --json: one object per status (per interval with --watch).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "braidctl.h"
#include "info.h"
#include "table.h"

static volatile sig_atomic_t stop;

static void on_sig(int s)
{
	(void)s;
	stop = 1;
}

static void state_json(FILE *f, const struct info_state *s)
{
	fputs("\"state\":{\"name\":", f);
	json_put_str(f, s->name);
	json_put_member(f, "desc", s->desc);
	fprintf(f, ",\"since\":%lld", s->since);
	json_put_member(f, "tun4", s->tun4);
	json_put_member(f, "tun6", s->tun6);
	json_put_member(f, "remote", s->rip);
	json_put_member(f, "remote_port", s->rport);
	json_put_member(f, "local", s->lip);
	json_put_member(f, "local_port", s->lport);
	fputc('}', f);
}

static void state_text(const char *role, const struct info_state *s)
{
	char since[32];
	int color = isatty(STDOUT_FILENO);

	table_time(since, sizeof(since), s->since);
	printf("%s%s%s: %s%s%s%s since %s\n", color ? "\033[1m" : "", role, color ? "\033[0m" : "",
	       s->name[0] ? s->name : "-", s->desc[0] ? " (" : "", s->desc, s->desc[0] ? ")" : "",
	       since);
	if (s->tun4[0] || s->tun6[0])
		printf("  tunnel address: %s%s%s\n", s->tun4, s->tun4[0] && s->tun6[0] ? ", " : "",
		       s->tun6);
	if (s->rip[0])
		printf("  %s: %s%s%s\n", strcmp(role, "gateway") ? "remote" : "listening on", s->rip,
		       s->rport[0] ? ":" : "", s->rport);
}

static int gateway(struct braidctl *b, const struct info_state *s, const struct info_stats *st)
{
	struct info_client *cl;
	size_t n;
	char in[32], out[32];
	int e = info_clients(b, &cl, &n);

	if (e)
		return e;
	if (b->json) {
		printf("{\"role\":\"gateway\",");
		state_json(stdout, s);
		printf(",\"load\":{\"nclients\":%u,\"bytesin\":%llu,\"bytesout\":%llu},\"clients\":",
		       st->nclients, (unsigned long long)st->bytes_in,
		       (unsigned long long)st->bytes_out);
		table_clients_json(stdout, cl, n);
		printf("}\n");
	} else {
		state_text("gateway", s);
		table_bytes(in, sizeof(in), (double)st->bytes_in);
		table_bytes(out, sizeof(out), (double)st->bytes_out);
		printf("  clients: %u\n  transfer: %s received, %s sent (link)\n", st->nclients, in, out);
		table_clients(cl, n);
	}
	free(cl);
	return 0;
}

static int status_once(struct braidctl *b)
{
	struct info_state s;
	struct info_stats st;
	struct info_paths ps;
	char a[32], c[32], d[32], e2[32];
	int e = info_stats(b, &st);

	if (!e)
		e = info_state(b, &s);
	if (e)
		return e;
	if (st.gateway)
		return gateway(b, &s, &st);
	e = info_paths(b, -1, &ps);
	if (e && !ps.err[0])
		return e;
	if (b->json) {
		printf("{\"role\":\"tunnel\",");
		state_json(stdout, &s);
		printf(",\"tunnel\":{\"tun_read_bytes\":%llu,\"tun_write_bytes\":%llu,"
		       "\"link_read_bytes\":%llu,\"link_write_bytes\":%llu}",
		       (unsigned long long)st.tun_read, (unsigned long long)st.tun_write,
		       (unsigned long long)st.link_read, (unsigned long long)st.link_write);
		if (!e) {
			printf(",\"paths\":");
			table_paths_json(stdout, &ps);
		}
		printf("}\n");
	} else {
		state_text("tunnel", &s);
		table_bytes(a, sizeof(a), (double)st.tun_write);
		table_bytes(c, sizeof(c), (double)st.tun_read);
		table_bytes(d, sizeof(d), (double)st.link_read);
		table_bytes(e2, sizeof(e2), (double)st.link_write);
		printf("  transfer: %s received, %s sent (inner); %s received, %s sent (link)\n", a, c,
		       d, e2);
		if (e)
			printf("  paths: not shown (braidd: %s)\n", ps.err);
		else
			table_paths(&ps, "");
	}
	info_paths_free(&ps);
	return 0;
}

/* Wait secs while reading (and dropping) notifications: 0, 1 interrupted, or the exit code. */
static int pause_s(struct braidctl *b, double secs)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		double left;
		int r;

		clock_gettime(CLOCK_MONOTONIC, &t);
		left = secs - ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9);
		if (stop)
			return 1;
		if (left <= 0)
			return 0;
		r = mgmtc_pump(&b->c, (int)(left * 1000) + 1);
		if (r == -EINTR)
			return 1;
		if (r < 0)
			return BRAIDCTL_EXIT_DAEMON;
	}
}

int status_main(struct braidctl *b, int argc, char **argv)
{
	static const char use[] = "braidctl status [--watch [SECS]] [--json]";
	struct sigaction sa = { .sa_handler = on_sig };
	double every = 0;
	int r;

	for (int i = 1; i < argc; i++) {
		char *end;

		if (strcmp(argv[i], "--watch") && strcmp(argv[i], "-w"))
			return braidctl_usage("status", "unknown argument", use);
		every = 1;
		if (i + 1 < argc && argv[i + 1][0] != '-') {
			every = strtod(argv[i + 1], &end);
			if (*end || !(every >= 0.1 && every <= 3600))
				return braidctl_usage("status", "--watch wants seconds (0.1-3600)", use);
			i++;
		}
	}
	if (!every)
		return status_once(b);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	for (;;) {
		if (!b->json && isatty(STDOUT_FILENO))
			printf("\033[H\033[2J");
		r = status_once(b);
		fflush(stdout);
		if (r)
			return stop ? 0 : r;
		r = pause_s(b, every);
		if (r)
			return r == 1 ? 0 : r;
		if (!b->json && !isatty(STDOUT_FILENO))
			printf("\n");
	}
}
