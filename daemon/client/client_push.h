/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client_push.h - applying and undoing a PUSH_REPLY (client_push.c).
 * Internal to the TLS client; the struct is in client_int.h.
 */
#ifndef BRAID_CLIENT_PUSH_H
#define BRAID_CLIENT_PUSH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "client/client_int.h"

struct braid_script_env;
/*
 * The variables of the client's up/down scripts and >UPDOWN: blocks (type "up" / "down"):
 * session/script.c's tunnel and process variables, the server's identity (common_name,
 * untrusted_ip/port, tls_id_N, X509_N_*, tls_serial_N, tls_digest_N ...) and, for
 * down, `signal`; then braidd's own environment (e->n_own marks where it starts).
 */
int client_script_env(struct braid_client *c, struct braid_script_env *e, const char *type);
/*
 * management-up-down: >UPDOWN:UP once the device, its addresses and routes are
 * set (before CONNECTED, as stock), >UPDOWN:DOWN when it goes (once per UP).
 */
void client_updown(struct braid_client *c, bool up);
/* As OpenVPN: routes and addresses go first, then the `down` script runs. */
void client_teardown_net(struct braid_client *c);
/* Apply the complete PUSH_REPLY in c->pl. 0, or -errno after a restart or exit request. */
int client_process_push(struct braid_client *c);

#endif /* BRAID_CLIENT_PUSH_H */
