/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options.h - braidd's options model and the table of directives.
 *
 * One model, filled the same way from a config file and from the command
 * line (config.c tokenizes both, then calls braid_options_apply() per
 * directive). The table in options_table.c gives each directive its name, its
 * argument count and its handler. braid_options_finalize() (options_finalize.c)
 * checks the combination and fills derived defaults. The model's types are in
 * options_types.h; this header adds the API (init/free, apply, <connection>
 * blocks: options.c; the dump: options_dump.c) and includes the table's and
 * the checks' public headers.
 *
 * Errors are written into the caller's buffer, always prefixed with the
 * location: "FILE:LINE: option 'X': <problem>" (config file) or
 * "command line: option 'X': <problem>".
 */
#ifndef BRAID_OPTIONS_H
#define BRAID_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "config/options_finalize.h"
#include "config/options_table.h"
#include "config/options_types.h"

void braid_options_init(struct braid_options *o);
/* Free everything; inline key material is wiped first. */
void braid_options_free(struct braid_options *o);
/*
 * One `mp-path LOCAL [REMOTE [PORT]]` line (argv[0] "mp-path") parsed as the
 * config file's (for `braid path-add`): 0 and *out (its strings malloc'ed,
 * the caller frees local and remote), or -errno with the reason in err.
 */
int braid_options_mp_path_line(int argc, char **argv, struct braid_opt_mp_path *out, char *err,
			       size_t errlen);

/*
 * Apply one directive: argv[0] is the name (without "--"), argv[1..argc-1]
 * its arguments; inline_text is the body of a <name>…</name> block (then
 * argc == 1). 0, or -EINVAL with the message in err.
 */
int braid_options_apply(struct braid_options *o, int argc, char **argv, const char *inline_text,
			const struct braid_opt_loc *loc, char *err, size_t err_len);

/*
 * A <connection> block (config.c): begin starts an entry (proto/port as set so
 * far), the block's lines go through braid_options_apply() (only OpenVPN's
 * connection options are allowed), end appends it to remotes[]. 0 or -EINVAL.
 */
int braid_options_connection_begin(struct braid_options *o, const struct braid_opt_loc *loc,
				   char *err, size_t err_len);
int braid_options_connection_end(struct braid_options *o, const struct braid_opt_loc *loc,
				 char *err, size_t err_len);

/* Name of a protocol ("udp", "tcp-client", "tcp-server"). */
const char *braid_options_proto_name(enum braid_opt_proto p);

#endif /* BRAID_OPTIONS_H */
