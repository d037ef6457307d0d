/* SPDX-License-Identifier: GPL-2.0-only */
/* options.h - pathemu's command line. */
#ifndef PATHEMU_OPTIONS_H
#define PATHEMU_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "params.h"

struct pe_options {
	uint16_t qnum;
	bool have_qnum;
	const char *ctl_path;
	bool verbose;
	bool help;
	struct pe_params par;
};

/*
 * Parse argv. Returns 0, or -EINVAL with a message naming the bad token in err (the caller prints it and
 * exits 2). Uses getopt_long, so it resets optind itself and may be called more than once.
 */
int options_parse(int argc, char **argv, struct pe_options *o, char *err, size_t errlen);
void options_usage(FILE *f);

#endif
