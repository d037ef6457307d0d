/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options_table.h - the directive table (options_table.c): finding a directive's
 * row and the names the table gives. The row type (struct opt_def) is internal to
 * the parser (options_int.h); options.h publishes the two braid_options_* names.
 */
#ifndef BRAID_OPTIONS_TABLE_H
#define BRAID_OPTIONS_TABLE_H

#include <stdbool.h>

#include "config/options_types.h"

struct opt_def;

/* The table's row for directive `name`, NULL if braidd does not know it. */
const struct opt_def *opt_table_find(const char *name);

/* True if `name` takes an inline <name> block. */
bool braid_options_inline_ok(const char *name);

/* Name of a blob slot ("ca", "tls-auth", …). */
const char *braid_options_blob_name(enum braid_opt_blob b);

#endif /* BRAID_OPTIONS_TABLE_H */
