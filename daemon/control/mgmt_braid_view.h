/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mgmt_braid_view.h - the paths (and a gateway's clients) the braid
 * extension of the management interface shows, collected from the role's
 * callbacks and the data plane's per-path tables (mgmt_braid_view.c).
 */
#ifndef BRAID_MGMT_BRAID_VIEW_H
#define BRAID_MGMT_BRAID_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "control/mgmt_braid_json.h"
#include "control/mgmt_int.h"

/* Every path the role has now (a gateway: of all its clients or of one), malloc'ed. */
struct mgmt_bview {
	struct mgmt_bpath *p;
	int n;
	struct braid_mgmt_client *c;	/* a gateway's clients */
	int nc;
};

/* cid -1: every client (a gateway) or the role's own paths; else that client's. 0 or -ENOMEM. */
int mgmt_bview_collect(struct braid_mgmt *m, long cid, struct mgmt_bview *v);
/* Only the gateway's clients into v->c (v zeroed by the caller). 0 or -ENOMEM. */
int mgmt_bview_clients(struct braid_mgmt *m, struct mgmt_bview *v);
void mgmt_bview_free(struct mgmt_bview *v);
/* The slot the ratio scheduler knows path p by: its own, or (a learned path) the peer's; -1 none. */
int mgmt_bview_slot(const struct braid_mpath_path_info *p);
/* The ratio weights of dp's scheduler now (*n 0: not `ratio`). */
void mgmt_bview_weights(struct braid_dp *dp, uint32_t *ratio, unsigned *n);

struct braid_mp_wnames;
/* Whether the scheduler is ratio by name ("ratio wlan0=3 lte0=1"); its weights into wn unless NULL. */
bool mgmt_bview_named(struct braid_dp *dp, struct braid_mp_wnames *wn);

#endif /* BRAID_MGMT_BRAID_VIEW_H */
