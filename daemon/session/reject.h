/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * reject.h - counting and logging packets braidd refuses, as stock OpenVPN
 * logs them ("TLS Error: incoming packet authentication failed from
 * [AF_INET]…", which fail2ban filters and admins grep for), rate-limited so
 * a flood cannot fill the disk.
 *
 * Each kind has a counter, a verb level (stock's where stock logs the same
 * event) and a window: at most BRAID_REJECT_BURST lines per kind in any
 * BRAID_REJECT_WINDOW_MS; later ones are counted and summarised once the
 * window ends ("…: N similar messages suppressed in the last 10 s").
 * The lines are listed in docs/braidd.md ("Rejected packets").
 */
#ifndef BRAID_REJECT_H
#define BRAID_REJECT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

enum braid_reject_kind {
	BRAID_REJ_HMAC,		/* tls-auth HMAC wrong (verb 1) */
	BRAID_REJ_TLS_CRYPT,	/* tls-crypt unwrap failed (verb 1) */
	BRAID_REJ_OPCODE,	/* unknown or unexpected opcode (verb 1) */
	BRAID_REJ_TCP_LENGTH,	/* stream frame length 0 or too big (verb 1) */
	BRAID_REJ_REPLAY,	/* data-channel replay (verb 2) */
	BRAID_REJ_COOKIE,	/* stale or forged cookie / no session (verb 4) */
	BRAID_REJ_UNKNOWN_PEER,	/* data packet for no session (verb 4) */
	BRAID_REJ_DATA_AUTH,	/* data-channel AEAD tag wrong (verb 3) */
	BRAID_REJ_TCP_CLOSED,	/* unauthenticated TCP connection closed (verb 1) */
	BRAID_REJ_TCP_REFUSED,	/* too many unauthenticated TCP connections (verb 3) */
	BRAID_REJ_MALFORMED,	/* anything else malformed (verb 4) */
	BRAID_REJ_UNROUTABLE,	/* a control packet of no session on a new TCP connection (verb 1) */
	BRAID_REJ_TCP_QUEUE,	/* outgoing: a client's TCP send queue full, packet dropped (verb 3) */
	BRAID_REJ__COUNT
};

#define BRAID_REJECT_BURST 10
#define BRAID_REJECT_WINDOW_MS 10000

struct braid_reject {
	uint64_t count[BRAID_REJ__COUNT];
	struct {
		int64_t start_ms;	/* window start; 0 = no window open */
		unsigned lines;		/* printed in this window */
		uint64_t suppressed;	/* not printed in this window */
	} win[BRAID_REJ__COUNT];
	/*
	 * Threads that log as one (the gateway's workers): the windows of *share are used, under
	 * *share_lk; the counters stay this struct's. NULL: this struct's windows, no lock.
	 */
	struct braid_reject *share;
	pthread_mutex_t *share_lk;
};

/* Short name of a kind ("hmac failed", …), as on the stats lines. */
const char *braid_reject_name(enum braid_reject_kind k);

/*
 * Count one rejection and log its line (printf format) unless the window's
 * burst is used up. now_ms: a monotonic clock in ms. mute: count only (e.g.
 * mute-replay-warnings).
 */
void braid_reject(struct braid_reject *r, enum braid_reject_kind k, int64_t now_ms, int mute,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Close windows that ended and log their "suppressed" summary. Call about once a second. */
void braid_reject_tick(struct braid_reject *r, int64_t now_ms);

/*
 * A control packet the session or the cookie check refused (why: an enum
 * braid_ctls_reason from braid_ctls_last_reason / braid_ctls_cookie_last_reason;
 * wrap: the session's BRAID_CTLS_WRAP_*; peer: "[AF_INET]a:p"; detail: the library's
 * reason text, logged at verb 4+): count and log it as stock does. Returns
 * the kind, or -1 for refusals that are no attack (a retransmit outside the
 * window, another session id), which are only counted by the session.
 */
int braid_reject_ctl(struct braid_reject *r, int why, int wrap,
		     const uint8_t *pkt, size_t len, const char *peer, const char *detail,
		     int64_t now_ms);

/*
 * A data packet the data channel refused as a replay (stock's "bad packet
 * ID (may be a replay)" line, verb 2); peer as above, prefix e.g. the
 * client's common name ("" for none); mute: mute-replay-warnings.
 */
void braid_reject_replay(struct braid_reject *r, const char *prefix, const char *peer,
			 const uint8_t *pkt, size_t len, int mute, int64_t now_ms);

/* The stock line for a stream frame with a bad length, and its count. */
void braid_reject_tcp_length(struct braid_reject *r, const char *peer, size_t bad_len,
			     size_t max_len, int64_t now_ms);

#endif /* BRAID_REJECT_H */
