// SPDX-License-Identifier: GPL-2.0-only
/*
 * set.c - `braidctl set scheduler NAME` / `braidctl set path PATH ACTION`
 * (Braid's `braid scheduler` / `braid path` management commands),
 * `braidctl paths [CLIENT]` and `braidctl version`.
 *
 * The shape of a command is checked here (a usage error exits 2 before
 * anything is sent); braidd checks the values and its refusal is printed
 * as it came (exit 1).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "braidctl.h"
#include "info.h"
#include "table.h"

static const char set_use[] =
	"braidctl set scheduler NAME [ARG]\n"
	"       braidctl set path PATH backup|active|disable|enable|nocap|cap MBIT|weight W\n"
	"       braidctl set client CN|ID scheduler ...|path ...   (a gateway's client)";

static int run_one(struct braidctl *b, const char *cmd)
{
	struct mgmtc_reply r;
	int e = braidctl_cmd(b, cmd, MGMTC_ONE, &r);

	if (e)
		return e;
	if (b->json) {
		printf("{\"ok\":true,\"message\":");
		json_put_str(stdout, r.msg);
		printf("}\n");
	}
	mgmtc_reply_free(&r);
	return 0;
}

/*
 * `set path PATH ACTION [V]` as `braid path "PATH" ...` (pre: "braid client-path CID"
 * for a gateway's client) into cmd. 0 or a usage exit.
 */
static int path_cmd(int argc, char **argv, const char *pre, char *cmd, size_t n)
{
	char q[160];
	const char *a;
	double v;
	char *end;

	if (argc < 4)
		return braidctl_usage("set", argc < 3 ? "missing the path" : "missing the action",
				      set_use);
	if (strlen(argv[2]) > 64)
		return braidctl_usage("set", "path name too long", set_use);
	mgmtc_quote(q, sizeof(q), argv[2]);
	a = argv[3];
	if (!strcmp(a, "cap") || !strcmp(a, "weight")) {
		if (argc != 5)
			return braidctl_usage("set", argc < 5 ? (a[0] == 'c' ?
					      "cap needs a rate in Mbit/s" : "weight needs a number") :
					      "unexpected argument", set_use);
		v = strtod(argv[4], &end);
		if (*end || end == argv[4] || !(v >= 0) || v > 1e6)
			return braidctl_usage("set", a[0] == 'c' ? "cap wants Mbit/s (0-1000000)" :
					      "weight wants a number", set_use);
		if (a[0] == 'c')
			snprintf(cmd, n, "%s %s cap %.0f", pre, q, round(v * 1e6));
		else
			snprintf(cmd, n, "%s %s weight %s", pre, q, argv[4]);
		return 0;
	}
	if (argc != 4)
		return braidctl_usage("set", "unexpected argument", set_use);
	if (!strcmp(a, "backup") || !strcmp(a, "active"))
		snprintf(cmd, n, "%s %s backup %s", pre, q, a[0] == 'b' ? "on" : "off");
	else if (!strcmp(a, "disable") || !strcmp(a, "enable"))
		snprintf(cmd, n, "%s %s %s", pre, q, a);
	else if (!strcmp(a, "nocap"))
		snprintf(cmd, n, "%s %s cap 0", pre, q);
	else
		return braidctl_usage("set", "unknown path action", set_use);
	return 0;
}

int set_main(struct braidctl *b, int argc, char **argv)
{
	char cmd[512], q[160], pre[64] = "braid path", spre[64] = "braid scheduler";
	size_t l;
	int e;

	if (argc >= 2 && !strcmp(argv[1], "client")) {	/* set client CN|ID ...: a gateway's */
		struct info_client *cl;
		size_t n;
		unsigned long cid;

		if (argc < 3)
			return braidctl_usage("set", "missing the client (CN or ID)", set_use);
		if (argc < 4)
			return braidctl_usage("set", "missing what to set (scheduler or path)", set_use);
		e = info_clients(b, &cl, &n);
		if (!e)
			e = info_find_client(cl, n, argv[2], &cid);
		free(cl);
		if (e)
			return e;
		snprintf(pre, sizeof(pre), "braid client-path %lu", cid);
		snprintf(spre, sizeof(spre), "braid client-scheduler %lu", cid);
		argv += 2;
		argc -= 2;
	}
	if (argc < 2)
		return braidctl_usage("set", "missing what to set (scheduler or path)", set_use);
	if (!strcmp(argv[1], "path")) {
		e = path_cmd(argc, argv, pre, cmd, sizeof(cmd));
		return e ? e : run_one(b, cmd);
	}
	if (strcmp(argv[1], "scheduler"))
		return braidctl_usage("set", "expected scheduler or path", set_use);
	if (argc < 3)
		return braidctl_usage("set", "missing the scheduler", set_use);
	if (argc > 4)
		return braidctl_usage("set", "unexpected argument", set_use);
	snprintf(cmd, sizeof(cmd), "%s", spre);
	for (int i = 2; i < argc; i++) {
		if (strlen(argv[i]) > 64)
			return braidctl_usage("set", "argument too long", set_use);
		mgmtc_quote(q, sizeof(q), argv[i]);
		l = strlen(cmd);
		snprintf(cmd + l, sizeof(cmd) - l, " %s", q);
	}
	return run_one(b, cmd);
}

/* A gateway without CLIENT: every client's paths. */
static int all_clients(struct braidctl *b)
{
	struct info_client *cl;
	size_t n;
	int e = info_clients(b, &cl, &n);

	if (e)
		return e;
	if (b->json)
		printf("{\"clients\":[");
	for (size_t i = 0; i < n && !e; i++) {
		struct info_paths ps;

		e = info_paths(b, (long)cl[i].cid, &ps);
		if (e && ps.err[0]) {
			fprintf(stderr, "%s: braidd: %s\n", braidctl_prog, ps.err);
			break;
		}
		if (e)
			break;
		if (b->json) {
			printf("%s{\"cid\":%lu,\"cn\":", i ? "," : "", cl[i].cid);
			json_put_str(stdout, cl[i].cn);
			printf(",\"paths\":");
			table_paths_json(stdout, &ps);
			printf("}");
		} else {
			printf("%sclient %lu %s (%s)\n", i ? "\n" : "", cl[i].cid, cl[i].cn,
			       cl[i].real);
			table_paths(&ps, "  ");
		}
		info_paths_free(&ps);
	}
	if (b->json)
		printf("]}\n");
	if (!n && !b->json)
		printf("  clients: none\n");
	free(cl);
	return e;
}

int paths_main(struct braidctl *b, int argc, char **argv)
{
	struct info_paths ps;
	long cid = -1;
	int e;

	if (argc > 2)
		return braidctl_usage("paths", "unexpected argument", "braidctl paths [CLIENT] [--json]");
	if (argc == 2) {
		struct info_client *cl;
		size_t n;
		unsigned long id;

		e = info_clients(b, &cl, &n);
		if (!e)
			e = info_find_client(cl, n, argv[1], &id);
		free(cl);
		if (e)
			return e;
		cid = (long)id;
	}
	e = info_paths(b, cid, &ps);
	if (!e && cid < 0 && ps.n && json_get(&ps.p[0], "cid")) {
		/* a gateway: every client's paths (they carry "cid"), grouped by client */
		info_paths_free(&ps);
		return all_clients(b);
	}
	if (e) {
		if (ps.err[0])
			fprintf(stderr, "%s: braidd: %s\n", braidctl_prog, ps.err);
		return e;
	}
	if (b->json) {
		printf("{\"paths\":");
		table_paths_json(stdout, &ps);
		printf("}\n");
	} else {
		table_paths(&ps, "");
	}
	info_paths_free(&ps);
	return 0;
}

int version_main(struct braidctl *b, int argc, char **argv)
{
	struct mgmtc_reply r;
	const char *ov = "", *br;
	char braid[32] = "";
	int mv = 0, e;

	(void)argv;
	if (argc > 1)
		return braidctl_usage("version", "unexpected argument", "braidctl version [--json]");
	e = braidctl_cmd(b, "version", MGMTC_MULTI, &r);
	if (e)
		return e;
	for (size_t i = 0; i < r.n; i++) {
		if (!strncmp(r.lines[i], "OpenVPN Version: ", 17))
			ov = r.lines[i] + 17;
		else if (!strncmp(r.lines[i], "Management Version: ", 20))
			mv = atoi(r.lines[i] + 20);
	}
	if ((br = strstr(ov, "[Braid ")))
		snprintf(braid, sizeof(braid), "%.*s", (int)strcspn(br + 7, "]"), br + 7);
	if (b->json) {
		printf("{\"braidd\":");
		json_put_str(stdout, braid);
		printf(",\"openvpn\":");
		json_put_str(stdout, ov);
		printf(",\"management\":%d,\"braidctl\":\"%s\"}\n", mv, BRAID_VERSION_STR);
	} else {
		printf("braidd %s\nOpenVPN Version: %s\nManagement Version: %d\nbraidctl %s\n",
		       braid[0] ? braid : "(not Braid)", ov, mv, BRAID_VERSION_STR);
	}
	mgmtc_reply_free(&r);
	return 0;
}
