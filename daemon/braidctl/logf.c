// SPDX-License-Identifier: GPL-2.0-only
/*
 * logf.c - `braidctl log [N|all] [-f]`: braidd's log history (management
 * `log N` / `log all`); -f follows it (`log on all`: the history, then each
 * `>LOG:` line as it comes) until interrupted or braidd goes away.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "braidctl.h"
#include "json.h"
#include "table.h"

static volatile sig_atomic_t stop;

static void on_sig(int s)
{
	(void)s;
	stop = 1;
}

/* One history line "TIME,FLAGS,TEXT" as text or JSON. */
static void put(const struct braidctl *b, const char *line)
{
	const char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
	char when[32], flags[16];

	if (!c2) {
		if (b->json) {
			printf("{\"text\":");
			json_put_str(stdout, line);
			printf("}\n");
		} else {
			printf("%s\n", line);
		}
		return;
	}
	snprintf(flags, sizeof(flags), "%.*s", (int)(c2 - c1 - 1), c1 + 1);
	if (b->json) {
		printf("{\"time\":%lld,\"flags\":", strtoll(line, NULL, 10));
		json_put_str(stdout, flags);
		printf(",\"text\":");
		json_put_str(stdout, c2 + 1);
		printf("}\n");
	} else {
		table_time(when, sizeof(when), strtoll(line, NULL, 10));
		printf("%s %s%s%s\n", when, flags, flags[0] ? " " : "", c2 + 1);
	}
}

static void on_note(void *user, const char *line)
{
	if (!strncmp(line, ">LOG:", 5)) {
		put(user, line + 5);
		fflush(stdout);
	}
}

int log_main(struct braidctl *b, int argc, char **argv)
{
	static const char use[] = "braidctl log [N|all] [-f] [--json]";
	struct sigaction sa = { .sa_handler = on_sig };
	struct mgmtc_reply r;
	const char *n = NULL;
	char cmd[64];
	int follow = 0, e;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-f") || !strcmp(argv[i], "--follow"))
			follow = 1;
		else if (!n && (!strcmp(argv[i], "all") ||
				(argv[i][0] && strlen(argv[i]) < 10 &&
				 strspn(argv[i], "0123456789") == strlen(argv[i]))))
			n = argv[i];
		else
			return braidctl_usage("log", "unknown argument", use);
	}
	if (!n)
		n = follow ? "10" : "all";
	if (!follow) {
		snprintf(cmd, sizeof(cmd), "log %s", n);
		e = braidctl_cmd(b, cmd, MGMTC_MULTI, &r);
		if (e)
			return e;
		for (size_t i = 0; i < r.n; i++)
			put(b, r.lines[i]);
		mgmtc_reply_free(&r);
		return 0;
	}
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	snprintf(cmd, sizeof(cmd), "log on %s", n);
	e = braidctl_cmd(b, cmd, MGMTC_ONE, &r);
	if (e)
		return e;
	mgmtc_reply_free(&r);
	b->c.notify = on_note;
	b->c.user = b;
	e = mgmtc_more(&b->c, cmd, &r);	/* the history, then END */
	if (e)
		return stop ? 0 : BRAIDCTL_EXIT_DAEMON;
	for (size_t i = 0; i < r.n; i++)
		put(b, r.lines[i]);
	mgmtc_reply_free(&r);
	fflush(stdout);
	while (!stop) {
		e = mgmtc_pump(&b->c, -1);
		if (e == -EINTR)
			break;
		if (e < 0)
			return BRAIDCTL_EXIT_DAEMON;
	}
	return 0;
}
