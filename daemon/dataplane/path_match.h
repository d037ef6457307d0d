/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * path_match.h - does a name given by a user (an mp-path LOCAL in the config, a path named in a
 * management command) name a running path: its interface, or its local address (any spelling
 * inet_pton reads)? The one matcher the live reload and the management interface share.
 */
#ifndef BRAID_PATH_MATCH_H
#define BRAID_PATH_MATCH_H

#include <stdbool.h>

#include "dataplane/mpath_types.h"

bool braid_path_named(const char *name, const struct braid_mpath_path_info *p);

#endif
