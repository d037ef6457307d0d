// SPDX-License-Identifier: GPL-2.0-only
/*
 * show.c - `braidctl status [--json]`: the tunnel (a TLS client: its
 * session) and an aligned table of its paths (state; over the last interval
 * throughput, share, loss and RTT; estimated capacity; totals), like `wg
 * show`; a gateway: its counters and its clients.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "braidctl.h"
#include "ipc.h"
#include "json.h"

void braidctl_bytes(char *b, size_t n, double v)
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
void braidctl_addr(char *b, size_t n, const char *s)
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

/* v (>= 0) formatted by fmt into b, else "-" (not known now). */
static const char *num_or_dash(char *b, size_t n, const char *fmt, double v)
{
	if (v < 0)
		snprintf(b, n, "-");
	else
		snprintf(b, n, fmt, v);
	return b;
}

/*
 * The path table: what each path does now (the last interval: throughput
 * both ways, its share of the data sent, loss, RTT; the estimated capacity,
 * the last datagram received) and its totals. A number not known now (a
 * failed path's RTT, the loss of an interval that sent nothing) is "-".
 */
void braidctl_paths_table(const struct json *paths, const char *indent)
{
	int color = isatty(STDOUT_FILENO);
	double iv = 0;
	char tx[32], rx[32];

	if (!paths->n) {
		printf("%s  paths: none\n", indent);
		return;
	}
	printf("\n%s%-4s %-22s %-22s %-9s %8s %6s %9s %9s %6s %10s %8s %11s %11s\n", indent,
	       "PATH", "LOCAL", "REMOTE", "STATE", "RTT", "LOSS", "TX/s", "RX/s", "SHARE",
	       "TX-CAP~", "LAST-RX", "SENT", "RECEIVED");
	for (size_t i = 0; i < paths->n; i++) {
		const struct json *p = &paths->items[i];
		char l[64], r[64], rtt[16], loss[16], txr[24], rxr[24], share[16], cap[24];
		char last[24], state[24];
		const char *s = json_str(p, "state", "?");

		if (json_num(p, "interval_s", 0) > iv)
			iv = json_num(p, "interval_s", 0);
		braidctl_addr(l, sizeof(l), json_str(p, "local", "?"));
		braidctl_addr(r, sizeof(r), json_str(p, "remote", "?"));
		num_or_dash(rtt, sizeof(rtt), "%.1fms", json_num(p, "rtt_ms", -1));
		num_or_dash(loss, sizeof(loss), "%.1f%%", json_num(p, "loss_iv_pct", -1));
		num_or_dash(txr, sizeof(txr), "%.2fM", json_num(p, "tx_mbit", -1));
		num_or_dash(rxr, sizeof(rxr), "%.2fM", json_num(p, "rx_mbit", -1));
		num_or_dash(share, sizeof(share), "%.0f%%", json_num(p, "share_iv_pct", -1));
		num_or_dash(cap, sizeof(cap), "~%.1fM", json_num(p, "capacity_est_mbit", -1));
		num_or_dash(last, sizeof(last), "%.1fs", json_num(p, "last_rx_s", -1));
		braidctl_bytes(tx, sizeof(tx), json_num(p, "wire_tx_bytes", json_num(p, "tx_bytes", 0)));
		braidctl_bytes(rx, sizeof(rx), json_num(p, "wire_rx_bytes", json_num(p, "rx_bytes", 0)));
		snprintf(state, sizeof(state), "%s%s", s,
			 json_num(p, "cap_mbit", 0) > 0 ? "*" : "");
		printf("%s%-4.0f %-22s %-22s %s%-9s%s %8s %6s %9s %9s %6s %10s %8s %11s %11s\n",
		       indent, json_num(p, "index", (double)i), l[0] ? l : "-", r[0] ? r : "-",
		       color ? (!strcmp(s, "active") ? "\033[32m" : !strcmp(s, "standby")
			       ? "\033[33m" : "\033[31m") : "",
		       state, color ? "\033[0m" : "", rtt, loss, txr, rxr, share, cap, last, tx, rx);
	}
	if (iv > 0)
		printf("%s(TX/s, RX/s in Mbit/s, SHARE of the data both ways, LOSS and RTT: the last %.1f s; "
		       "TX-CAP~: estimated capacity towards the peer; LAST-RX: since the last packet received; "
		       "SENT/RECEIVED: totals)\n", indent, iv);
	for (size_t i = 0; i < paths->n; i++)
		if (json_num(&paths->items[i], "cap_mbit", 0) > 0)
			printf("%s%s path %.0f capped at %.2f Mbit/s\n", indent, i ? "" : "\n*",
			       json_num(&paths->items[i], "index", (double)i),
			       json_num(&paths->items[i], "cap_mbit", 0));
	/* the route check (docs/braidd.md "Paths by interface"; absent from older daemons: ok) */
	for (size_t i = 0; i < paths->n; i++)
		if (json_num(&paths->items[i], "route_ok", 1) == 0)
			printf("%s! path %.0f (%s): %s: its packets do not leave through %s\n", indent,
			       json_num(&paths->items[i], "index", (double)i),
			       json_str(&paths->items[i], "dev", "?"), json_str(&paths->items[i], "route", "?"),
			       json_str(&paths->items[i], "dev", "?"));
}

static int table(const struct json *st)
{
	const struct json *paths = json_get(st, "paths"), *tun = json_get(st, "tunnel");
	int color = isatty(STDOUT_FILENO);
	char tx[32], rx[32];

	if (!strcmp(json_str(st, "role", ""), "gateway"))
		return braidctl_gateway_table(st);
	if (!tun || !paths || paths->t != JSON_ARR) {
		fprintf(stderr, "%s: status: the reply has no tunnel/paths\n", braidctl_prog);
		return BRAIDCTL_EXIT_DAEMON;
	}
	if (!strcmp(json_str(st, "role", ""), "client")) {
		char r[64];

		braidctl_addr(r, sizeof(r), json_str(st, "remote", ""));
		printf("%s: %s\n", color ? "\033[1mclient\033[0m" : "client",
		       json_str(st, "state", "?"));
		printf("  remote: %s (%s)\n", r[0] ? r : "-", json_str(st, "proto", "?"));
		if (*json_str(st, "cipher", ""))
			printf("  cipher: %s\n", json_str(st, "cipher", ""));
	}
	printf("%s: %s\n", color ? "\033[1mtunnel\033[0m" : "tunnel",
	       json_num(st, "multipath", 0) ? "multipath" : "single path");
	if (json_get(st, "scheduler"))
		printf("  scheduler: %s\n", json_str(st, "scheduler", "?"));
	braidctl_bytes(tx, sizeof(tx), json_num(tun, "tun_read_bytes", 0));
	braidctl_bytes(rx, sizeof(rx), json_num(tun, "tun_write_bytes", 0));
	printf("  transfer: %s received, %s sent (inner)\n", rx, tx);
	braidctl_paths_table(paths, "");
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
