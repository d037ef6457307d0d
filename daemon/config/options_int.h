/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options_int.h - the parser's internal types (the directive table entry and
 * the per-directive context) and the helpers options.c shares with the
 * options_*.c handler files. Not part of the options.h API.
 */
#ifndef BRAID_OPTIONS_INT_H
#define BRAID_OPTIONS_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "config/options.h"

#define KEY_DIR_UNSET (-2)	/* key-direction / secret / tls-auth direction not given */

struct ctx;
typedef int (*opt_handler)(struct ctx *c, int argc, char **argv);

/* One row of the directive table (options.c). */
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

/* ---- options.c: helpers of the post-parse checks ---- */

/* "FILE:LINE: option 'NAME': MESSAGE" with the place NAME was given (if it was). */
int opt_lfail(const struct braid_options *o, char *err, size_t err_len, const char *name,
	      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* The directive that chose the TLS role (for messages about the role's needs). */
const char *opt_role_opt(const struct braid_options *o);

/* "MESSAGE" into err; -EINVAL. */
int opt_ffail(char *err, size_t err_len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Whether the file or inline block b was given. */
bool opt_has_blob(const struct braid_options *o, enum braid_opt_blob b);

#endif /* BRAID_OPTIONS_INT_H */
