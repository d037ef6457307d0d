/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ctlops.h - the control surface (surface.h) of the static-key tunnel:
 * status and paths from status.c's JSON, the scheduler and path settings
 * through surface.c on the tunnel's engine.
 */
#ifndef BRAID_CTLOPS_H
#define BRAID_CTLOPS_H

#include <stdbool.h>

#include "control/control.h"
#include "dataplane/backend.h"
#include "dataplane/tunstats.h"

struct braid_ctlops {
	const struct braid_tunnel_stats *st;
	struct braid_dp *dp;		/* the data path, NULL in single-path mode */
	const bool *up;			/* a peer answered (the tunnel's own flag), or NULL */
};

/* Fill ops for ctx (which must outlive the control server). */
void braid_ctlops_init(struct braid_control_ops *ops, struct braid_ctlops *ctx,
		       const char *version);

#endif /* BRAID_CTLOPS_H */
