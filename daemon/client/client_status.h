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

/* `status FILE [N]`: OpenVPN's client status format, rewritten every N seconds (and at exit). */
void client_write_status(const struct braid_client *c);
/* OpenVPN's client statistics lines (OpenVPN STATISTICS ... Auth read bytes), without END. */
void client_status_print(const struct braid_client *c, FILE *f);
/* The status timer: rewrite the status file. */
void client_status_cb(struct ev_loop *loop, ev_timer *w, int revents);
/* Log the counters in one line, prefixed by what. */
void client_log_stats(const struct braid_client *c, const char *what);

#endif /* BRAID_CLIENT_STATUS_H */
