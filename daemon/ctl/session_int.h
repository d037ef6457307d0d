/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * session_int.h - the session struct and its key states, shared by session.c,
 * session_key.c, session_event.c and session_text.c (not part of the API).
 */
#ifndef BRAID_CTL_SESSION_INT_H
#define BRAID_CTL_SESSION_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "km2.h"
#include "reliable.h"
#include "session_types.h"
#include "tls.h"
#include "tls_auth.h"
#include "tls_crypt.h"

#define N_KS 3        /* primary, lame duck, negotiating */
#define N_EVENTS 64

enum ks_state { KS_FREE = 0, KS_PRE_START, KS_TLS, KS_KM2, KS_READY, KS_LAME };

/* The key-method-2 messages of a key state: on the heap while the key state is in use. */
struct ks_km2 {
	struct braid_km2 local, peer;
};

struct key_state {
	enum ks_state state;
	uint8_t key_id;
	bool initiator;      /* we sent the first (soft) reset of this key */
	bool got_peer_reset;
	bool km2_sent, km2_recv;
	struct braid_reliable rel;
	struct braid_tls *tls;
	struct ks_km2 *km;   /* allocated with the key state, freed when it retires */
	int64_t start_ms, ready_ms, expire_ms;
	uint64_t ready_seq; /* order of becoming READY (newest = primary) */
};

struct ev_slot {
	enum braid_ctls_event_type type;
	uint8_t key_id;
	bool fatal;
	char *text;
};

struct braid_ctls {
	bool server;
	SSL_CTX *ssl_ctx;
	int wrap;
	struct braid_tls_auth ta;
	struct braid_tls_crypt tc;
	uint8_t local_sid[BRAID_CTL_SID_LEN], remote_sid[BRAID_CTL_SID_LEN];
	bool have_remote;
	bool dead; /* a fatal error happened */

	uint32_t hand_window_ms, tls_timeout_ms, tran_window_ms;
	int64_t reneg_ms; /* -1 = never */
	uint64_t reneg_bytes, reneg_pkts, data_bytes, data_pkts;
	int64_t reneg_at;
	size_t max_payload;

	char *options, *peer_info, *username, *password;

	struct key_state ks[N_KS];

	struct ev_slot ev[N_EVENTS];
	unsigned ev_head, ev_n;

	struct braid_ctls_stats st;
	uint64_t ready_seq;
	char err[320];
	enum braid_ctls_reason reason;	/* of the last drop */
};

#endif /* BRAID_CTL_SESSION_INT_H */
