// SPDX-License-Identifier: GPL-2.0-only
/*
 * show.c - `braidctl status [--json]`: the tunnel and an aligned table of
 * its paths (state, RTT, loss, rate, share, bytes), like `wg show`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "braidctl.h"
#include "ipc.h"
#include "json.h"

static void bytes(char *b, size_t n, double v)
{
	static const char *u[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int i = 0;

	while (v >= 1024 && i < 4) {
		v /= 1024;
		i++;
	}
	if (i == 0)
		snprintf(b, n, "%.0f B", v);
	else
		snprintf(b, n, "%.2f %s", v, u[i]);
}

/* "[AF_INET]10.0.1.1:1194" -> "10.0.1.1:1194"; IPv6 gets brackets. */
static void addr(char *b, size_t n, const char *s)
{
	const char *v6 = "[AF_INET6]", *v4 = "[AF_INET]";
	const char *colon;

	if (!strncmp(s, v4, strlen(v4))) {
		snprintf(b, n, "%s", s + strlen(v4));
	} else if (!strncmp(s, v6, strlen(v6)) && (colon = strrchr(s, ':'))) {
		s += strlen(v6);
		snprintf(b, n, "[%.*s]%s", (int)(colon - s), s, colon);
	} else {
		snprintf(b, n, "%s", s);
	}
}

static int table(const struct json *st)
{
	const struct json *paths = json_get(st, "paths"), *tun = json_get(st, "tunnel");
	int color = isatty(STDOUT_FILENO);
	char tx[32], rx[32];

	if (!tun || !paths || paths->t != JSON_ARR) {
		fprintf(stderr, "%s: status: the reply has no tunnel/paths\n", braidctl_prog);
		return BRAIDCTL_EXIT_DAEMON;
	}
	printf("%s: %s\n", color ? "\033[1mtunnel\033[0m" : "tunnel",
	       json_num(st, "multipath", 0) ? "multipath" : "single path");
	if (json_get(st, "scheduler"))
		printf("  scheduler: %s\n", json_str(st, "scheduler", "?"));
	bytes(tx, sizeof(tx), json_num(tun, "tun_read_bytes", 0));
	bytes(rx, sizeof(rx), json_num(tun, "tun_write_bytes", 0));
	printf("  transfer: %s received, %s sent (inner)\n", rx, tx);
	if (!paths->n) {
		printf("  paths: none\n");
		return 0;
	}
	printf("\n%-4s %-22s %-22s %-9s %9s %9s %6s %12s %6s %11s %11s %5s %5s\n", "PATH", "LOCAL",
	       "REMOTE", "STATE", "RTT", "MIN-RTT", "LOSS", "RATE", "SHARE", "TX", "RX", "QUEUE",
	       "MTU");
	for (size_t i = 0; i < paths->n; i++) {
		const struct json *p = &paths->items[i];
		char l[64], r[64], rtt[16], mrtt[16], loss[16], rate[24], share[16], state[24];
		const char *s = json_str(p, "state", "?");

		addr(l, sizeof(l), json_str(p, "local", "?"));
		addr(r, sizeof(r), json_str(p, "remote", "?"));
		snprintf(rtt, sizeof(rtt), "%.1fms", json_num(p, "srtt_ms", 0));
		snprintf(mrtt, sizeof(mrtt), "%.1fms", json_num(p, "min_rtt_ms", 0));
		snprintf(loss, sizeof(loss), "%.1f%%", json_num(p, "loss_pct", 0));
		snprintf(rate, sizeof(rate), "%.2fMbit/s", json_num(p, "rate_mbit", 0));
		snprintf(share, sizeof(share), "%.1f%%", json_num(p, "share_pct", 0));
		bytes(tx, sizeof(tx), json_num(p, "tx_bytes", 0));
		bytes(rx, sizeof(rx), json_num(p, "rx_bytes", 0));
		snprintf(state, sizeof(state), "%s%s", s,
			 json_num(p, "cap_mbit", 0) > 0 ? "*" : "");
		printf("%-4.0f %-22s %-22s %s%-9s%s %9s %9s %6s %12s %6s %11s %11s %5.0f %5.0f\n",
		       json_num(p, "index", (double)i), l, r,
		       color ? (!strcmp(s, "active") ? "\033[32m" : !strcmp(s, "standby")
			       ? "\033[33m" : "\033[31m") : "",
		       state, color ? "\033[0m" : "", rtt, mrtt, loss, rate, share, tx, rx,
		       json_num(p, "queue_pkts", 0), json_num(p, "mtu", 0));
	}
	for (size_t i = 0; i < paths->n; i++)
		if (json_num(&paths->items[i], "cap_mbit", 0) > 0)
			printf("%s path %.0f capped at %.2f Mbit/s\n", i ? "" : "\n*",
			       json_num(&paths->items[i], "index", (double)i),
			       json_num(&paths->items[i], "cap_mbit", 0));
	return 0;
}

int status_main(const char *sock, int argc, char **argv)
{
	int as_json = 0, ok = 0, r;
	char *payload = NULL;
	struct json st;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			as_json = 1;
		} else {
			fprintf(stderr, "%s: status: unknown argument '%s'\n"
				"Usage: %s status [--json]\n", braidctl_prog, argv[i], braidctl_prog);
			return BRAIDCTL_EXIT_USAGE;
		}
	}
	if (ipc_request(sock, "status", &ok, &payload))
		return BRAIDCTL_EXIT_DAEMON;
	if (!ok) {
		fprintf(stderr, "%s: braidd: %s\n", braidctl_prog, payload);
		free(payload);
		return BRAIDCTL_EXIT_DAEMON;
	}
	if (as_json) {
		fputs(payload, stdout);
		free(payload);
		return 0;
	}
	if (json_parse(payload, &st)) {
		fprintf(stderr, "%s: status: the daemon's JSON does not parse\n", braidctl_prog);
		free(payload);
		return BRAIDCTL_EXIT_DAEMON;
	}
	r = table(&st);
	json_free(&st);
	free(payload);
	return r;
}
