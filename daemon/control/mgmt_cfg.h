/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mgmt_cfg.h - the management interface's settings taken from the options
 * (mgmt_cfg.c), the one place each role's `management*` directives become
 * a struct braid_mgmt_cfg (the interface itself never reads the options).
 */
#ifndef BRAID_MGMT_CFG_H
#define BRAID_MGMT_CFG_H

#include "config/options.h"
#include "control/mgmt_types.h"

/* Fill *cfg from o: listener, password file, client user/group, hold, password query, client-auth, log cache. */
void braid_mgmt_cfg_from_options(struct braid_mgmt_cfg *cfg, const struct braid_options *o);

#endif /* BRAID_MGMT_CFG_H */
