/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client_sp.h - the TLS client's single-path data path (client_sp.c): open
 * it over c->dc once a key is installed, close it before c->dc goes; the
 * role sends and receives through c->sp (dataplane/backend.h).
 */
#ifndef BRAID_CLIENT_SP_H
#define BRAID_CLIENT_SP_H

#include "client/client_int.h"
#include "dataplane/backend.h"

/* Open the single-path data path over c->dc (closing an old one). 0 or -errno. */
int client_sp_open(struct braid_client *c);
/* Close it (none open is fine). */
void client_sp_close(struct braid_client *c);
/*
 * The kernel data plane (c->dco): open dp's side of the session on the
 * braid_dco device (cfg from the caller: shared_fd or mp paths), with the
 * current key installed. 0 or -errno (logged).
 */
int client_dco_open(struct braid_client *c, struct braid_dp **dp, struct braid_dp_config *cfg,
		    const struct braid_dp_role *role);
/* key_id is the session's new data key: into the kernel's data path dp (derived again from TLS). */
int client_dco_key(struct braid_client *c, struct braid_dp *dp, unsigned int key_id);

#endif /* BRAID_CLIENT_SP_H */
