/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mp_path.h - path state helpers (mp_path.c) used by the rest of the
 * engine: lookup, failure timeout, failure, validation, PATH_STATUS, the
 * control path. The braid_mp_path_* functions are declared in mp.h.
 */
#ifndef BRAID_MP_PATH_H
#define BRAID_MP_PATH_H

#include <stdint.h>

#include "mp_int.h"

/* Path i if it is in use, else NULL. */
struct mp_path *mp_get_path(struct braid_mp *mp, int i);
/* How long path p may stay silent before it fails (us). */
uint64_t mp_fail_timeout(const struct braid_mp *mp, const struct mp_path *p);
/* Tell the peer this path's slot and backup flag (docs/multipath.md §6);
 * repeat > 0: again with the next that many probes (a lost one is not
 * otherwise noticed). */
void mp_send_status(struct braid_mp *mp, int i, int repeat);
/* Backup flags of either side changed: ACTIVE <-> STANDBY. */
void mp_backup_changed(struct braid_mp *mp, struct mp_path *p);
/* Stop using a path: everything queued for it or unacknowledged on it goes
 * to live paths (the receiver drops the copies that did arrive). */
void mp_path_fail(struct braid_mp *mp, struct mp_path *p, uint64_t now);
/* A valid PATH_RESPONSE arrived on path i: it becomes usable. */
void mp_path_validated(struct braid_mp *mp, struct mp_path *p, int i, uint64_t now);
/* Control traffic goes on the path with the lowest delay. */
int mp_best_ctl_path(const struct braid_mp *mp);
/* The next best control path after first, or -1. */
int mp_second_ctl_path(const struct braid_mp *mp, int first);

#endif /* BRAID_MP_PATH_H */
