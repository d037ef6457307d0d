/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mgmt_remote.h - the management commands about the client's remote list
 * and its gateway's pending authentication (mgmt_remote.c):
 * `remote-entry-count`, `remote-entry-get i|all [j]`, `remote ACCEPT|SKIP|MOD`
 * (the answer to a `>REMOTE:` query, management-query-remote) and
 * `client-pending-auth CID KID EXTRA TIMEOUT`, with stock 2.6.14's replies.
 */
#ifndef BRAID_MGMT_REMOTE_H
#define BRAID_MGMT_REMOTE_H

#include "control/mgmt_int.h"

/* The command words it serves (argv[0]): true if it answered. */
bool mgmt_remote_cmd(struct mgmt_conn *k, const struct braid_mgmt_argv *a);

#endif /* BRAID_MGMT_REMOTE_H */
