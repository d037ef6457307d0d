/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client_setup.h - set-up of the TLS client: keys, credentials, TLS context (client_setup.c).
 * Internal to the TLS client; the struct is in client_int.h.
 */
#ifndef BRAID_CLIENT_SETUP_H
#define BRAID_CLIENT_SETUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "client/client_int.h"

/* Wipe and free a secret string; *p becomes NULL. */
void client_free_secret(char **p);
/* Load the tls-crypt or tls-auth key and its direction, if configured. 0 or -errno (logged). */
int client_load_wrap_key(struct braid_client *c);
/* Read auth-user-pass (file or inline; no prompt) into c->user / c->pass. 0 or -errno (logged). */
int client_load_user_pass(struct braid_client *c);
/*
 * The client TLS context from ca/cert/key/crl-verify and the tls-* options. 0 or -errno
 * (logged).
 */
int client_make_tls_ctx(struct braid_client *c);
/*
 * user/group/chroot (privdrop.c), called once the first connection is up (as
 * OpenVPN: the `up` script, addresses and routes of the first connection
 * as root). 0, or -errno with an exit requested.
 */
int client_drop_privileges(struct braid_client *c);

#endif /* BRAID_CLIENT_SETUP_H */
