// SPDX-License-Identifier: GPL-2.0-only
/*
 * reload.c - the role-independent part of a live reload (reload.h).
 */
#include "session/reload.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <ev.h>

#include "control/surface.h"
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

void braid_reload_apply_dp(struct braid_dp *dp, const struct braid_options *o,
			   const struct braid_reload_diff *d, const char *who)
{
	char err[256], prefix[160];

	if (!dp)
		return;
	snprintf(prefix, sizeof(prefix), "reload%s%s", who ? ": " : "", who ? who : "");
	if ((d->changed & BRAID_RELOAD_SCHED) &&
	    braid_surface_set_sched(dp, prefix, o->mp_sched, err, sizeof(err)))
		braid_warn("%s: mp-scheduler %s: %s", prefix, o->mp_sched, err);
	if (!(d->changed & BRAID_RELOAD_PATHS))
		return;
	for (unsigned i = 0; i < o->n_mp_paths; i++) {
		const struct braid_opt_mp_path *p = &o->mp_paths[i];

		if (!(d->paths_changed & (1u << i)))
			continue;
		if (p->kind == BRAID_MP_LOCAL_AUTO) {
			braid_warn("%s: mp-path auto: backup/cap of automatic paths need a restart "
				   "(SIGHUP)", prefix);
			continue;
		}
		/* what changed (each set is logged with the path's settings) */
		if (((d->paths_backup_changed & (1u << i)) &&
		     braid_surface_set_path(dp, prefix, p->local,
					    p->backup ? BRAID_CTL_PATH_BACKUP : BRAID_CTL_PATH_ACTIVE, 0,
					    err, sizeof(err))) ||
		    ((d->paths_cap_changed & (1u << i)) &&
		     braid_surface_set_path(dp, prefix, p->local,
					    p->cap_bps ? BRAID_CTL_PATH_CAP : BRAID_CTL_PATH_NOCAP,
					    p->cap_bps, err, sizeof(err))))
			braid_warn("%s: mp-path %s: %s", prefix, p->local, err);
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
