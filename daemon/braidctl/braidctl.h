/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * braidctl.h - braidctl, the command-line client of braidd's management
 * interface (docs/man/braidctl.8): the shared context, the subcommands
 * (one file each) and the exit codes.
 */
#ifndef BRAIDCTL_H
#define BRAIDCTL_H

#include <stdbool.h>
#include <stddef.h>

#include "mgmtc.h"
#include "prog.h"

#define BRAIDCTL_RUN_DIR "/run/braid"
#define BRAIDCTL_SOCK_NAME "control.sock"
#define BRAIDCTL_DEFAULT_SOCKET BRAIDCTL_RUN_DIR "/" BRAIDCTL_SOCK_NAME
#define BRAIDCTL_EXIT_DAEMON 1		/* daemon refused or unreachable */
#define BRAIDCTL_EXIT_USAGE 2

struct braidctl {
	struct mgmtc_target t;
	bool json;
	struct mgmtc c;
};

/* Connect (once; later calls reuse it). 0 or BRAIDCTL_EXIT_DAEMON (a message printed). */
int braidctl_connect(struct braidctl *b);
/*
 * cmd and its reply in r (a SUCCESS/data reply: 0; an ERROR: reply is printed as
 * "braidctl: braidd: ..." and r freed). 0 or BRAIDCTL_EXIT_DAEMON.
 */
int braidctl_cmd(struct braidctl *b, const char *cmd, enum mgmtc_kind kind, struct mgmtc_reply *r);
/* A usage error for sub (why, then the usage lines): BRAIDCTL_EXIT_USAGE. */
int braidctl_usage(const char *sub, const char *why, const char *usage);

/* argv[0] is the subcommand name; return the exit code. */
int status_main(struct braidctl *b, int argc, char **argv);
int paths_main(struct braidctl *b, int argc, char **argv);
int set_main(struct braidctl *b, int argc, char **argv);
int clients_main(struct braidctl *b, int argc, char **argv);
int kill_main(struct braidctl *b, int argc, char **argv);
int log_main(struct braidctl *b, int argc, char **argv);
int version_main(struct braidctl *b, int argc, char **argv);

#endif
