/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * session_key.h - key states of a session (session_key.c), library-internal.
 *
 * A session has at most N_KS key states: the primary (newest READY), one lame
 * duck and one negotiating. ctls_renegotiate and ctls_derive do the work of
 * braid_ctls_renegotiate and braid_ctls_derive (session.h).
 */
#ifndef BRAID_CTL_SESSION_KEY_H
#define BRAID_CTL_SESSION_KEY_H

#include <stdint.h>

#include "static_key.h"

#include "session_int.h"

/* Free what a key state holds and wipe it (state becomes KS_FREE). */
void ctls_ks_free(struct key_state *ks);
/* The key state in use with this key_id, or NULL. */
struct key_state *ctls_ks_by_id(struct braid_ctls *s, uint8_t key_id);
/* The newest READY key (data keys to send with, text goes here), or NULL. */
struct key_state *ctls_ks_primary(struct braid_ctls *s);
const struct key_state *ctls_ks_primary_c(const struct braid_ctls *s);
/* The key state still negotiating (PRE_START..KM2), if any. */
struct key_state *ctls_ks_negotiating(struct braid_ctls *s);
/* A free slot set to PRE_START for key_id, or NULL when all are in use. */
struct key_state *ctls_ks_alloc(struct braid_ctls *s, uint8_t key_id, int64_t now_ms);
/* Free a key state and count it out of st.key_states. */
void ctls_ks_release(struct braid_ctls *s, struct key_state *ks);
/* The key_id after k: 1..7, then 1 again (0 only for the first key). */
uint8_t ctls_next_key_id(uint8_t k);
/* A key state failed: ERROR event (fatal unless an older key carries on), then released. */
void ctls_ks_fail(struct braid_ctls *s, struct key_state *ks, const char *reason);
/* Advance a key state: start TLS, run the handshake, key-method-2, read records. */
void ctls_ks_progress(struct braid_ctls *s, struct key_state *ks, int64_t now_ms);
/* braid_ctls_renegotiate: a soft reset with the next key_id. -ENOTCONN, -EBUSY, -EAGAIN, -ENOMEM. */
int ctls_renegotiate(struct braid_ctls *s, int64_t now_ms);
/* braid_ctls_derive: the data-channel key2 of key_id. -ENOKEY, -EINVAL, -EIO. */
int ctls_derive(struct braid_ctls *s, unsigned key_id, enum braid_ctls_kdf method,
		struct braid_key2 *out);

#endif /* BRAID_CTL_SESSION_KEY_H */
