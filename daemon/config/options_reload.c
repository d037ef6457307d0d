// SPDX-License-Identifier: GPL-2.0-only
/*
 * options_reload.c - the configuration side of a live reload
 * (options_reload.h): the running and the new options are compared through
 * their canonical dumps, keyed by option name ("push[3] ..." is "push"), so
 * a new option in the model is covered without a line here: unless it is in
 * the reloadable list below, its change is reported as needing a restart.
 */
#include "config/options_reload.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "config/options_dump.h"
#include "util/log.h"

static int r_argc;
static char **r_argv;

void braid_reload_set_args(int argc, char **argv)
{
	r_argc = argc;
	r_argv = argv;
}

int braid_reload_read(struct braid_options *n, char *err, size_t errlen)
{
	int r;

	braid_options_init(n);
	if (!r_argv) {
		snprintf(err, errlen, "no command line to read the configuration from");
		return -EINVAL;
	}
	r = braid_config_parse_argv(n, r_argc, r_argv, err, errlen);
	if (r)
		return r;
	n->tls_mode_supported = true;	/* as main.c's start-up */
	return braid_options_finalize(n, err, errlen);
}

/* The options a running tunnel takes over (their dump keys). */
static const char *const live_keys[] = {
	"verb", "mute-replay-warnings", "mp-scheduler", "mp-path", "push", "client-config-dir",
	"ccd-exclusive", "crl-verify",
};
/* Dump lines that are not options to compare. */
static const char *const skip_keys[] = { "ignored-unknown" };

static bool in_list(const char *k, size_t klen, const char *const *l, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(l[i]) == klen && !memcmp(l[i], k, klen))
			return true;
	return false;
}

static char *dump(const struct braid_options *o)
{
	size_t n = braid_options_dump(o, NULL, 0) + 1;
	char *b = malloc(n);

	if (b)
		braid_options_dump(o, b, n);
	return b;
}

/* Length of a dump line's key: up to the first ' ' or '['. */
static size_t key_len(const char *line)
{
	return strcspn(line, " [\n");
}

/* Every line of text with key k (klen), concatenated, compared with the same in other. */
static bool same_lines(const char *a, const char *b, const char *k, size_t klen)
{
	const char *pa = a, *pb = b;

	for (;;) {
		const char *la = NULL, *lb = NULL;

		while (*pa && !la) {
			if (key_len(pa) == klen && !memcmp(pa, k, klen))
				la = pa;
			pa += strcspn(pa, "\n");
			pa += *pa == '\n';
		}
		while (*pb && !lb) {
			if (key_len(pb) == klen && !memcmp(pb, k, klen))
				lb = pb;
			pb += strcspn(pb, "\n");
			pb += *pb == '\n';
		}
		if (!la || !lb)
			return !la && !lb;
		size_t na = strcspn(la, "\n"), nb = strcspn(lb, "\n");

		if (na != nb || memcmp(la, lb, na))
			return false;
	}
}

/* Has key k (klen) been seen in text before line? */
static bool seen_before(const char *text, const char *line, const char *k, size_t klen)
{
	for (const char *p = text; p < line;) {
		if (key_len(p) == klen && !memcmp(p, k, klen))
			return true;
		p += strcspn(p, "\n");
		p += *p == '\n';
	}
	return false;
}

/* Report every changed key of a (its lines in a, then keys only in b); live ones into *live. */
static void compare(const char *a, const char *b, struct braid_reload_diff *d, char live[][32],
		    unsigned *n_live)
{
	const char *texts[2] = { a, b };

	for (int t = 0; t < 2; t++) {
		for (const char *p = texts[t]; *p;) {
			size_t kl = key_len(p);

			if (kl && kl < 32 && !seen_before(texts[t], p, p, kl) &&
			    (t == 0 || !seen_before(a, a + strlen(a), p, kl)) &&
			    !in_list(p, kl, skip_keys, sizeof(skip_keys) / sizeof(skip_keys[0])) &&
			    !same_lines(a, b, p, kl)) {
				if (in_list(p, kl, live_keys, sizeof(live_keys) / sizeof(live_keys[0]))) {
					if (*n_live < 16)
						snprintf(live[(*n_live)++], 32, "%.*s", (int)kl, p);
				} else {
					braid_warn("reload: option %.*s changed, needs a restart (SIGHUP)",
						   (int)kl, p);
					d->n_restart++;
				}
			}
			p += strcspn(p, "\n");
			p += *p == '\n';
		}
	}
}

static bool has(char live[][32], unsigned n, const char *k)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(live[i], k))
			return true;
	return false;
}

static bool str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

/* Same mp-path lines but for backup/cap? Then those two move, else a restart is needed. */
static void merge_paths(struct braid_options *cur, const struct braid_options *n,
			struct braid_reload_diff *d)
{
	if (cur->n_mp_paths != n->n_mp_paths)
		goto restart;
	for (unsigned i = 0; i < n->n_mp_paths; i++) {
		const struct braid_opt_mp_path *a = &cur->mp_paths[i], *b = &n->mp_paths[i];

		if (!str_eq(a->local, b->local) || a->kind != b->kind || !str_eq(a->remote, b->remote) ||
		    a->port != b->port)
			goto restart;
	}
	for (unsigned i = 0; i < n->n_mp_paths; i++) {
		struct braid_opt_mp_path *a = &cur->mp_paths[i];
		const struct braid_opt_mp_path *b = &n->mp_paths[i];

		if (a->backup != b->backup || a->cap_bps != b->cap_bps) {
			if (a->backup != b->backup)
				d->paths_backup_changed |= 1u << i;
			if (a->cap_bps != b->cap_bps)
				d->paths_cap_changed |= 1u << i;
			a->backup = b->backup;
			a->cap_bps = b->cap_bps;
			d->paths_changed |= 1u << i;
		}
	}
	if (d->paths_changed)
		d->changed |= BRAID_RELOAD_PATHS;
	return;
restart:
	braid_warn("reload: option mp-path changed (a path added, removed or moved), needs a "
		   "restart (SIGHUP); backup/cap changes of the paths kept are applied live");
	d->n_restart++;
}

int braid_reload_merge(struct braid_options *cur, struct braid_options *n,
		       struct braid_reload_diff *d)
{
	char live[16][32];
	unsigned n_live = 0;
	char *a = dump(cur), *b = dump(n);

	memset(d, 0, sizeof(*d));
	if (!a || !b) {
		free(a);
		free(b);
		return -ENOMEM;
	}
	compare(a, b, d, live, &n_live);
	free(a);
	free(b);
	if (has(live, n_live, "verb") || has(live, n_live, "mute-replay-warnings")) {
		cur->verb = n->verb;
		cur->mute_replay_warnings = n->mute_replay_warnings;
		d->changed |= BRAID_RELOAD_VERB;
	}
	if (has(live, n_live, "mp-scheduler")) {
		memcpy(cur->mp_sched, n->mp_sched, sizeof(cur->mp_sched));
		d->changed |= BRAID_RELOAD_SCHED;
	}
	if (has(live, n_live, "mp-path"))
		merge_paths(cur, n, d);
	if (has(live, n_live, "push")) {
		char *tmp[BRAID_OPT_MAX_PUSH];
		unsigned tn = cur->n_push;

		memcpy(tmp, cur->push, sizeof(tmp));
		memcpy(cur->push, n->push, sizeof(tmp));
		memcpy(n->push, tmp, sizeof(tmp));
		cur->n_push = n->n_push;
		n->n_push = tn;
		d->changed |= BRAID_RELOAD_PUSH;
	}
	if (has(live, n_live, "client-config-dir") || has(live, n_live, "ccd-exclusive")) {
		char *t = cur->client_config_dir;

		cur->client_config_dir = n->client_config_dir;
		n->client_config_dir = t;
		cur->ccd_exclusive = n->ccd_exclusive;
		d->changed |= BRAID_RELOAD_CCD;
	}
	if (has(live, n_live, "crl-verify")) {
		struct braid_opt_source t = cur->blobs[BRAID_BLOB_CRL_VERIFY];

		cur->blobs[BRAID_BLOB_CRL_VERIFY] = n->blobs[BRAID_BLOB_CRL_VERIFY];
		n->blobs[BRAID_BLOB_CRL_VERIFY] = t;
		d->changed |= BRAID_RELOAD_CRL;
	}
	return 0;
}
