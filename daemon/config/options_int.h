/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options_int.h - the parser's internal types: the directive table entry and
 * the per-directive context the options_*.c handlers get. It includes only the
 * model's types (options_types.h), never options.h. Not part of the options.h API.
 */
#ifndef BRAID_OPTIONS_INT_H
#define BRAID_OPTIONS_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "config/options_types.h"

#define KEY_DIR_UNSET (-2)	/* key-direction / secret / tls-auth direction not given */
#define OPT_MANY 15		/* max_args of a directive taking a list */

struct ctx;
typedef int (*opt_handler)(struct ctx *c, int argc, char **argv);

/* One row of the directive table (options_table.c). */
struct opt_def {
	const char *name;
	int min_args, max_args;		/* arguments after the name */
	opt_handler fn;
	bool inline_ok;
	int blob;			/* enum braid_opt_blob, or -1 */
	size_t off;			/* opt_flag / opt_string: the field in struct braid_options */
};

/* What a handler gets besides argv: the model, where the directive is, its inline body. */
struct ctx {
	struct braid_options *o;
	const struct braid_opt_loc *loc;
	const char *name;
	const char *inl;	/* inline block body, or NULL */
	char *err;
	size_t err_len;
	const struct opt_def *def;
};

#endif /* BRAID_OPTIONS_INT_H */
