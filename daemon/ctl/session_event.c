// SPDX-License-Identifier: GPL-2.0-only
/*
 * session_event.c - the session's event queue (KEYS_READY, TEXT, KEY_EXPIRED,
 * ERROR, SOFT_RESET) and its last-error text (session_event.h).
 */
#include "session_event.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/crypto.h>

void ctls_set_error(struct braid_ctls *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
}

void ctls_push_event(struct braid_ctls *s, enum braid_ctls_event_type type, uint8_t key_id,
		     bool fatal, const char *text)
{
	struct ev_slot *e;

	if (s->ev_n == N_EVENTS) {
		/*
		 * The caller is not draining events. A TEXT is dropped (the newest);
		 * for any other event the oldest TEXT (else the oldest event) makes room,
		 * so KEYS_READY / KEY_EXPIRED / ERROR are not lost to a text flood.
		 */
		unsigned victim = 0;
		bool found = false;

		if (type == BRAID_CTLS_EV_TEXT) {
			s->st.events_dropped++;
			ctls_set_error(s, "event queue full: control message dropped");
			return;
		}
		for (unsigned i = 0; i < s->ev_n && !found; i++)
			if (s->ev[(s->ev_head + i) % N_EVENTS].type == BRAID_CTLS_EV_TEXT) {
				victim = i;
				found = true;
			}
		/* shift the queue over the victim */
		e = &s->ev[(s->ev_head + victim) % N_EVENTS];
		if (e->text) {
			OPENSSL_cleanse(e->text, strlen(e->text));
			free(e->text);
		}
		for (unsigned i = victim; i + 1 < s->ev_n; i++)
			s->ev[(s->ev_head + i) % N_EVENTS] = s->ev[(s->ev_head + i + 1) % N_EVENTS];
		s->ev_n--;
		s->st.events_dropped++;
	}
	e = &s->ev[(s->ev_head + s->ev_n) % N_EVENTS];
	e->type = type;
	e->key_id = key_id;
	e->fatal = fatal;
	e->text = text ? strdup(text) : NULL;
	s->ev_n++;
}

int ctls_next_event(struct braid_ctls *s, struct braid_ctls_event *ev)
{
	struct ev_slot *e;

	if (!s->ev_n)
		return -EAGAIN;
	e = &s->ev[s->ev_head];
	ev->type = e->type;
	ev->key_id = e->key_id;
	ev->fatal = e->fatal;
	ev->text[0] = 0;
	if (e->text) {
		snprintf(ev->text, sizeof(ev->text), "%s", e->text);
		OPENSSL_cleanse(e->text, strlen(e->text));
		free(e->text);
		e->text = NULL;
	}
	s->ev_head = (s->ev_head + 1) % N_EVENTS;
	s->ev_n--;
	return 0;
}
