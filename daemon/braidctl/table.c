// SPDX-License-Identifier: GPL-2.0-only
/*
 * table.c - braidctl's tables (see table.h). A path object is the
 * management extension's (docs/management.md "The multipath extension");
 * a number it does not carry, or null, is shown as "-".
 */
#include "table.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void table_bytes(char *b, size_t n, double v)
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

void table_time(char *b, size_t n, long long t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (t > 0 && localtime_r(&tt, &tm))
		strftime(b, n, "%Y-%m-%d %H:%M:%S", &tm);
	else
		snprintf(b, n, "-");
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

static const char *state_color(const char *s)
{
	if (!strcmp(s, "up"))
		return "\033[32m";
	if (!strcmp(s, "probing") || !strcmp(s, "degraded") || !strcmp(s, "disabled"))
		return "\033[33m";
	return "\033[31m";
}

void table_paths(const struct info_paths *ps, const char *indent)
{
	int color = isatty(STDOUT_FILENO);

	if (!ps->n) {
		printf("%s  paths: none\n", indent);
		return;
	}
	printf("\n%s%-4s %-10s %-24s %-24s %-16s %8s %6s %9s %9s %6s %11s %11s\n", indent, "PATH",
	       "IF", "LOCAL", "REMOTE", "STATE", "RTT", "LOSS", "TX/s", "RX/s", "SHARE", "SENT",
	       "RECEIVED");
	for (size_t i = 0; i < ps->n; i++) {
		const struct json *p = &ps->p[i];
		const char *s = json_str(p, "state", "?");
		char rtt[16], loss[16], txr[24], rxr[24], share[16], tx[32], rx[32], st[40];
		double txb = json_num(p, "tx_bps", -1), rxb = json_num(p, "rx_bps", -1);

		num_or_dash(rtt, sizeof(rtt), "%.1fms", json_num(p, "rtt_ms", -1));
		num_or_dash(loss, sizeof(loss), "%.1f%%", json_num(p, "loss_pct", -1));
		num_or_dash(txr, sizeof(txr), "%.2fM", txb < 0 ? -1 : txb / 1e6);
		num_or_dash(rxr, sizeof(rxr), "%.2fM", rxb < 0 ? -1 : rxb / 1e6);
		num_or_dash(share, sizeof(share), "%.0f%%", json_num(p, "share_pct", -1));
		table_bytes(tx, sizeof(tx), json_num(p, "tx_bytes", 0));
		table_bytes(rx, sizeof(rx), json_num(p, "rx_bytes", 0));
		snprintf(st, sizeof(st), "%s%s%s", s, json_num(p, "backup", 0) ? ",backup" : "",
			 json_num(p, "cap_bps", 0) > 0 ? "*" : "");
		printf("%s%-4.0f %-10s %-24s %-24s %s%-16s%s %8s %6s %9s %9s %6s %11s %11s\n", indent,
		       json_num(p, "id", (double)i), *json_str(p, "ifname", "") ?
		       json_str(p, "ifname", "") : "-", *json_str(p, "local", "") ?
		       json_str(p, "local", "") : "-", *json_str(p, "remote", "") ?
		       json_str(p, "remote", "") : "-", color ? state_color(s) : "", st,
		       color ? "\033[0m" : "", rtt, loss, txr, rxr, share, tx, rx);
	}
	printf("%s(TX/s, RX/s in Mbit/s and SHARE of the data sent: the last interval; "
	       "SENT/RECEIVED: totals; * capped)\n", indent);
	for (size_t i = 0; i < ps->n; i++)
		if (json_num(&ps->p[i], "cap_bps", 0) > 0)
			printf("%s* path %.0f capped at %.2f Mbit/s\n", indent,
			       json_num(&ps->p[i], "id", (double)i),
			       json_num(&ps->p[i], "cap_bps", 0) / 1e6);
	/* the route check (docs/braidd.md "Paths by interface"): only when the daemon says */
	for (size_t i = 0; i < ps->n; i++)
		if (json_num(&ps->p[i], "route_ok", 1) == 0)
			printf("%s! path %.0f (%s): %s: its packets do not leave through %s\n", indent,
			       json_num(&ps->p[i], "id", (double)i),
			       json_str(&ps->p[i], "ifname", "?"), json_str(&ps->p[i], "route", "?"),
			       json_str(&ps->p[i], "ifname", "?"));
}

void table_paths_json(FILE *f, const struct info_paths *ps)
{
	fputc('[', f);
	for (size_t i = 0; i < ps->n; i++)
		fprintf(f, "%s%s", i ? "," : "", ps->raw[i]);
	fputc(']', f);
}

void table_clients(const struct info_client *cl, size_t n)
{
	char rx[32], tx[32], since[32], paths[32];

	if (!n) {
		printf("  clients: none\n");
		return;
	}
	printf("\n%-5s %-20s %-24s %-16s %-8s %5s %11s %11s %s\n", "ID", "CN", "REAL", "VIRTUAL",
	       "KIND", "PATHS", "RX", "TX", "SINCE");
	for (size_t i = 0; i < n; i++) {
		const struct info_client *c = &cl[i];

		table_bytes(rx, sizeof(rx), (double)c->rx);
		table_bytes(tx, sizeof(tx), (double)c->tx);
		table_time(since, sizeof(since), c->since);
		if (c->paths < 0)
			snprintf(paths, sizeof(paths), "-");
		else if (c->paths_up >= 0 && c->paths_up != c->paths)
			snprintf(paths, sizeof(paths), "%d/%d", c->paths_up, c->paths);
		else
			snprintf(paths, sizeof(paths), "%d", c->paths);
		printf("%-5lu %-20s %-24s %-16s %-8s %5s %11s %11s %s\n", c->cid, c->cn, c->real,
		       c->virt[0] ? c->virt : c->virt6[0] ? c->virt6 : "-",
		       c->braid < 0 ? "-" : c->braid ? "braid-mp" : "stock", paths, rx, tx, since);
	}
}

void table_clients_json(FILE *f, const struct info_client *cl, size_t n)
{
	fputc('[', f);
	for (size_t i = 0; i < n; i++) {
		const struct info_client *c = &cl[i];

		fprintf(f, "%s{\"cid\":%lu,\"cn\":", i ? "," : "", c->cid);
		json_put_str(f, c->cn);
		json_put_member(f, "real", c->real);
		json_put_member(f, "virtual", c->virt);
		json_put_member(f, "virtual6", c->virt6);
		json_put_member(f, "username", c->user);
		fprintf(f, ",\"rx_bytes\":%llu,\"tx_bytes\":%llu,\"since\":%lld",
			(unsigned long long)c->rx, (unsigned long long)c->tx, c->since);
		if (c->braid >= 0)
			fprintf(f, ",\"braid\":%s", c->braid ? "true" : "false");
		if (c->paths >= 0)
			fprintf(f, ",\"paths\":%d", c->paths);
		if (c->paths_up >= 0)
			fprintf(f, ",\"paths_up\":%d", c->paths_up);
		fputc('}', f);
	}
	fputc(']', f);
}
