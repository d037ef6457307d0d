/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * session_event.h - the event queue and last error of a session
 * (session_event.c), library-internal. ctls_next_event drains the queue for
 * braid_ctls_next_event (session.h).
 */
#ifndef BRAID_CTL_SESSION_EVENT_H
#define BRAID_CTL_SESSION_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#include "session_int.h"

/* Set the text braid_ctls_last_error returns. */
void ctls_set_error(struct braid_ctls *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * Queue an event (text copied, may be NULL). On a full queue a TEXT is dropped;
 * any other event replaces the oldest TEXT, else the oldest event.
 */
void ctls_push_event(struct braid_ctls *s, enum braid_ctls_event_type type, uint8_t key_id,
		     bool fatal, const char *text);
/* The oldest event into ev (its text wiped from the queue): 0, or -EAGAIN (none). */
int ctls_next_event(struct braid_ctls *s, struct braid_ctls_event *ev);

#endif /* BRAID_CTL_SESSION_EVENT_H */
