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

static bool same_line(const struct braid_opt_mp_path *a, const struct braid_opt_mp_path *b)
{
	return str_eq(a->local, b->local) && a->kind == b->kind && str_eq(a->remote, b->remote) &&
	       a->port == b->port;
}

/* The index of the line like p in o, or -1. */
static int find_line(const struct braid_options *o, const struct braid_opt_mp_path *p)
{
	for (unsigned i = 0; i < o->n_mp_paths; i++)
		if (same_line(&o->mp_paths[i], p))
			return (int)i;
	return -1;
}

static unsigned count_local(const struct braid_options *o, const char *local)
{
	unsigned n = 0;

	for (unsigned i = 0; i < o->n_mp_paths; i++)
		n += str_eq(o->mp_paths[i].local, local);
	return n;
}

/* The index of o's mp-path auto line, or -1. */
static int auto_line(const struct braid_options *o)
{
	for (unsigned i = 0; i < o->n_mp_paths; i++)
		if (o->mp_paths[i].kind == BRAID_MP_LOCAL_AUTO)
			return (int)i;
	return -1;
}

/*
 * The strings of mp-path lines replaced by a reload: a running data path (its
 * sockets' names, a client's copy of the options) may still point at them,
 * so they live as long as the process (reachable from here, not a leak).
 */
static char **retired;
static size_t n_retired;

static int retire(char *s)
{
	char **t;

	if (!s)
		return 0;
	t = realloc(retired, (n_retired + 1) * sizeof(*t));
	if (!t)
		return -ENOMEM;
	retired = t;
	retired[n_retired++] = s;
	return 0;
}

/* Why the set of lines cannot change live (NULL: it can); a line whose LOCAL is in another line too. */
static const char *set_refused(const struct braid_options *cur, const struct braid_options *n,
			       char *why, size_t whylen)
{
	const struct braid_options *o[2] = { cur, n };

	if (cur->mode == BRAID_MODE_SERVER)
		return "a gateway's path sockets";
	if (cur->mptcp_paths)
		return "MPTCP endpoints";
	for (int t = 0; t < 2; t++)
		for (unsigned i = 0; i < o[t]->n_mp_paths; i++) {
			const struct braid_opt_mp_path *p = &o[t]->mp_paths[i];

			if (find_line(o[!t], p) >= 0)
				continue;	/* kept */
			if (p->kind == BRAID_MP_LOCAL_AUTO)
				return "mp-path auto added or removed";
			if (count_local(cur, p->local) > 1 || count_local(n, p->local) > 1) {
				snprintf(why, whylen, "mp-path %s has more than one line", p->local);
				return why;
			}
		}
	return NULL;
}

/*
 * mp-path lines: backup/cap of a kept line move in place; a line added or
 * removed (a changed one is both) is listed in *d for the data path, and n's
 * lines become cur's (the `mp-path auto` line at the index it had: the data
 * path reads it there).
 */
static int merge_paths(struct braid_options *cur, struct braid_options *n,
		       struct braid_reload_diff *d)
{
	struct braid_opt_mp_path a[BRAID_OPT_MAX_MP_PATHS];
	char why[96];
	const char *no;
	bool same_set = cur->n_mp_paths == n->n_mp_paths;
	int ai = auto_line(cur), an = auto_line(n);

	for (unsigned i = 0; same_set && i < n->n_mp_paths; i++)
		same_set = same_line(&cur->mp_paths[i], &n->mp_paths[i]);
	if (same_set) {
		for (unsigned i = 0; i < n->n_mp_paths; i++) {
			struct braid_opt_mp_path *p = &cur->mp_paths[i];
			const struct braid_opt_mp_path *q = &n->mp_paths[i];

			d->paths_backup_changed |= (uint32_t)(p->backup != q->backup) << i;
			d->paths_cap_changed |= (uint32_t)(p->cap_bps != q->cap_bps) << i;
			p->backup = q->backup;
			p->cap_bps = q->cap_bps;
		}
		d->paths_changed = d->paths_backup_changed | d->paths_cap_changed;
		if (d->paths_changed)
			d->changed |= BRAID_RELOAD_PATHS;
		return 0;
	}
	no = set_refused(cur, n, why, sizeof(why));
	if (!no && ai >= 0 && an >= 0 && ai != an && (unsigned)ai >= n->n_mp_paths)
		no = "the mp-path auto line moved";
	if (no) {
		braid_warn("reload: option mp-path changed (lines added or removed: %s), needs a restart "
			   "(SIGHUP); nothing of mp-path changed", no);
		d->n_restart++;
		return 0;
	}
	memcpy(a, n->mp_paths, sizeof(a));
	if (ai >= 0 && an >= 0 && ai != an) {
		struct braid_opt_mp_path t = a[ai];

		a[ai] = a[an];
		a[an] = t;
	}
	for (unsigned i = 0; i < cur->n_mp_paths; i++) {
		const struct braid_opt_mp_path *p = &cur->mp_paths[i];
		int k = find_line(n, p);

		if (k < 0 && p->kind != BRAID_MP_LOCAL_AUTO)
			d->paths_removed[d->n_paths_removed++] = p->local;
	}
	for (unsigned i = 0; i < n->n_mp_paths; i++) {
		int k = find_line(cur, &a[i]);

		if (k < 0) {
			d->paths_added |= 1u << i;
			continue;
		}
		d->paths_backup_changed |= (uint32_t)(cur->mp_paths[k].backup != a[i].backup) << i;
		d->paths_cap_changed |= (uint32_t)(cur->mp_paths[k].cap_bps != a[i].cap_bps) << i;
	}
	for (unsigned i = 0; i < cur->n_mp_paths; i++)
		if (retire(cur->mp_paths[i].local) || retire(cur->mp_paths[i].remote))
			return -ENOMEM;	/* before anything moved: cur is as it was */
	memcpy(cur->mp_paths, a, sizeof(a));
	cur->n_mp_paths = n->n_mp_paths;
	n->n_mp_paths = 0;	/* its strings are cur's now */
	d->paths_changed = d->paths_backup_changed | d->paths_cap_changed;
	d->changed |= BRAID_RELOAD_PATHS;
	return 0;
}

/* Is attribute a of o one for an `mp-path auto` interface (no mp-path line has its name)? */
static bool auto_attr(const struct braid_options *o, const struct braid_opt_mp_attr *a)
{
	return auto_line(o) >= 0 && !count_local(o, a->local);
}

/* Has every auto attribute of a its like in b? */
static bool attrs_in(const struct braid_options *a, const struct braid_options *b)
{
	for (unsigned i = 0; i < a->n_mp_attrs; i++) {
		const struct braid_opt_mp_attr *x = &a->mp_attrs[i];
		bool found = false;

		if (!auto_attr(a, x))
			continue;
		for (unsigned k = 0; k < b->n_mp_attrs && !found; k++)
			found = auto_attr(b, &b->mp_attrs[k]) && !strcmp(x->local, b->mp_attrs[k].local) &&
				x->backup == b->mp_attrs[k].backup && x->cap_bps == b->mp_attrs[k].cap_bps;
		if (!found)
			return false;
	}
	return true;
}

/*
 * `mp-backup IF` / `mp-cap IF` for interfaces `mp-path auto` finds are not
 * in the dump (they are no mp-path line): compared here. Changed: n's move
 * into cur (the replaced strings retired: a client's copy of the options
 * may point at them) and the data path applies them by interface name.
 */
static int merge_auto_attrs(struct braid_options *cur, struct braid_options *n,
			    struct braid_reload_diff *d)
{
	if (auto_line(cur) < 0 || auto_line(n) < 0 || (attrs_in(cur, n) && attrs_in(n, cur)))
		return 0;
	for (unsigned i = 0; i < cur->n_mp_attrs; i++)
		if (retire(cur->mp_attrs[i].local) || retire(cur->mp_attrs[i].file))
			return -ENOMEM;
	memcpy(cur->mp_attrs, n->mp_attrs, sizeof(cur->mp_attrs));
	cur->n_mp_attrs = n->n_mp_attrs;
	n->n_mp_attrs = 0;
	d->auto_attrs_changed = true;
	d->changed |= BRAID_RELOAD_PATHS;
	return 0;
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
	if (has(live, n_live, "mp-path") && merge_paths(cur, n, d))
		return -ENOMEM;
	if (merge_auto_attrs(cur, n, d))
		return -ENOMEM;
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
