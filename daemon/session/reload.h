/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * reload.h - the live reload shared by the three roles: the signal that asks
 * for it (SIGRTMIN+1; SIGHUP stays OpenVPN's full restart), systemd's
 * RELOADING=1 ... READY=1 around it, the configuration read and merged
 * (config/options_reload.c), and what every role applies the same way: the
 * log level, and the scheduler and path settings on a multipath data path.
 * The role's own part (gateway: CRL, clients; the others: their engine) is
 * in the role's *_reload.c.
 */
#ifndef BRAID_RELOAD_H
#define BRAID_RELOAD_H

#include <signal.h>

#include "config/options_reload.h"

struct ev_loop;
struct braid_dp;

/* The signal of a live reload: `systemctl reload` sends it (ExecReload=kill -s RTMIN+1). */
#define BRAID_RELOAD_SIGNAL (SIGRTMIN + 1)

/* Watch the reload signal on loop (one role at a time): fn(user) runs for each. */
void braid_reload_listen(struct ev_loop *loop, void (*fn)(void *user), void *user);
/* Stop watching it (the role ends; the signal is ignored until the next listen). */
void braid_reload_unlisten(struct ev_loop *loop);

/*
 * Start a reload: RELOADING=1, read the configuration again and merge it into
 * cur (applying the log level). 0 and *d filled, or -errno: nothing changed
 * (logged; braid_reload_end must still be called).
 */
int braid_reload_begin(struct braid_options *cur, struct braid_reload_diff *d);
/*
 * Apply d's scheduler and path changes from o to a multipath data path (dp
 * may be NULL): mp-path lines added/removed through path_cfg_add/remove (as
 * `braid path-add`/`path-remove`), backup/cap in place (path_set), including
 * the `mp-backup IF`/`mp-cap IF` of `mp-path auto` interfaces; each logged.
 */
void braid_reload_apply_dp(struct braid_dp *dp, const struct braid_options *o,
			   const struct braid_reload_diff *d, const char *who);
/* End a reload: the summary line and READY=1 (r: braid_reload_begin's result). */
void braid_reload_end(struct ev_loop *loop, int r, const struct braid_reload_diff *d);

#endif /* BRAID_RELOAD_H */
