// SPDX-License-Identifier: GPL-2.0-only
/*
 * braidctl.c - braidctl's entry: global options (which management
 * interface, its password, --json), the default socket and the subcommand
 * table.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "braidctl.h"

const char *braidctl_prog = "braidctl";

static const struct {
	const char *name;
	int (*main)(struct braidctl *b, int argc, char **argv);
	const char *help;
} cmds[] = {
	{ "status", status_main, "the session and its paths; a gateway: its clients [--watch [SECS]]" },
	{ "paths", paths_main, "the path table (a gateway: of CLIENT, or of every client)" },
	{ "set", set_main, "set scheduler NAME | path PATH backup|active|disable|enable|cap MBIT|nocap|weight W" },
	{ "clients", clients_main, "a gateway's clients" },
	{ "kill", kill_main, "kill CN|ID|IP:PORT: a gateway drops the client (it is told to reconnect)" },
	{ "log", log_main, "log [N|all] [-f]: braidd's log history; -f follows it" },
	{ "version", version_main, "braidd's version and management version" },
};

static void usage(FILE *f)
{
	fprintf(f, "Usage: %s [-s SOCKET | -i NAME | --tcp HOST:PORT] [-p PWFILE] [--json] COMMAND [ARGS...]\n\n"
		"  -s, --socket SOCKET        braidd's management unix socket (default: $BRAID_CONTROL_SOCKET,\n"
		"                             else the one %s/*/%s, else %s)\n"
		"  -i, --instance NAME        the socket of the unit braid-client@NAME or braid-server@NAME\n"
		"  --tcp HOST:PORT            braidd's management interface on TCP ('management HOST PORT')\n"
		"  -p, --password-file FILE   the management password (its first line)\n"
		"  --json                     machine-readable output (one JSON object per line)\n"
		"  --version                  braidctl's version\n\n"
		"Commands:\n", braidctl_prog, BRAIDCTL_RUN_DIR, BRAIDCTL_SOCK_NAME, BRAIDCTL_DEFAULT_SOCKET);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		fprintf(f, "  %-9s %s\n", cmds[i].name, cmds[i].help);
}

int braidctl_usage(const char *sub, const char *why, const char *use)
{
	fprintf(stderr, "%s: %s: %s\nUsage: %s\n", braidctl_prog, sub, why, use);
	return BRAIDCTL_EXIT_USAGE;
}

int braidctl_connect(struct braidctl *b)
{
	if (b->c.fd >= 0)
		return 0;
	return mgmtc_open(&b->c, &b->t) ? BRAIDCTL_EXIT_DAEMON : 0;
}

int braidctl_cmd(struct braidctl *b, const char *cmd, enum mgmtc_kind kind, struct mgmtc_reply *r)
{
	if (braidctl_connect(b) || mgmtc_cmd(&b->c, cmd, kind, r))
		return BRAIDCTL_EXIT_DAEMON;
	if (r->ok)
		return 0;
	fprintf(stderr, "%s: braidd: %s\n", braidctl_prog, r->msg);
	mgmtc_reply_free(r);
	return BRAIDCTL_EXIT_DAEMON;
}

static bool is_sock(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISSOCK(st.st_mode);
}

/* -i NAME: the unit's runtime directory (docs/install.md) */
static char *instance_sock(const char *name)
{
	static const char *const fmt[] = { "%s/%s/%s", "%s/client-%s/%s", "%s/server-%s/%s" };
	char *p = NULL;

	for (size_t i = 0; i < 3; i++) {
		free(p);
		if (asprintf(&p, fmt[i], BRAIDCTL_RUN_DIR, name, BRAIDCTL_SOCK_NAME) < 0)
			return NULL;
		if (is_sock(p))
			return p;
	}
	free(p);	/* none running: name the client's, connect says it is not there */
	if (asprintf(&p, fmt[1], BRAIDCTL_RUN_DIR, name, BRAIDCTL_SOCK_NAME) < 0)
		return NULL;
	return p;
}

/* No socket named: $BRAID_CONTROL_SOCKET, the only running instance's, or the default. */
static char *default_sock(void)
{
	const char *env = getenv("BRAID_CONTROL_SOCKET");
	glob_t g;
	char *p = NULL;

	if (env && *env)
		return strdup(env);
	if (!glob(BRAIDCTL_RUN_DIR "/*/" BRAIDCTL_SOCK_NAME, 0, NULL, &g)) {
		if (g.gl_pathc == 1 && !is_sock(BRAIDCTL_DEFAULT_SOCKET)) {
			p = strdup(g.gl_pathv[0]);
		} else if (g.gl_pathc > 1) {
			fprintf(stderr, "%s: several braidd instances run:", braidctl_prog);
			for (size_t i = 0; i < g.gl_pathc; i++)
				fprintf(stderr, " %s", g.gl_pathv[i]);
			fprintf(stderr, "; using %s (name one with -i NAME or -s SOCKET)\n",
				BRAIDCTL_DEFAULT_SOCKET);
		}
		globfree(&g);
	}
	return p ? p : strdup(BRAIDCTL_DEFAULT_SOCKET);
}

static int need_arg(int i, int argc, char **argv)
{
	if (i + 1 < argc)
		return 0;
	fprintf(stderr, "%s: option '%s' needs an argument\n", braidctl_prog, argv[i]);
	return BRAIDCTL_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	struct braidctl b = { .c.fd = -1 };
	const char *sock = NULL, *inst = NULL;
	char *own = NULL;
	int i = 1, r, n = 0;

	/* --json anywhere (before or after the command; no argument is "--json") */
	for (int k = 1; k < argc; k++) {
		if (!strcmp(argv[k], "--json"))
			b.json = true;
		else
			argv[++n] = argv[k];
	}
	argc = n + 1;
	argv[argc] = NULL;
	while (i < argc && argv[i][0] == '-') {
		const char *o = argv[i];

		if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			usage(stdout);
			return 0;
		}
		if (!strcmp(o, "--version")) {
			printf("braidctl %s\n", BRAID_VERSION_STR);
			return 0;
		}
		if (need_arg(i, argc, argv))
			return BRAIDCTL_EXIT_USAGE;
		if (!strcmp(o, "-s") || !strcmp(o, "--socket"))
			sock = argv[i + 1];
		else if (!strcmp(o, "-i") || !strcmp(o, "--instance"))
			inst = argv[i + 1];
		else if (!strcmp(o, "--tcp"))
			b.t.tcp = argv[i + 1];
		else if (!strcmp(o, "-p") || !strcmp(o, "--password-file"))
			b.t.pwfile = argv[i + 1];
		else {
			fprintf(stderr, "%s: unknown option '%s'\n", braidctl_prog, o);
			usage(stderr);
			return BRAIDCTL_EXIT_USAGE;
		}
		i += 2;
	}
	if (!!sock + !!inst + !!b.t.tcp > 1) {
		fprintf(stderr, "%s: give one of -s, -i and --tcp\n", braidctl_prog);
		return BRAIDCTL_EXIT_USAGE;
	}
	if (i >= argc) {
		usage(stderr);
		return BRAIDCTL_EXIT_USAGE;
	}
	for (size_t k = 0; k < sizeof(cmds) / sizeof(cmds[0]); k++) {
		if (strcmp(argv[i], cmds[k].name))
			continue;
		if (!b.t.tcp) {
			own = sock ? strdup(sock) : inst ? instance_sock(inst) : default_sock();
			if (!own)
				return BRAIDCTL_EXIT_DAEMON;
			b.t.unix_path = own;
		}
		r = cmds[k].main(&b, argc - i, argv + i);
		mgmtc_close(&b.c);
		free(own);
		return r;
	}
	fprintf(stderr, "%s: unknown command '%s'\n", braidctl_prog, argv[i]);
	usage(stderr);
	return BRAIDCTL_EXIT_USAGE;
}
