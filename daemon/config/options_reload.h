/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options_reload.h - the live reload's configuration side: read the
 * configuration again from the command line braidd started with, compare it
 * with the running options (by their canonical dump, options_dump.c) and
 * move the options a running tunnel can take over into it. Every other
 * changed option is logged by name as needing a restart and left as it is.
 */
#ifndef BRAID_OPTIONS_RELOAD_H
#define BRAID_OPTIONS_RELOAD_H

#include <stddef.h>
#include <stdint.h>

#include "config/options.h"

/* What a reload changed (bits of braid_reload_diff.changed). */
enum {
	BRAID_RELOAD_VERB = 1u << 0,	/* verb, mute-replay-warnings */
	BRAID_RELOAD_SCHED = 1u << 1,	/* mp-scheduler */
	BRAID_RELOAD_PATHS = 1u << 2,	/* mp-path lines: backup/cap, added, removed (below) */
	BRAID_RELOAD_PUSH = 1u << 3,	/* push lines */
	BRAID_RELOAD_CCD = 1u << 4,	/* client-config-dir, ccd-exclusive */
	BRAID_RELOAD_CRL = 1u << 5,	/* crl-verify (its file is read again at every reload) */
};

struct braid_reload_diff {
	unsigned changed;		/* BRAID_RELOAD_* */
	uint32_t paths_changed;		/* bit i: mp_paths[i]'s backup or cap changed */
	uint32_t paths_backup_changed;	/* bit i: its backup flag changed */
	uint32_t paths_cap_changed;	/* bit i: its cap changed */
	uint32_t paths_added;		/* bit i: mp_paths[i] is a line the running config lacked */
	unsigned n_paths_removed;
	/* the LOCALs of the lines gone (a changed line is removed and added again); the
	 * strings stay valid for the process's life (the running data path may point at them) */
	const char *paths_removed[BRAID_OPT_MAX_MP_PATHS];
	/* `mp-backup IF` / `mp-cap IF` of interfaces `mp-path auto` uses (mp_attrs) changed */
	bool auto_attrs_changed;
	unsigned n_restart;		/* options changed that need a restart (logged, not applied) */
};

/* Remember the command line for braid_reload_read (main, once). */
void braid_reload_set_args(int argc, char **argv);
/*
 * Read and check the configuration again into n (initialised here; free it
 * with braid_options_free in every case). 0, or -errno with the reason in err.
 */
int braid_reload_read(struct braid_options *n, char *err, size_t errlen);
/*
 * Compare cur (running) with n (just read): move the reloadable options that
 * differ from n into cur (n keeps what cur had, for braid_options_free), log
 * each other option that differs ("reload: option X changed, needs a restart
 * (SIGHUP)") and fill *d. A changed set of mp-path lines replaces cur's
 * (added/removed in *d, applied by session/reload.c through the data path's
 * path_cfg_add/remove); the replaced lines' strings are kept alive, since a
 * running data path or its copy of the options may point at them. 0 or -ENOMEM.
 */
int braid_reload_merge(struct braid_options *cur, struct braid_options *n,
		       struct braid_reload_diff *d);

#endif /* BRAID_OPTIONS_RELOAD_H */
