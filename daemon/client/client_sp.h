/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client_sp.h - the TLS client's single-path data path (client_sp.c): open
 * it over c->dc once a key is installed, close it before c->dc goes; the
 * role sends and receives through c->sp (dataplane/backend.h).
 */
#ifndef BRAID_CLIENT_SP_H
#define BRAID_CLIENT_SP_H

#include "client/client_int.h"

/* Open the single-path data path over c->dc (closing an old one). 0 or -errno. */
int client_sp_open(struct braid_client *c);
/* Close it (none open is fine). */
void client_sp_close(struct braid_client *c);

#endif /* BRAID_CLIENT_SP_H */
