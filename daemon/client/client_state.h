/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client_state.h - the bottom of the TLS client (client_state.c): the clocks
 * every client_*.c file uses and the requests to leave the event loop
 * (restart, exit) that any of them may make. Internal to the TLS client; the
 * struct is in client_int.h.
 */
#ifndef BRAID_CLIENT_STATE_H
#define BRAID_CLIENT_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "client/client_int.h"

/* Monotonic clock in milliseconds (the control session's time base). */
int64_t client_now_ms(void);
/* Monotonic clock in seconds (the data channel's replay-time base). */
int64_t client_mono_sec(void);
/*
 * Leave the event loop for a restart (reason logged as OpenVPN's
 * "SIGUSR1[soft,why]"); advance: then try the next remote. The first request
 * wins; none after an exit request.
 */
void client_request_restart(struct braid_client *c, const char *why, bool advance);
/* Leave the event loop and end the process with this exit code. */
void client_request_exit(struct braid_client *c, int code);

#endif /* BRAID_CLIENT_STATE_H */
