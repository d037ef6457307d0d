// SPDX-License-Identifier: GPL-2.0-only
/*
 * clients.c - the commands that look at paths and at a gateway's clients:
 * `braidctl paths [CLIENT] [--json]`, `braidctl clients [--json]`,
 * `braidctl kill CLIENT`, and the gateway's `status` table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "braidctl.h"
#include "ipc.h"
#include "json.h"

/* Send req; the parsed JSON reply into *out, or its text to stdout (as_json). */
static int fetch_json(const char *sock, const char *cmd, const char *req, int as_json,
		      struct json *out, char **text)
{
	int ok = 0;

	*text = NULL;
	if (ipc_request(sock, req, &ok, text))
		return BRAIDCTL_EXIT_DAEMON;
	if (!ok) {
		fprintf(stderr, "%s: braidd: %s\n", braidctl_prog, *text);
		free(*text);
		return BRAIDCTL_EXIT_DAEMON;
	}
	if (as_json) {
		fputs(*text, stdout);
		free(*text);
		return -1;	/* done */
	}
	if (json_parse(*text, out)) {
		fprintf(stderr, "%s: %s: the daemon's JSON does not parse\n", braidctl_prog, cmd);
		free(*text);
		return BRAIDCTL_EXIT_DAEMON;
	}
	return 0;
}

static void clients_rows(const struct json *cl)
{
	char rx[32], tx[32], since[32];

	if (!cl->n) {
		printf("  clients: none\n");
		return;
	}
	printf("\n%-5s %-20s %-24s %-16s %-9s %-8s %5s %11s %11s %s\n", "ID", "CN", "REAL",
	       "VIRTUAL", "STATE", "KIND", "PATHS", "RX", "TX", "SINCE");
	for (size_t i = 0; i < cl->n; i++) {
		const struct json *c = &cl->items[i];
		time_t t = (time_t)json_num(c, "since", 0);
		struct tm tm;

		braidctl_bytes(rx, sizeof(rx), json_num(c, "rx_bytes", 0));
		braidctl_bytes(tx, sizeof(tx), json_num(c, "tx_bytes", 0));
		if (t && localtime_r(&t, &tm))
			strftime(since, sizeof(since), "%Y-%m-%d %H:%M:%S", &tm);
		else
			snprintf(since, sizeof(since), "-");
		printf("%-5.0f %-20s %-24s %-16s %-9s %-8s %5.0f %11s %11s %s\n",
		       json_num(c, "id", 0), json_str(c, "cn", "?"), json_str(c, "real", "?"),
		       *json_str(c, "virtual", "") ? json_str(c, "virtual", "") :
		       *json_str(c, "virtual6", "") ? json_str(c, "virtual6", "") : "-",
		       json_str(c, "state", "?"), json_str(c, "kind", "?"), json_num(c, "paths", 0),
		       rx, tx, since);
	}
}

int braidctl_gateway_table(const struct json *st)
{
	const struct json *gw = json_get(st, "gateway"), *cl = json_get(st, "clients");

	if (!gw || !cl || cl->t != JSON_ARR) {
		fprintf(stderr, "%s: status: the reply has no gateway/clients\n", braidctl_prog);
		return BRAIDCTL_EXIT_DAEMON;
	}
	printf("gateway: %.0f client(s) (max %.0f), %s\n", json_num(gw, "clients", 0),
	       json_num(gw, "max_clients", 0), json_str(st, "proto", "?"));
	printf("  sessions created: %.0f, removed: %.0f, auth failed: %.0f, floats: %.0f\n",
	       json_num(gw, "sessions_created", 0), json_num(gw, "clients_removed", 0),
	       json_num(gw, "auth_failed", 0), json_num(gw, "floats", 0));
	clients_rows(cl);
	return 0;
}

static int want_json(const char *cmd, int argc, char **argv, int max_pos, const char **pos)
{
	int as_json = 0, npos = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			as_json = 1;
		} else if (argv[i][0] != '-' && npos < max_pos && !strpbrk(argv[i], " \t\r\n")) {
			pos[npos++] = argv[i];
		} else {
			fprintf(stderr, "%s: %s: unexpected argument '%s'\n", braidctl_prog, cmd,
				argv[i]);
			return -1;
		}
	}
	return as_json;
}

int clients_main(const char *sock, int argc, char **argv)
{
	int as_json = want_json("clients", argc, argv, 0, NULL), r;
	struct json j;
	char *text;

	if (as_json < 0) {
		fprintf(stderr, "Usage: %s clients [--json]\n", braidctl_prog);
		return BRAIDCTL_EXIT_USAGE;
	}
	r = fetch_json(sock, "clients", "clients", as_json, &j, &text);
	if (r)
		return r < 0 ? 0 : r;
	r = 0;
	if (!json_get(&j, "clients") || json_get(&j, "clients")->t != JSON_ARR) {
		fprintf(stderr, "%s: clients: the reply has no clients\n", braidctl_prog);
		r = BRAIDCTL_EXIT_DAEMON;
	} else {
		clients_rows(json_get(&j, "clients"));
	}
	json_free(&j);
	free(text);
	return r;
}

int paths_main(const char *sock, int argc, char **argv)
{
	const char *who = NULL;
	int as_json = want_json("paths", argc, argv, 1, &who), r;
	const struct json *cl, *p;
	char req[128];
	struct json j;
	char *text;

	if (as_json < 0) {
		fprintf(stderr, "Usage: %s paths [CLIENT] [--json]\n", braidctl_prog);
		return BRAIDCTL_EXIT_USAGE;
	}
	if (who && strlen(who) > 63) {
		fprintf(stderr, "%s: paths: client name too long\n", braidctl_prog);
		return BRAIDCTL_EXIT_USAGE;
	}
	snprintf(req, sizeof(req), "paths%s%s", who ? " " : "", who ? who : "");
	r = fetch_json(sock, "paths", req, as_json, &j, &text);
	if (r)
		return r < 0 ? 0 : r;
	r = 0;
	p = json_get(&j, "paths");
	cl = json_get(&j, "clients");
	if (p && p->t == JSON_ARR) {
		if (json_get(&j, "cn"))
			printf("client %.0f (%s):\n", json_num(&j, "id", 0), json_str(&j, "cn", "?"));
		braidctl_paths_table(p, "");
	} else if (cl && cl->t == JSON_ARR) {
		if (!cl->n)
			printf("clients: none\n");
		for (size_t i = 0; i < cl->n; i++) {
			const struct json *ps = json_get(&cl->items[i], "paths");

			printf("%sclient %.0f (%s):\n", i ? "\n" : "",
			       json_num(&cl->items[i], "id", 0), json_str(&cl->items[i], "cn", "?"));
			if (ps && ps->t == JSON_ARR)
				braidctl_paths_table(ps, "");
		}
	} else {
		fprintf(stderr, "%s: paths: the reply has no paths\n", braidctl_prog);
		r = BRAIDCTL_EXIT_DAEMON;
	}
	json_free(&j);
	free(text);
	return r;
}

int kill_main(const char *sock, int argc, char **argv)
{
	char req[128], *payload = NULL;
	int ok = 0;

	if (argc != 2 || strpbrk(argv[1], " \t\r\n") || strlen(argv[1]) > 63) {
		fprintf(stderr, "%s: kill: %s\nUsage: %s kill CN|ID\n", braidctl_prog,
			argc < 2 ? "missing the client" : "expected one client (CN or ID)",
			braidctl_prog);
		return BRAIDCTL_EXIT_USAGE;
	}
	snprintf(req, sizeof(req), "kill %s", argv[1]);
	if (ipc_request(sock, req, &ok, &payload))
		return BRAIDCTL_EXIT_DAEMON;
	if (!ok) {
		fprintf(stderr, "%s: braidd: %s\n", braidctl_prog, payload);
		free(payload);
		return BRAIDCTL_EXIT_DAEMON;
	}
	fputs(payload, stdout);
	free(payload);
	return 0;
}
