/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * braidctl.h - subcommands of braidctl (one file each) and their exit codes.
 */
#ifndef BRAIDCTL_H
#define BRAIDCTL_H

#include <stddef.h>

#define BRAIDCTL_DEFAULT_SOCKET "/run/braid/control.sock"
#define BRAIDCTL_EXIT_DAEMON 1		/* daemon refused or unreachable */
#define BRAIDCTL_EXIT_USAGE 2

extern const char *braidctl_prog;

/* argv[0] is the subcommand name; return the exit code. */
int status_main(const char *sock, int argc, char **argv);
int set_main(const char *sock, int argc, char **argv);
int version_main(const char *sock, int argc, char **argv);
int paths_main(const char *sock, int argc, char **argv);
int clients_main(const char *sock, int argc, char **argv);
int kill_main(const char *sock, int argc, char **argv);

struct json;
/* show.c: "1.50 MiB"; "[AF_INET]10.0.1.1:1194" -> "10.0.1.1:1194"; a paths array as a table */
void braidctl_bytes(char *b, size_t n, double v);
void braidctl_addr(char *b, size_t n, const char *s);
void braidctl_paths_table(const struct json *paths, const char *indent);
/* clients.c: a gateway's status object (counters and clients) */
int braidctl_gateway_table(const struct json *st);

#endif
