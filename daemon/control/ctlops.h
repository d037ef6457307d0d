/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ctlops.h - what braidd's control commands do (control.h ops): status from
 * status.c's JSON, the scheduler and path settings through mpath.
 *
 * `set path P` names a path by engine index, by local address (every path
 * on that address) or by interface name (every path whose local address is
 * on that interface).
 */
#ifndef BRAID_CTLOPS_H
#define BRAID_CTLOPS_H

#include "control/control.h"
#include "dataplane/mpath.h"
#include "dataplane/tunstats.h"

struct braid_ctlops {
	const struct braid_tunnel_stats *st;
	struct braid_mpath *m;		/* NULL in single-path mode */
};

/* Fill ops for ctx (which must outlive the control server). */
void braid_ctlops_init(struct braid_control_ops *ops, struct braid_ctlops *ctx,
		       const char *version);

#endif /* BRAID_CTLOPS_H */
