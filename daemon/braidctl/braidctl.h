/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * braidctl.h - subcommands of braidctl (one file each) and their exit codes.
 */
#ifndef BRAIDCTL_H
#define BRAIDCTL_H

#define BRAIDCTL_DEFAULT_SOCKET "/run/braid/control.sock"
#define BRAIDCTL_EXIT_DAEMON 1		/* daemon refused or unreachable */
#define BRAIDCTL_EXIT_USAGE 2

extern const char *braidctl_prog;

/* argv[0] is the subcommand name; return the exit code. */
int status_main(const char *sock, int argc, char **argv);
int set_main(const char *sock, int argc, char **argv);
int version_main(const char *sock, int argc, char **argv);

#endif
