/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options_data.h - data-channel and keepalive directives (options_data.c); internal to
 * the options parser, the types are in options_int.h.
 */
#ifndef BRAID_OPTIONS_DATA_H
#define BRAID_OPTIONS_DATA_H

#include <stddef.h>
#include <stdint.h>

#include "config/options_int.h"

/*
 * Directive handlers for the table in options.c; argv[0] is the directive name.
 * 0, or -EINVAL with the message in c->err.
 */
int opt_keepalive(struct ctx *c, int argc, char **argv);
int opt_ping(struct ctx *c, int argc, char **argv);
int opt_ping_restart(struct ctx *c, int argc, char **argv);
int opt_ping_exit(struct ctx *c, int argc, char **argv);
int opt_replay_window(struct ctx *c, int argc, char **argv);
/* `dco auto|on|off` and `disable-dco` (= `dco off`): o->dco, read by dataplane/dco_select.c */
int opt_dco(struct ctx *c, int argc, char **argv);
int opt_dco_scheduler(struct ctx *c, int argc, char **argv);
int opt_peer_id(struct ctx *c, int argc, char **argv);
int opt_mssfix(struct ctx *c, int argc, char **argv);
int opt_compress(struct ctx *c, int argc, char **argv);
int opt_comp_lzo(struct ctx *c, int argc, char **argv);
int opt_allow_compression(struct ctx *c, int argc, char **argv);

#endif /* BRAID_OPTIONS_DATA_H */
