/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options_check.h - what the post-parse checks share (options_check.c): where a
 * directive was given and messages naming it; internal to the options parser.
 */
#ifndef BRAID_OPTIONS_CHECK_H
#define BRAID_OPTIONS_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "config/options_types.h"

/* Remember where `name` (the table's static name) was given last (braid_options_apply). */
void opt_note_where(struct braid_options *o, const char *name, const struct braid_opt_loc *loc);

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

#endif /* BRAID_OPTIONS_CHECK_H */
