// SPDX-License-Identifier: GPL-2.0-only
/*
 * reload.c - the role-independent part of a live reload (reload.h).
 */
#include "session/reload.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <ev.h>

#include "dataplane/backend.h"
#include "dataplane/path_match.h"
#include "mp/mp.h"
#include "os/sdnotify.h"
#include "util/log.h"

static ev_signal rl_sig;
static void (*rl_fn)(void *user);
static void *rl_user;
static struct ev_loop *rl_loop;

static void sig_cb(struct ev_loop *loop, ev_signal *w, int revents)
{
	(void)loop, (void)w, (void)revents;
	if (rl_fn)
		rl_fn(rl_user);
}

void braid_reload_listen(struct ev_loop *loop, void (*fn)(void *user), void *user)
{
	braid_reload_unlisten(rl_loop);
	rl_fn = fn;
	rl_user = user;
	rl_loop = loop;
	ev_signal_init(&rl_sig, sig_cb, BRAID_RELOAD_SIGNAL);
	ev_signal_start(loop, &rl_sig);
	ev_unref(loop);	/* the watcher alone never keeps the loop running */
}

void braid_reload_unlisten(struct ev_loop *loop)
{
	if (!rl_loop || loop != rl_loop)
		return;
	ev_ref(rl_loop);
	ev_signal_stop(rl_loop, &rl_sig);
	rl_loop = NULL;
	rl_fn = NULL;
	rl_user = NULL;
	signal(BRAID_RELOAD_SIGNAL, SIG_IGN);	/* between roles (and after): not fatal */
}

int braid_reload_begin(struct braid_options *cur, struct braid_reload_diff *d)
{
	struct braid_options n;
	char err[1024];
	int r;

	memset(d, 0, sizeof(*d));
	braid_sd_reloading("reloading the configuration");
	braid_info("reload: reading the configuration again (sessions are kept)");
	r = braid_reload_read(&n, err, sizeof(err));
	if (r) {
		braid_err("reload: %s", err);
		braid_err("reload: the configuration does not parse; nothing changed, everything keeps "
			  "running");
		braid_options_free(&n);
		return r;
	}
	r = braid_reload_merge(cur, &n, d);
	braid_options_free(&n);
	if (r) {
		braid_err("reload: %s", strerror(-r));
		return r;
	}
	if (d->changed & BRAID_RELOAD_VERB) {
		braid_log_set_verb(cur->verb);
		braid_info("reload: verb %d%s", cur->verb,
			   cur->mute_replay_warnings ? ", mute-replay-warnings" : "");
	}
	return 0;
}

/* mp-path LOCAL's paths get backup (set_backup) and/or cap (set_cap) from the config. */
static void set_path(struct braid_dp *dp, const char *prefix, const struct braid_opt_mp_path *c,
		     bool set_backup, bool set_cap)
{
	struct braid_mpath_path_info pi[BRAID_MP_MAX_PATHS];
	int n = braid_dp_paths(dp, pi, BRAID_MP_MAX_PATHS), hits = 0, r;

	if (n > BRAID_MP_MAX_PATHS)
		n = BRAID_MP_MAX_PATHS;
	for (int i = 0; i < n; i++) {
		unsigned int flags = pi[i].mp.flags;
		uint64_t cap = pi[i].mp.cap_bps;

		if (!braid_path_named(c->local, &pi[i]))
			continue;
		hits++;
		if (set_backup)
			flags = c->backup ? flags | BRAID_MP_PATH_F_BACKUP : flags & ~BRAID_MP_PATH_F_BACKUP;
		if (set_cap)
			cap = c->cap_bps;
		r = braid_dp_path_set(dp, pi[i].index, flags, cap);
		if (r)
			braid_warn("%s: mp-path %s: path %d refused the change: %s", prefix, c->local,
				   pi[i].index, strerror(-r));
		else
			braid_info("%s: path %d %s -> %s: %s%s", prefix, pi[i].index, pi[i].local,
				   pi[i].remote, flags & BRAID_MP_PATH_F_BACKUP ? "backup" : "active",
				   cap ? ", capped" : "");
	}
	if (!hits)
		braid_warn("%s: mp-path %s: no such path now",
			   prefix, c->local);
}

static bool removed(const struct braid_reload_diff *d, const char *local)
{
	for (unsigned i = 0; i < d->n_paths_removed; i++)
		if (!strcmp(d->paths_removed[i], local))
			return true;
	return false;
}

static void add_line(struct braid_dp *dp, const struct braid_opt_mp_path *p, const char *prefix)
{
	char err[512] = "";
	int r = braid_dp_path_cfg_add(dp, p, err, sizeof(err));

	if (r)
		braid_err("%s: mp-path %s%s%s: not added: %s", prefix, p->local, p->remote ? " " : "",
			  p->remote ? p->remote : "", err[0] ? err : r == -EOPNOTSUPP ?
			  "not supported by this data path (restart with SIGHUP)" : strerror(-r));
	else
		braid_info("%s: mp-path %s%s%s added%s%s", prefix, p->local, p->remote ? " " : "",
			   p->remote ? p->remote : "", p->backup ? ", backup" : "",
			   p->cap_bps ? ", capped" : "");
}

/*
 * The mp-path lines a reload added and removed, through the same ops as
 * `braid path-add` / `path-remove`: first the lines of new LOCALs (so the
 * session never runs out of paths), then the removals (their paths are
 * dropped, the scheduler moves their traffic to the others), then the lines
 * changed (removed and added again).
 */
static void apply_lines(struct braid_dp *dp, const struct braid_opt_mp_path *o_paths, unsigned n,
			const struct braid_reload_diff *d, const char *prefix)
{
	for (unsigned i = 0; i < n; i++)
		if ((d->paths_added & (1u << i)) && !removed(d, o_paths[i].local))
			add_line(dp, &o_paths[i], prefix);
	for (unsigned i = 0; i < d->n_paths_removed; i++) {
		char err[512] = "";
		int r = braid_dp_path_cfg_remove(dp, d->paths_removed[i], err, sizeof(err));

		if (r)
			braid_err("%s: mp-path %s: not removed: %s", prefix, d->paths_removed[i],
				  err[0] ? err : r == -EOPNOTSUPP ?
				  "not supported by this data path (restart with SIGHUP)" : strerror(-r));
		else
			braid_info("%s: mp-path %s removed, its paths are gone", prefix,
				   d->paths_removed[i]);
	}
	for (unsigned i = 0; i < n; i++)
		if ((d->paths_added & (1u << i)) && removed(d, o_paths[i].local))
			add_line(dp, &o_paths[i], prefix);
}

/* The backup flag and cap the reloaded options give `mp-path auto` interface dev. */
static void auto_want(const struct braid_options *o, const char *dev, bool *backup, uint64_t *cap)
{
	*backup = false;
	*cap = 0;
	for (unsigned i = 0; i < o->n_mp_attrs; i++)
		if (!strcmp(o->mp_attrs[i].local, dev)) {
			*backup |= o->mp_attrs[i].backup;
			if (o->mp_attrs[i].cap_bps)
				*cap = o->mp_attrs[i].cap_bps;
		}
}

/* `mp-backup IF` / `mp-cap IF` changed: the running paths `mp-path auto` opened follow them. */
static void apply_auto_attrs(struct braid_dp *dp, const struct braid_options *o, const char *prefix)
{
	struct braid_mpath_path_info pi[BRAID_MP_MAX_PATHS];
	int n = braid_dp_paths(dp, pi, BRAID_MP_MAX_PATHS), r;

	if (n > BRAID_MP_MAX_PATHS)
		n = BRAID_MP_MAX_PATHS;
	for (int i = 0; i < n; i++) {
		unsigned int flags = pi[i].mp.flags;
		bool explicit = false, backup;
		uint64_t cap;

		for (unsigned k = 0; k < o->n_mp_paths && !explicit; k++)
			explicit = o->mp_paths[k].kind != BRAID_MP_LOCAL_AUTO &&
				   braid_path_named(o->mp_paths[k].local, &pi[i]);
		if (explicit || !pi[i].dev[0])
			continue;
		auto_want(o, pi[i].dev, &backup, &cap);
		flags = backup ? flags | BRAID_MP_PATH_F_BACKUP : flags & ~BRAID_MP_PATH_F_BACKUP;
		if (flags == pi[i].mp.flags && cap == pi[i].mp.cap_bps)
			continue;
		r = braid_dp_path_set(dp, pi[i].index, flags, cap);
		if (r)
			braid_warn("%s: mp-path auto: path %d on %s refused the change: %s", prefix,
				   pi[i].index, pi[i].dev, strerror(-r));
		else
			braid_info("%s: mp-path auto: path %d on %s: %s%s", prefix, pi[i].index, pi[i].dev,
				   backup ? "backup" : "active", cap ? ", capped" : "");
	}
}

void braid_reload_apply_dp(struct braid_dp *dp, const struct braid_options *o,
			   const struct braid_reload_diff *d, const char *who)
{
	char prefix[160];

	if (!dp)
		return;
	snprintf(prefix, sizeof(prefix), "reload%s%s", who ? ": " : "", who ? who : "");
	if (d->changed & BRAID_RELOAD_SCHED) {
		int r = braid_dp_set_sched(dp, o->mp_sched);

		if (r)
			braid_warn("%s: mp-scheduler %s: refused by the engine: %s", prefix, o->mp_sched,
				   strerror(-r));
		else
			braid_info("%s: scheduler set to %s", prefix, o->mp_sched);
	}
	if (!(d->changed & BRAID_RELOAD_PATHS))
		return;
	apply_lines(dp, o->mp_paths, o->n_mp_paths, d, prefix);
	if (d->auto_attrs_changed)
		apply_auto_attrs(dp, o, prefix);
	for (unsigned i = 0; i < o->n_mp_paths; i++) {
		const struct braid_opt_mp_path *p = &o->mp_paths[i];

		if (!(d->paths_changed & (1u << i)) || (d->paths_added & (1u << i)))
			continue;
		if (p->kind == BRAID_MP_LOCAL_AUTO) {
			braid_warn("%s: mp-path auto backup/cap: give them per interface (mp-backup IF, "
				   "mp-cap IF); the line's own need a restart (SIGHUP)", prefix);
			continue;
		}
		set_path(dp, prefix, p, d->paths_backup_changed & (1u << i),
			 d->paths_cap_changed & (1u << i));
	}
}

void braid_reload_end(struct ev_loop *loop, int r, const struct braid_reload_diff *d)
{
	if (r)
		braid_info("reload: done, nothing changed");
	else
		braid_info("reload: done (%s%s%s%s%s%s%s), %u option(s) need a restart",
			   d->changed ? "applied:" : "nothing to apply",
			   d->changed & BRAID_RELOAD_VERB ? " verb" : "",
			   d->changed & BRAID_RELOAD_SCHED ? " scheduler" : "",
			   d->changed & BRAID_RELOAD_PATHS ? " paths" : "",
			   d->changed & BRAID_RELOAD_PUSH ? " push" : "",
			   d->changed & BRAID_RELOAD_CCD ? " ccd" : "",
			   d->changed & BRAID_RELOAD_CRL ? " crl" : "", d->n_restart);
	braid_sd_ready(loop, "reloaded");
}
