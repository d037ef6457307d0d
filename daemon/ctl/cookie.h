/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cookie.h - the OpenVPN 2.6 UDP server's stateless HMAC cookie (fact sheet
 * §1.5): answer HARD_RESET_CLIENT_V2 without allocating anything, create the
 * session only when the client's next packet ACKs our reset with the cookie
 * session id.
 *
 *   server sid = HMAC-SHA256(secret, u32 BE slot | client address | client sid)[0..8)
 *   slot       = now_s / ((hand_window_s + 1) / 2); accepted: slot-2 .. slot+1
 *
 * The client address is opaque bytes chosen by the caller (e.g. the
 * sockaddr_in/in6 with zeroed padding); the same bytes must be passed to the
 * reply and to the check. The cookie object holds only configuration (the
 * secret and the wrap keys): nothing in it depends on received packets.
 * The wrap (tls-auth/tls-crypt) is verified first and without touching a
 * replay window.
 */
#ifndef BRAID_CTL_COOKIE_H
#define BRAID_CTL_COOKIE_H

#include <stddef.h>
#include <stdint.h>

#include "session.h"

#define BRAID_COOKIE_SECRET_LEN 32

struct braid_ctls_cookie;

struct braid_ctls_cookie_stats {
	uint64_t replies;    /* server resets sent */
	uint64_t accepted;   /* sessions created */
	uint64_t rejected;   /* anything else */
};

/*
 * cfg: the server session config (wrap, key, digest, hand_window_s) that
 * braid_ctls_new_from_cookie will use. secret: NULL = random from the CSPRNG.
 * -EINVAL (reason in err), -ENOMEM.
 */
int braid_ctls_cookie_new(struct braid_ctls_cookie **out, const struct braid_ctls_config *cfg,
			  const uint8_t secret[BRAID_COOKIE_SECRET_LEN], char *err, size_t errlen);
/* Wipes the secret. NULL is fine. */
void braid_ctls_cookie_free(struct braid_ctls_cookie *c);

/*
 * If pkt is an authentic HARD_RESET_CLIENT_V2 (key_id 0, msg_pid 0, no ACKs),
 * write the HARD_RESET_SERVER_V2 answer into out: 0. Otherwise -EBADMSG,
 * -EPROTO (another opcode: see braid_ctls_cookie_is_reset), -ENOBUFS; why
 * (may be NULL) names the problem. now_s: unix time in seconds.
 */
int braid_ctls_cookie_reply(struct braid_ctls_cookie *c, const uint8_t *pkt, size_t len,
			    const void *addr, size_t addrlen, int64_t now_s, uint8_t *out,
			    size_t cap, size_t *olen, const char **why);

/*
 * Create the server session from the client's third packet (P_ACK_V1 or
 * P_CONTROL_V1, key_id 0) that ACKs message 0 with a valid cookie session
 * id for this address, and process the packet. -EBADMSG (not authentic, no
 * such ACK, cookie invalid or expired), -EPROTO, -ENOMEM; why names it.
 * now_s as above, now_ms: the session clock.
 */
int braid_ctls_new_from_cookie(struct braid_ctls **out, struct braid_ctls_cookie *c,
			       const uint8_t *pkt, size_t len, const void *addr, size_t addrlen,
			       int64_t now_s, int64_t now_ms, const char **why);

/* Opcode of an unauthenticated packet's first byte (for routing): true for HARD_RESET_CLIENT_V2. */
bool braid_ctls_cookie_is_reset(const uint8_t *pkt, size_t len);

/* The kind of the last rejection by braid_ctls_cookie_reply / braid_ctls_new_from_cookie. */
enum braid_ctls_reason braid_ctls_cookie_last_reason(const struct braid_ctls_cookie *c);

void braid_ctls_cookie_stats(const struct braid_ctls_cookie *c, struct braid_ctls_cookie_stats *st);

#endif /* BRAID_CTL_COOKIE_H */
