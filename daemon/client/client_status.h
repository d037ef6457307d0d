/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client_status.h - statistics of the TLS client: status file and log line (client_status.c).
 * Internal to the TLS client; the struct is in client_int.h.
 */
#ifndef BRAID_CLIENT_STATUS_H
#define BRAID_CLIENT_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "client/client_int.h"

/* Both files (SIGUSR2, exit): `status FILE [N]` in OpenVPN's client status format and `status-json`. */
void client_write_status(const struct braid_client *c);
/* `status-json FILE [N]`: the JSON status file alone (control/status.h's, role "client"). */
void client_write_status_json(const struct braid_client *c);
/* OpenVPN's client statistics lines (OpenVPN STATISTICS ... Auth read bytes), without END. */
void client_status_print(const struct braid_client *c, FILE *f);
/* The status timers: rewrite the status file, the JSON status file. */
void client_status_cb(struct ev_loop *loop, ev_timer *w, int revents);
void client_status_json_cb(struct ev_loop *loop, ev_timer *w, int revents);
/* Log the counters in one line, prefixed by what. */
void client_log_stats(const struct braid_client *c, const char *what);

#endif /* BRAID_CLIENT_STATUS_H */
