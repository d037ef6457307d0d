/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * session_text.h - text messages of a session (session_text.c),
 * library-internal. ctls_text_split and ctls_text_write do the work of
 * braid_ctls_text_split and braid_ctls_send_text (session.h).
 */
#ifndef BRAID_CTL_SESSION_TEXT_H
#define BRAID_CTL_SESSION_TEXT_H

#include <stddef.h>

#include "session_int.h"

/* One TLS record from the peer: a TEXT event per message; invalid ones set the last error. */
void ctls_record_to_text(struct braid_ctls *s, struct key_state *ks, char *rec, size_t len);
/* braid_ctls_text_split: split a record on NUL (see session.h); returns the invalid count. */
int ctls_text_split(char *rec, size_t len, void (*cb)(void *arg, const char *msg), void *arg);
/*
 * Write msg NUL-terminated as one TLS record on ks: 0, -EMSGSIZE (> 2047),
 * -EINVAL (a control character), or braid_tls_write_record's error
 * (-EPROTO: the caller fails the key).
 */
int ctls_text_write(struct key_state *ks, const char *msg);

#endif /* BRAID_CTL_SESSION_TEXT_H */
