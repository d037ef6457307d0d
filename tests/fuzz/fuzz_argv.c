// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_argv.c - braidd's command line (daemon/config/config.c
 * braid_config_parse_argv: "--name args..." directives; daemon/options*.c:
 * braid_options_apply, braid_options_finalize).
 *
 * Feeds: the input split at NUL bytes into argv[1..] (at most 64 words;
 * argv[0] is "braidd"). The one-argument form `braidd FILE` only opens a
 * file and is not fuzzed here (fuzz_config.c covers the text).
 * Asserts: a refusal carries a non-empty, NUL-terminated message; argv is
 * not modified; everything parsed is freed (LeakSanitizer).
 */
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "fuzz_common.h"
#include "util/log.h"
#include "config/options.h"

#define MAX_ARGS 64

static struct braid_options o;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int init;
	char *copy = malloc(size + 1), *orig = malloc(size + 1), *argv[MAX_ARGS + 2], err[512];
	int argc = 1, r;
	size_t i = 0;

	if (!init++) {
		braid_log_open_file("/dev/null", true);
		braid_log_set_verb(4);
	}
	FZ_ASSERT(copy && orig);
	memcpy(copy, data, size);
	copy[size] = '\0';
	memcpy(orig, copy, size + 1);
	argv[0] = (char *)"braidd";
	while (i < size && argc <= MAX_ARGS) {
		argv[argc++] = copy + i;
		i += strlen(copy + i) + 1;
	}
	argv[argc] = NULL;
	if (argc == 2 && strncmp(argv[1], "--", 2))
		goto out;	/* `braidd FILE` */
	braid_options_init(&o);
	err[0] = '\0';
	r = braid_config_parse_argv(&o, argc, argv, err, sizeof(err));
	if (!r) {
		err[0] = '\0';
		r = braid_options_finalize(&o, err, sizeof(err));
	}
	if (r)
		FZ_ASSERT(err[0] && memchr(err, 0, sizeof(err)));
	FZ_ASSERT(!memcmp(copy, orig, size + 1));
	braid_options_free(&o);
out:
	free(copy);
	free(orig);
	return 0;
}
