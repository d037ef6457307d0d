// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_config.c - the .ovpn parser (daemon/config/config.c braid_config_parse_text:
 * tokenizer, quoting, inline <blocks>, <connection>; daemon/options*.c: the
 * option table, braid_options_apply, braid_options_finalize,
 * braid_options_dump).
 *
 * Feeds: the input as the text of one config file (cut at its first NUL, as
 * a file with a NUL is refused before parsing).
 * Asserts: a refusal carries a non-empty, NUL-terminated message; the dump
 * of what was parsed reports its true length and is NUL-terminated when
 * truncated; everything parsed is freed (LeakSanitizer).
 * Paths named in the text (config, ca, ...) are opened as braidd would: run
 * the harness with no files of value reachable (short-run.sh runs it in a
 * temp dir with stdin from /dev/null).
 */
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "fuzz_common.h"
#include "util/log.h"
#include "config/options.h"
#include "config/options_dump.h"

static struct braid_options o;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int init;
	char *text = strndup((const char *)data, size), err[512], small[64];
	size_t need;
	int r;

	if (!init++) {
		braid_log_open_file("/dev/null", true);
		braid_log_set_verb(4);
	}
	FZ_ASSERT(text);
	braid_options_init(&o);
	err[0] = '\0';
	r = braid_config_parse_text(&o, "fuzz.ovpn", text, err, sizeof(err));
	if (!r) {
		err[0] = '\0';
		r = braid_options_finalize(&o, err, sizeof(err));
	}
	if (r)
		FZ_ASSERT(err[0] && memchr(err, 0, sizeof(err)));
	need = braid_options_dump(&o, NULL, 0);
	if (need) {
		char *d = malloc(need + 1);

		FZ_ASSERT(d);
		FZ_ASSERT(braid_options_dump(&o, d, need + 1) == need && strlen(d) == need);
		free(d);
		FZ_ASSERT(braid_options_dump(&o, small, sizeof(small)) == need);
		FZ_ASSERT(memchr(small, 0, sizeof(small)));
	}
	braid_options_free(&o);
	free(text);
	return 0;
}
