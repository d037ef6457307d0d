// SPDX-License-Identifier: GPL-2.0-only
/*
 * braidctl.c - braidctl's entry: global options and the subcommand table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "braidctl.h"

const char *braidctl_prog = "braidctl";

static const struct {
	const char *name;
	int (*main)(const char *sock, int argc, char **argv);
	const char *help;
} cmds[] = {
	{ "status", status_main, "show the tunnel and its paths (--json: braidd's JSON)" },
	{ "paths", paths_main, "the path table (a gateway: of CLIENT, or of every client)" },
	{ "set", set_main, "set [client CN|ID] scheduler SCHED | path PATH backup|active|cap MBIT|nocap" },
	{ "clients", clients_main, "a gateway's clients (--json: braidd's JSON)" },
	{ "kill", kill_main, "kill CN|ID: a gateway drops the client (it is told to reconnect)" },
	{ "version", version_main, "show the daemon's version and protocol" },
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: %s [-s SOCKET] COMMAND [ARGS...]\n\n"
		"  -s SOCKET   braidd's control socket (default $BRAID_CONTROL_SOCKET or %s)\n\n"
		"Commands:\n", braidctl_prog, BRAIDCTL_DEFAULT_SOCKET);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-9s %s\n", cmds[i].name, cmds[i].help);
}

int main(int argc, char **argv)
{
	const char *sock = getenv("BRAID_CONTROL_SOCKET");
	int i = 1;

	if (!sock || !*sock)
		sock = BRAIDCTL_DEFAULT_SOCKET;
	while (i < argc && argv[i][0] == '-') {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(argv[i], "-s") || !strcmp(argv[i], "--socket")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "%s: option '%s' needs a socket path\n", braidctl_prog,
					argv[i]);
				return BRAIDCTL_EXIT_USAGE;
			}
			sock = argv[i + 1];
			i += 2;
			continue;
		}
		fprintf(stderr, "%s: unknown option '%s'\n", braidctl_prog, argv[i]);
		usage(stderr);
		return BRAIDCTL_EXIT_USAGE;
	}
	if (i >= argc) {
		usage(stderr);
		return BRAIDCTL_EXIT_USAGE;
	}
	for (size_t k = 0; k < sizeof(cmds) / sizeof(cmds[0]); k++)
		if (!strcmp(argv[i], cmds[k].name))
			return cmds[k].main(sock, argc - i, argv + i);
	fprintf(stderr, "%s: unknown command '%s'\n", braidctl_prog, argv[i]);
	usage(stderr);
	return BRAIDCTL_EXIT_USAGE;
}
