/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options_mp.h - multipath directives and their checks (options_mp.c); internal to the
 * options parser, the types are in options_int.h.
 */
#ifndef BRAID_OPTIONS_MP_H
#define BRAID_OPTIONS_MP_H

#include <stddef.h>
#include <stdint.h>

#include "config/options_int.h"

/*
 * Directive handlers for the table in options.c; argv[0] is the directive name.
 * 0, or -EINVAL with the message in c->err.
 */
int opt_multipath(struct ctx *c, int argc, char **argv);
int opt_mp_path(struct ctx *c, int argc, char **argv);
int opt_mp_backup(struct ctx *c, int argc, char **argv);
int opt_mp_cap(struct ctx *c, int argc, char **argv);
int opt_mp_auto_pat(struct ctx *c, int argc, char **argv);
int opt_mp_scheduler(struct ctx *c, int argc, char **argv);
int opt_mp_reorder_ms(struct ctx *c, int argc, char **argv);
int opt_mp_path_timeout(struct ctx *c, int argc, char **argv);
int opt_mp_class(struct ctx *c, int argc, char **argv);

/* Whether an `mp-path auto` line is given. */
bool opt_mp_has_auto(const struct braid_options *o);
/* Whether some mp-path line names its own remote. */
bool opt_mp_has_remote(const struct braid_options *o);

/* Multipath: mp-* directives only with multipath, and their consistency. */
int opt_finalize_mp(struct braid_options *o, char *err, size_t err_len);
/*
 * TLS modes (docs/multipath-negotiation.md): a client negotiates multipath
 * unless `multipath off` (mp-path LOCAL lines: its path sockets; a REMOTE on
 * the line is refused, the paths go to the server it connected to); a
 * gateway offers it only with `multipath on`. Sets o->multipath to 0/1
 * (a client: 1 with mp-path lines or `multipath on`) and o->mp_refuse.
 */
int opt_finalize_mp_tls(struct braid_options *o, char *err, size_t err_len);

#endif /* BRAID_OPTIONS_MP_H */
