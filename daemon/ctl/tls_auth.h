/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tls_auth.h - OpenVPN --tls-auth: HMAC wrapping of control packets.
 *
 *   wire = op(1) | own_sid(8) | HMAC(hlen) | replay_pid(4 BE) | replay_time(4 BE) | inner
 *   HMAC = HMAC-<--auth>(Kout, replay_pid | replay_time | op | own_sid | inner)
 *
 * Kout/Kin = the first hlen bytes of the hmac slot chosen by the key
 * direction (static_key.h: 0 = NORMAL (server), 1 = INVERSE (client), or
 * bidirectional). The replay packet-id is the long form: a u32 counter from 1
 * plus the u32 unix time of its first use, +1 for every transmission,
 * including retransmissions. The receiver checks it with the --replay-window
 * rules (dc/replay.h) after the HMAC verified.
 *
 * wrap/unwrap take and return the plain packet (op | own_sid | inner,
 * pkt.h). Errors of unwrap: -EBADMSG (too short, or HMAC mismatch: the
 * packet is not authentic), -EPROTO (not a control opcode), -EALREADY /
 * -ESTALE (replay), -ENOBUFS. ctx->why names the last problem.
 */
#ifndef BRAID_CTL_TLS_AUTH_H
#define BRAID_CTL_TLS_AUTH_H

#include <stddef.h>
#include <stdint.h>

#include "hmac.h"
#include "replay.h"
#include "static_key.h"

#define BRAID_TLS_AUTH_DIGEST_MAX 32

/* flags for unwrap */
#define BRAID_UNWRAP_NO_REPLAY 0x1 /* verify only; do not check or record the replay id */

struct braid_tls_auth {
	char digest[BRAID_TLS_AUTH_DIGEST_MAX];
	size_t hlen;
	uint8_t key_out[BRAID_HMAC_MAX];
	uint8_t key_in[BRAID_HMAC_MAX];
	uint32_t tx_pid;  /* last replay id sent (0 = none yet) */
	uint32_t tx_time; /* time of the current sequence */
	struct braid_replay replay;
	uint32_t rx_pid, rx_time; /* replay fields of the last unwrapped packet */
	const char *why;
};

/*
 * digest: --auth name ("SHA1" default when NULL, "SHA256", "SHA512", ...);
 * direction: BRAID_KEY_DIR_*; replay_window/replay_time: --replay-window
 * (64/15 by default). -EINVAL (digest/direction), -ENOMEM.
 */
int braid_tls_auth_init(struct braid_tls_auth *c, const struct braid_key2 *key, int direction,
			const char *digest, uint32_t replay_window, uint32_t replay_time);
void braid_tls_auth_free(struct braid_tls_auth *c);

/* Bytes tls-auth adds to a plain packet: hlen + 8. */
size_t braid_tls_auth_overhead(const struct braid_tls_auth *c);

/* Set the next replay id to send (id >= 1) and its time; for the stateless
 * server reset (always id 1) and for tests. */
void braid_tls_auth_set_tx(struct braid_tls_auth *c, uint32_t next_pid, uint32_t time);

/* now = unix time (seconds): starts a replay-id sequence. -EINVAL, -ENOBUFS. */
int braid_tls_auth_wrap(struct braid_tls_auth *c, const uint8_t *plain, size_t len,
			int64_t now, uint8_t *out, size_t cap, size_t *olen);
/* now = seconds (unix or monotonic) for the replay time rule. */
int braid_tls_auth_unwrap(struct braid_tls_auth *c, const uint8_t *wire, size_t len,
			  int64_t now, unsigned flags, uint8_t *out, size_t cap, size_t *olen);

#endif /* BRAID_CTL_TLS_AUTH_H */
