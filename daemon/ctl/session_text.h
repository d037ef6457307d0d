/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * session_text.h - text messages of a session (session_text.c),
 * library-internal. braid_ctls_text_split and braid_ctls_send_text
 * (session.h) are implemented there too.
 */
#ifndef BRAID_CTL_SESSION_TEXT_H
#define BRAID_CTL_SESSION_TEXT_H

#include <stddef.h>

#include "session_int.h"

/* One TLS record from the peer: a TEXT event per message; invalid ones set the last error. */
void ctls_record_to_text(struct braid_ctls *s, struct key_state *ks, char *rec, size_t len);

#endif /* BRAID_CTL_SESSION_TEXT_H */
