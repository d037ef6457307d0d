/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options_finalize.h - the post-parse checks (options_finalize.c), published
 * through options.h.
 */
#ifndef BRAID_OPTIONS_FINALIZE_H
#define BRAID_OPTIONS_FINALIZE_H

#include <stddef.h>

#include "config/options_types.h"

/* After all directives: combination checks and defaults. 0 or -EINVAL + err. */
int braid_options_finalize(struct braid_options *o, char *err, size_t err_len);

#endif /* BRAID_OPTIONS_FINALIZE_H */
