// SPDX-License-Identifier: GPL-2.0-only
/*
 * mgmt_cfg.c - the management interface's settings from the options
 * (mgmt_cfg.h).
 */
#include "control/mgmt_cfg.h"

#include <string.h>

void braid_mgmt_cfg_from_options(struct braid_mgmt_cfg *cfg, const struct braid_options *o)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->addr = o->mgmt_addr;
	cfg->port = (unsigned)o->mgmt_port;
	cfg->unix_sock = o->mgmt_unix;
	cfg->pwfile = o->mgmt_pwfile;
	cfg->client_user = o->mgmt_client_user;
	cfg->client_group = o->mgmt_client_group;
	cfg->hold = o->mgmt_hold;
	cfg->query_passwords = o->mgmt_query_passwords;
	cfg->client_auth = o->mgmt_client_auth;
	cfg->query_remote = o->mgmt_query_remote;
	cfg->up_down = o->mgmt_up_down;
	cfg->connect_out = o->mgmt_connect_out;
	cfg->log_cache = (unsigned)o->mgmt_log_cache;
	cfg->ctl_path = o->control_socket;
}
