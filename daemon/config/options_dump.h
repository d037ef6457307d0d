/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options_dump.h - the parsed options in canonical text (options_dump.c), as
 * the golden tests and `braidd --show-config`-style tooling compare them.
 */
#ifndef BRAID_OPTIONS_DUMP_H
#define BRAID_OPTIONS_DUMP_H

#include <stddef.h>

#include "config/options_types.h"

/*
 * Canonical text dump of the parsed options (one "name value" per line, a
 * stable order; inline key material is shown as its length only). Returns the
 * number of bytes needed (like snprintf); buf may be NULL with len 0.
 */
size_t braid_options_dump(const struct braid_options *o, char *buf, size_t len);

#endif /* BRAID_OPTIONS_DUMP_H */
