/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options_process.h - process, script and compatibility directives (options_process.c);
 * internal to the options parser, the types are in options_int.h.
 */
#ifndef BRAID_OPTIONS_PROCESS_H
#define BRAID_OPTIONS_PROCESS_H

#include <stddef.h>
#include <stdint.h>

#include "config/options_int.h"

/*
 * Directive handlers for the table in options.c; argv[0] is the directive name.
 * 0, or -EINVAL with the message in c->err.
 */
int opt_verb(struct ctx *c, int argc, char **argv);
int opt_writepid(struct ctx *c, int argc, char **argv);
int opt_log(struct ctx *c, int argc, char **argv);
int opt_daemon(struct ctx *c, int argc, char **argv);
int opt_syslog(struct ctx *c, int argc, char **argv);
int opt_cd(struct ctx *c, int argc, char **argv);
int opt_genkey(struct ctx *c, int argc, char **argv);
int opt_ignore_unknown(struct ctx *c, int argc, char **argv);
int opt_control_socket(struct ctx *c, int argc, char **argv);
int opt_status(struct ctx *c, int argc, char **argv);
int opt_status_json(struct ctx *c, int argc, char **argv);
int opt_script(struct ctx *c, int argc, char **argv);
int opt_script_security(struct ctx *c, int argc, char **argv);
int opt_ignore_win(struct ctx *c, int argc, char **argv);
int opt_accept(struct ctx *c, int argc, char **argv);

/* A no-op with a number (mute, sndbuf, rcvbuf): the value is checked, then dropped. */
int opt_int_check(struct ctx *c, int argc, char **argv);

/* After all directives: user and group resolved (run_uid, run_gid), chroot a directory. */
int opt_finalize_process(struct braid_options *o, char *err, size_t err_len);

/* Deliberately unsupported: the message says why. */
int opt_unsupported(struct ctx *c, int argc, char **argv);

#endif /* BRAID_OPTIONS_PROCESS_H */
