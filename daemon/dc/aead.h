/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * aead.h - AEAD cipher abstraction for the OpenVPN data channel.
 *
 * Ciphers (names as OpenVPN spells them, matched case-insensitively):
 *   AES-256-GCM        libsodium when the CPU has AES-NI + PCLMUL, else OpenSSL EVP
 *   AES-128-GCM        OpenSSL EVP (libsodium has no AES-128-GCM)
 *   CHACHA20-POLY1305  libsodium (IETF variant, 96-bit nonce)
 * All use a 12-byte nonce and a 16-byte tag, kept detached: OpenVPN puts the
 * tag in front of the ciphertext.
 *
 * A context holds one key and can seal and open. Not thread-safe (the OpenSSL
 * backend keeps per-context EVP state).
 */
#ifndef BRAID_DC_AEAD_H
#define BRAID_DC_AEAD_H

#include <stddef.h>
#include <stdint.h>

#define BRAID_AEAD_TAG_LEN 16
#define BRAID_AEAD_NONCE_LEN 12
#define BRAID_AEAD_MAX_KEY_LEN 32

enum braid_aead_cipher {
	BRAID_AEAD_AES_256_GCM,
	BRAID_AEAD_AES_128_GCM,
	BRAID_AEAD_CHACHA20_POLY1305,
};

enum braid_aead_backend {
	BRAID_AEAD_BACKEND_AUTO,    /* the fastest available (see above) */
	BRAID_AEAD_BACKEND_SODIUM,  /* -ENOTSUP where libsodium cannot */
	BRAID_AEAD_BACKEND_OPENSSL, /* always possible; for fallback and cross-checks */
};

struct braid_aead;

/* Name -> cipher. Unknown: -EINVAL and an error line naming the cipher. */
int braid_aead_cipher_from_name(const char *name, enum braid_aead_cipher *out);
const char *braid_aead_cipher_name(enum braid_aead_cipher c);
size_t braid_aead_key_len(enum braid_aead_cipher c);

/* Backend name ("libsodium" / "openssl") of a live context. */
const char *braid_aead_backend_name(const struct braid_aead *a);

/*
 * Create a context for cipher c with key (exactly braid_aead_key_len(c)
 * bytes). Returns 0, -EINVAL (bad key length), -ENOTSUP (backend cannot do
 * this cipher), -ENOMEM or -EIO (crypto library failure).
 */
int braid_aead_new(struct braid_aead **out, enum braid_aead_cipher c,
		   enum braid_aead_backend backend, const uint8_t *key, size_t key_len);
/* Wipe the key schedule and free. NULL is fine. */
void braid_aead_free(struct braid_aead *a);

/*
 * Encrypt pt_len bytes into ct (same length) and write the tag. ct may equal
 * pt (in place) but must not overlap it otherwise.
 */
int braid_aead_seal(struct braid_aead *a, const uint8_t nonce[BRAID_AEAD_NONCE_LEN],
		    const uint8_t *ad, size_t ad_len, const uint8_t *pt, size_t pt_len,
		    uint8_t *ct, uint8_t tag[BRAID_AEAD_TAG_LEN]);

/*
 * Verify the tag and decrypt ct_len bytes into pt. -EBADMSG if the tag does
 * not verify; pt is then zeroed. pt may equal ct.
 */
int braid_aead_open(struct braid_aead *a, const uint8_t nonce[BRAID_AEAD_NONCE_LEN],
		    const uint8_t *ad, size_t ad_len, const uint8_t *ct, size_t ct_len,
		    const uint8_t tag[BRAID_AEAD_TAG_LEN], uint8_t *pt);

#endif /* BRAID_DC_AEAD_H */
