/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * session_types.h - the types and constants of the control-channel session API
 * (config, events, key derivation methods, stats, rejection reasons), apart
 * from its functions so the library-internal headers (session_int.h) can use
 * them without including session.h. Includes nothing of the session family.
 * Users include session.h, which includes this.
 */
#ifndef BRAID_CTL_SESSION_TYPES_H
#define BRAID_CTL_SESSION_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/ssl.h>

#include "pkt.h"
#include "static_key.h"

#define BRAID_CTLS_WRAP_NONE 0
#define BRAID_CTLS_WRAP_AUTH 1  /* --tls-auth */
#define BRAID_CTLS_WRAP_CRYPT 2 /* --tls-crypt */

#define BRAID_CTLS_TEXT_MAX 2048 /* one control message (TLS_CHANNEL_BUF_SIZE) */
#define BRAID_CTLS_TLS_MTU 1250  /* default --tls-mtu, incl. 28 B IPv4/UDP headers */
#define BRAID_CTLS_NEVER INT64_MAX

struct braid_ctls_config {
	bool server;
	SSL_CTX *ssl_ctx;                   /* from braid_tls_ctx_new; not owned */
	int wrap;                           /* BRAID_CTLS_WRAP_* */
	const struct braid_key2 *wrap_key;  /* tls-auth / tls-crypt key (copied) */
	int key_direction;                  /* tls-auth: BRAID_KEY_DIR_* (server 0, client 1) */
	const char *auth_digest;            /* tls-auth HMAC (--auth), NULL = "SHA1" */
	bool tcp;                           /* stream transport (caller frames with pkt.h) */
	unsigned hand_window_s;             /* 0 = 60 */
	unsigned tls_timeout_s;             /* first retransmission, 0 = 2 */
	unsigned reneg_sec;                 /* 0 = 3600; UINT32_MAX = never */
	unsigned tran_window_s;             /* lame-duck lifetime, 0 = 3600 */
	uint64_t reneg_bytes, reneg_pkts;   /* 0 = off; see braid_ctls_data_counters */
	uint32_t replay_window, replay_time;/* tls-auth/crypt replay window, 0 = 64 / 15 s */
	unsigned tls_mtu;                   /* 0 = 1250 */
	const char *options_string;         /* OCC string sent in key-method-2 */
	const char *peer_info;              /* client: "IV_VER=...\nIV_PROTO=...\n" */
	const char *username, *password;    /* client auth-user-pass; NULL = none */
};

enum braid_ctls_event_type {
	BRAID_CTLS_EV_NONE = 0,
	BRAID_CTLS_EV_KEYS_READY,  /* key_id: TLS + key-method-2 done; derive may be called */
	BRAID_CTLS_EV_TEXT,        /* text: one control message (PUSH_REPLY, AUTH_FAILED, ...) */
	BRAID_CTLS_EV_KEY_EXPIRED, /* key_id: lame duck past tran-window (or replaced): remove from dc */
	BRAID_CTLS_EV_ERROR,       /* text: reason; fatal: the session is unusable */
	BRAID_CTLS_EV_SOFT_RESET,  /* key_id: a renegotiation started (by us or the peer) */
};

struct braid_ctls_event {
	enum braid_ctls_event_type type;
	uint8_t key_id;
	bool fatal;
	char text[BRAID_CTLS_TEXT_MAX + 1];
};

enum braid_ctls_kdf {
	BRAID_CTLS_KDF_EKM = 0, /* TLS-EKM "EXPORTER-OpenVPN-datakeys" (pushed tls-ekm) */
	BRAID_CTLS_KDF_PRF,     /* OpenVPN PRF from the key-method-2 randoms */
};

struct braid_ctls_stats {
	uint64_t rx_packets, tx_packets;
	uint64_t rx_dropped;        /* rejected by braid_ctls_input (any reason) */
	uint64_t rx_auth_failed;    /* tls-auth / tls-crypt verification failed */
	uint64_t rx_replay;         /* replay window */
	uint64_t retransmits;
	uint64_t events_dropped;    /* event queue (64) full: TEXT dropped first */
	unsigned renegotiations;    /* soft resets completed */
	unsigned key_states;        /* live key states (incl. lame duck, negotiating) */
};

/*
 * What kind of rejection the last failed braid_ctls_input (or cookie check)
 * was, so the caller can count and log it as stock does: the wrap's
 * verification (tls-auth HMAC / tls-crypt tag), its replay window, an opcode
 * no OpenVPN 2.6 peer sends, a malformed packet, or anything else (a wrong
 * session id, outside the reliability window, …).
 */
enum braid_ctls_reason {
	BRAID_CTLS_R_NONE,
	BRAID_CTLS_R_WRAP,
	BRAID_CTLS_R_REPLAY,
	BRAID_CTLS_R_OPCODE,
	BRAID_CTLS_R_MALFORMED,
	BRAID_CTLS_R_OTHER,
};

#endif /* BRAID_CTL_SESSION_TYPES_H */
