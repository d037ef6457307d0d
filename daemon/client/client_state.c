// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_state.c - the TLS client's clocks and its requests to leave the
 * event loop (client_state.h); client.c acts on the request when
 * ev_run returns. Calls nothing of the other client_*.c files.
 */
#include "client/client_state.h"

#include <time.h>

#include <ev.h>

int64_t client_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t client_mono_sec(void)
{
	return client_now_ms() / 1000;
}

void client_request_restart(struct braid_client *c, const char *why, bool advance)
{
	if (c->restart_reason || c->exit_req)
		return;
	c->restart_reason = why;
	c->advance = advance;
	ev_break(c->loop, EVBREAK_ONE);
}

void client_request_exit(struct braid_client *c, int code)
{
	c->exit_req = true;
	c->exit_code = code;
	ev_break(c->loop, EVBREAK_ONE);
}
