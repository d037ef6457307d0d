// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_golden.c - the config corpus: every corpus/NAME.ovpn and NAME.conf is
 * parsed from the corpus directory (so locations read "NAME.ovpn:LINE"),
 * finalized as a daemon that runs the TLS modes would (tls_mode_supported),
 * and the result, braid_options_dump() or "error: MESSAGE", must equal
 * NAME.expected byte for byte.
 *
 * test_golden DIR            compare (exit 1 on any difference)
 * test_golden DIR --update   rewrite the .expected files (review the diff!)
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "config/config.h"
#include "util/log.h"
#include "config/options.h"
#include "config/options_dump.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_profile(const char *n)
{
	size_t l = strlen(n);

	return (l > 5 && !strcmp(n + l - 5, ".ovpn")) || (l > 5 && !strcmp(n + l - 5, ".conf"));
}

/* The canonical result of one profile, malloc'ed. */
static char *result_of(const char *file)
{
	struct braid_options o;
	char err[1024] = "";
	char *text;
	size_t n;
	int r;

	braid_options_init(&o);
	o.tls_mode_supported = true;
	r = braid_config_parse_file(&o, file, err, sizeof(err));
	if (!r)
		r = braid_options_finalize(&o, err, sizeof(err));
	if (r) {
		n = strlen(err) + 16;
		text = malloc(n);
		if (text)
			snprintf(text, n, "error: %s\n", err);
	} else {
		n = braid_options_dump(&o, NULL, 0) + 1;
		text = malloc(n);
		if (text)
			braid_options_dump(&o, text, n);
	}
	braid_options_free(&o);
	return text;
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	long len;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)len + 1);
		if (buf && fread(buf, 1, (size_t)len, f) != (size_t)len) {
			free(buf);
			buf = NULL;
		} else if (buf) {
			buf[len] = '\0';
		}
	}
	fclose(f);
	return buf;
}

/* First differing line, for the failure message. */
static void show_diff(const char *name, const char *want, const char *got)
{
	int line = 1;
	const char *w = want, *g = got;

	while (*w && *w == *g) {
		if (*w == '\n')
			line++;
		w++, g++;
	}
	fprintf(stderr, "FAIL %s: differs at line %d\n  want: %.*s\n  got:  %.*s\n", name, line,
		(int)strcspn(w, "\n"), w, (int)strcspn(g, "\n"), g);
}

int main(int argc, char **argv)
{
	char *names[256];
	unsigned int n = 0, failed = 0;
	bool update = argc >= 3 && !strcmp(argv[2], "--update");
	struct dirent *de;
	DIR *d;

	if (argc < 2 || sodium_init() < 0) {
		fprintf(stderr, "usage: test_golden CORPUS_DIR [--update]\n");
		return 2;
	}
	if (chdir(argv[1])) {
		fprintf(stderr, "cannot enter %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	braid_log_set_verb(0);	/* warnings are not part of the golden output */
	d = opendir(".");
	if (!d)
		return 2;
	while ((de = readdir(d)) && n < sizeof(names) / sizeof(names[0]))
		if (is_profile(de->d_name))
			names[n++] = strdup(de->d_name);
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_str);
	for (unsigned int i = 0; i < n; i++) {
		char exp_path[512];
		char *got = result_of(names[i]), *want;

		snprintf(exp_path, sizeof(exp_path), "%.*s.expected", (int)(strlen(names[i]) - 5),
			 names[i]);
		if (!got) {
			fprintf(stderr, "FAIL %s: out of memory\n", names[i]);
			failed++;
		} else if (update) {
			FILE *f = fopen(exp_path, "we");

			if (!f || fputs(got, f) < 0 || fclose(f)) {
				fprintf(stderr, "FAIL %s: cannot write %s\n", names[i], exp_path);
				failed++;
			}
		} else if (!(want = read_all(exp_path))) {
			fprintf(stderr, "FAIL %s: no %s\n", names[i], exp_path);
			failed++;
		} else {
			if (strcmp(want, got)) {
				show_diff(names[i], want, got);
				failed++;
			}
			free(want);
		}
		free(got);
		free(names[i]);
	}
	printf("%s: %u profiles, %u failed\n", update ? "updated" : "compared", n, failed);
	if (n < 15) {
		fprintf(stderr, "FAIL: only %u profiles in the corpus (want at least 15)\n", n);
		return 1;
	}
	return failed ? 1 : 0;
}
