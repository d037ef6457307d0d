/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_script.h - inside the gateway: the environment of client-connect /
 * client-disconnect (OpenVPN 2.6's variables) and the client-disconnect
 * scripts that outlive their client. Below the client table (gw_types.h).
 */
#ifndef BRAID_GW_SCRIPT_H
#define BRAID_GW_SCRIPT_H

#include <stdbool.h>
#include <stddef.h>

#include "gateway/gw_types.h"

/*
 * The variables OpenVPN 2.6 gives client-connect / client-disconnect into v (malloc'ed strings,
 * NULL-terminated, at most max - 1); returns how many. disconnect adds the byte counts.
 */
size_t braid_gw_client_env(const struct gw_client *c, char **v, size_t max, bool disconnect);
void braid_gw_env_free(char **v, size_t n);
/* client-disconnect for a client that was connected; runs on after the client is gone. */
void braid_gw_start_disconnect_script(struct gw_client *c);
/* Reap finished client-disconnect scripts (wait: until each has ended or timed out). */
void braid_gw_bg_poll(struct braid_gateway *g, bool wait);

#endif /* BRAID_GW_SCRIPT_H */
