/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mpath_bind.h - where the path sockets are bound and which way their
 * packets go (mpath_bind.c), internal to the mpath files.
 */
#ifndef BRAID_MPATH_BIND_H
#define BRAID_MPATH_BIND_H

#include <stdbool.h>

#include "config/options.h"
#include "dataplane/mpath_int.h"

/* Open the configured sockets and resolve the configured paths. 0 or -errno (logged). */
int mpath_setup_paths(struct braid_mpath *m);
/*
 * Bind a new path slot (s->kind, s->ifname or s->local, s->family, s->port
 * filled in) if its address is there: 1 bound, 0 waiting for the address
 * or interface (logged; the slot's paths start down), -errno on any other
 * failure (logged).
 */
int mpath_bind_first(struct braid_mpath *m, struct msock *s);
/* `mp-path auto` (line p): resolve its remotes in family; interfaces are found by mpath_bind_scan. */
int mpath_auto_setup(struct braid_mpath *m, const struct braid_opt_mp_path *p, int family);
/*
 * Something changed (rtnetlink) or start-up: follow every path's address and
 * interface (re-open the socket on a change, the engine re-validates the
 * paths), find and drop `mp-path auto` interfaces, check each path's route.
 * log_all: also log paths that start down.
 */
void mpath_bind_scan(struct braid_mpath *m, bool log_all);
/* Check the route of every path not checked yet (new, learned or re-bound). */
void mpath_bind_check_routes(struct braid_mpath *m);
/* braid_mpath_path_cfg_add / _remove (mpath.h): an mp-path line at run time. */
int mpath_bind_cfg_add(struct braid_mpath *m, const struct braid_opt_mp_path *p, char *err,
		       size_t errlen);
int mpath_bind_cfg_remove(struct braid_mpath *m, const char *local, char *err, size_t errlen);
/* Start or stop the read watcher of a socket (once the data plane runs). */
void mpath_bind_io(struct braid_mpath *m, struct msock *s, bool on);

#endif /* BRAID_MPATH_BIND_H */
