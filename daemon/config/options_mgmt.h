/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options_mgmt.h - the management interface's directives (options_mgmt.c):
 * management, management-hold, management-query-passwords,
 * management-client-auth, management-log-cache, management-client-user,
 * management-client-group; internal to the options parser.
 */
#ifndef BRAID_OPTIONS_MGMT_H
#define BRAID_OPTIONS_MGMT_H

#include <stddef.h>

#include "config/options_int.h"

int opt_management(struct ctx *c, int argc, char **argv);
int opt_management_flag(struct ctx *c, int argc, char **argv);
int opt_management_log_cache(struct ctx *c, int argc, char **argv);
int opt_management_client_id(struct ctx *c, int argc, char **argv);

/* After all directives: a management-* option needs `management`. 0 or -EINVAL with err. */
int opt_finalize_mgmt(const struct braid_options *o, char *err, size_t err_len);

#endif /* BRAID_OPTIONS_MGMT_H */
