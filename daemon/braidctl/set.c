// SPDX-License-Identifier: GPL-2.0-only
/*
 * set.c - `braidctl set scheduler SCHED` / `braidctl set path PATH ACTION`
 * and `braidctl version`.
 *
 * The arguments are checked here for the shape of the command (a usage
 * error exits 2 before anything is sent); the daemon checks the values and
 * its refusal is printed as it came (exit 1).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "braidctl.h"
#include "ipc.h"

static int set_usage(const char *why)
{
	fprintf(stderr, "%s: set: %s\n"
		"Usage: %s set scheduler edf|rtt|ratio A:B|mpip|lowest-rtt|backup|redundant\n"
		"       %s set path INDEX|LOCAL-ADDRESS|IFACE backup|active|cap MBIT|nocap\n"
		"       %s set client CN|ID scheduler ...|path ...   (on a gateway)\n",
		braidctl_prog, why, braidctl_prog, braidctl_prog, braidctl_prog);
	return BRAIDCTL_EXIT_USAGE;
}

static int run(const char *sock, const char *req, int print_payload)
{
	char *payload = NULL;
	int ok = 0;

	if (ipc_request(sock, req, &ok, &payload))
		return BRAIDCTL_EXIT_DAEMON;
	if (!ok) {
		fprintf(stderr, "%s: braidd: %s\n", braidctl_prog, payload);
		free(payload);
		return BRAIDCTL_EXIT_DAEMON;
	}
	if (print_payload)
		fputs(payload, stdout);
	free(payload);
	return 0;
}

int set_main(const char *sock, int argc, char **argv)
{
	char req[512] = "";
	int want;

	if (argc >= 2 && !strcmp(argv[1], "client")) {	/* set client CN|ID ...: a gateway's */
		if (argc < 3)
			return set_usage("missing the client (CN or ID)");
		if (strlen(argv[2]) > 63 || strpbrk(argv[2], " \t\r\n"))
			return set_usage("bad client name");
		snprintf(req, sizeof(req), "set client %s ", argv[2]);
		argv += 2;
		argc -= 2;
	}
	if (argc < 2)
		return set_usage("missing what to set (scheduler or path)");
	if (!strcmp(argv[1], "scheduler")) {
		if (argc < 3)
			return set_usage("missing the scheduler");
		want = !strcmp(argv[2], "ratio") ? 4 : 3;
		if (argc < want)
			return set_usage("ratio needs weights A:B");
	} else if (!strcmp(argv[1], "path")) {
		if (argc < 4)
			return set_usage(argc < 3 ? "missing the path" : "missing the action");
		want = !strcmp(argv[3], "cap") ? 5 : 4;
		if (argc < want)
			return set_usage("cap needs a rate in Mbit/s");
	} else {
		fprintf(stderr, "%s: set: unknown setting '%s'\n", braidctl_prog, argv[1]);
		return set_usage("expected scheduler or path");
	}
	if (argc > want) {
		fprintf(stderr, "%s: set: unexpected argument '%s'\n", braidctl_prog, argv[want]);
		return set_usage("too many arguments");
	}
	for (int i = req[0] ? 1 : 0; i < want; i++) {
		if (strlen(req) + strlen(argv[i]) + 2 > sizeof(req))
			return set_usage("arguments too long");
		if (strpbrk(argv[i], " \t\r\n")) {
			fprintf(stderr, "%s: set: argument '%s' contains a blank\n", braidctl_prog,
				argv[i]);
			return BRAIDCTL_EXIT_USAGE;
		}
		if (i && req[strlen(req) - 1] != ' ')
			strcat(req, " ");
		strcat(req, argv[i]);
	}
	return run(sock, req, 0);
}

int version_main(const char *sock, int argc, char **argv)
{
	if (argc > 1) {
		fprintf(stderr, "%s: version: unexpected argument '%s'\n", braidctl_prog, argv[1]);
		return BRAIDCTL_EXIT_USAGE;
	}
	return run(sock, "version", 1);
}
