/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tls_crypt.h - OpenVPN --tls-crypt: encrypt and authenticate control packets.
 *
 *   header = op(1) | own_sid(8) | replay_pid(4 BE) | replay_time(4 BE)   (17 B, clear)
 *   tag    = HMAC-SHA256(Ka, header | inner)                              (32 B)
 *   ct     = AES-256-CTR(Ke, IV = tag[0..16), inner)
 *   wire   = header | tag | ct
 *
 * Ke = the first 32 bytes of the cipher slot, Ka = the first 32 bytes of the
 * hmac slot of the direction's half of the key file (static_key.h). The
 * direction is implicit: server NORMAL (send keys[0]), client INVERSE (send
 * keys[1]). The replay id works as for tls-auth (tls_auth.h).
 *
 * wrap/unwrap take and return plain packets (pkt.h). unwrap errors: -EBADMSG
 * (too short, or tag mismatch), -EPROTO (not a control opcode), -EALREADY /
 * -ESTALE (replay), -ENOBUFS; ctx->why names the problem.
 *
 * tls-crypt-v2: only the client key file is parsed (Kc and the wrapped key
 * WKc); the V3 reset and the WKc cookie flow are not implemented and return
 * -EOPNOTSUPP.
 */
#ifndef BRAID_CTL_TLS_CRYPT_H
#define BRAID_CTL_TLS_CRYPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "replay.h"
#include "static_key.h"
#include "tls_auth.h"

#define BRAID_TLS_CRYPT_KEY_LEN 32
#define BRAID_TLS_CRYPT_TAG_LEN 32
#define BRAID_TLS_CRYPT_HDR_LEN 17
#define BRAID_TLS_CRYPT_OVERHEAD (8 + BRAID_TLS_CRYPT_TAG_LEN)
#define BRAID_TLS_CRYPT_V2_WKC_MAX 1024

struct braid_tls_crypt {
	uint8_t ke_out[BRAID_TLS_CRYPT_KEY_LEN], ka_out[BRAID_TLS_CRYPT_KEY_LEN];
	uint8_t ke_in[BRAID_TLS_CRYPT_KEY_LEN], ka_in[BRAID_TLS_CRYPT_KEY_LEN];
	uint32_t tx_pid, tx_time;
	struct braid_replay replay;
	uint32_t rx_pid, rx_time;
	const char *why;
};

/* server: true = NORMAL, false (client) = INVERSE. -ENOMEM, -EINVAL. */
int braid_tls_crypt_init(struct braid_tls_crypt *c, const struct braid_key2 *key, bool server,
			 uint32_t replay_window, uint32_t replay_time);
void braid_tls_crypt_free(struct braid_tls_crypt *c);
void braid_tls_crypt_set_tx(struct braid_tls_crypt *c, uint32_t next_pid, uint32_t time);

/* out must not overlap plain. -EINVAL, -ENOBUFS, -EIO. */
int braid_tls_crypt_wrap(struct braid_tls_crypt *c, const uint8_t *plain, size_t len,
			 int64_t now, uint8_t *out, size_t cap, size_t *olen);
/* out may equal wire (in place); flags: BRAID_UNWRAP_NO_REPLAY. */
int braid_tls_crypt_unwrap(struct braid_tls_crypt *c, const uint8_t *wire, size_t len,
			   int64_t now, unsigned flags, uint8_t *out, size_t cap, size_t *olen);

/* A parsed tls-crypt-v2 client key: Kc (a tls-crypt key2) and WKc. */
struct braid_tls_crypt_v2_client_key {
	struct braid_key2 kc;
	uint8_t wkc[BRAID_TLS_CRYPT_V2_WKC_MAX];
	size_t wkc_len;
};

/*
 * Parse "-----BEGIN OpenVPN tls-crypt-v2 client key-----" base64 "-----END
 * ...-----". Checks the WKc length field (last 2 bytes = WKc length,
 * 32 + 256 + 2 <= len <= 1024). -EINVAL with a message in err.
 */
int braid_tls_crypt_v2_client_key_parse(const char *text, size_t len,
					struct braid_tls_crypt_v2_client_key *out, char *err,
					size_t err_len);
void braid_tls_crypt_v2_client_key_wipe(struct braid_tls_crypt_v2_client_key *k);

/* Not implemented yet: -EOPNOTSUPP with the message in err. */
int braid_tls_crypt_v2_unsupported(char *err, size_t err_len);

#endif /* BRAID_CTL_TLS_CRYPT_H */
