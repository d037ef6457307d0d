// SPDX-License-Identifier: GPL-2.0-only
/*
 * aead.c - AEAD cipher abstraction (libsodium / OpenSSL 3 EVP backends).
 */
#include "aead.h"
#include "dclog.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/evp.h>
#include <sodium.h>

struct braid_aead {
	/* First: libsodium wants the AES state 16-byte aligned. */
	crypto_aead_aes256gcm_state aes_state;
	enum braid_aead_cipher cipher;
	enum braid_aead_backend backend; /* SODIUM or OPENSSL, never AUTO */
	uint8_t key[BRAID_AEAD_MAX_KEY_LEN];
	EVP_CIPHER_CTX *enc;
	EVP_CIPHER_CTX *dec;
};

static const struct {
	const char *name;
	enum braid_aead_cipher cipher;
	size_t key_len;
} ciphers[] = {
	{ "AES-256-GCM", BRAID_AEAD_AES_256_GCM, 32 },
	{ "AES-128-GCM", BRAID_AEAD_AES_128_GCM, 16 },
	{ "CHACHA20-POLY1305", BRAID_AEAD_CHACHA20_POLY1305, 32 },
};

int braid_aead_cipher_from_name(const char *name, enum braid_aead_cipher *out)
{
	for (size_t i = 0; name && i < sizeof(ciphers) / sizeof(ciphers[0]); i++) {
		if (strcasecmp(name, ciphers[i].name) == 0) {
			*out = ciphers[i].cipher;
			return 0;
		}
	}
	braid_dc_log(BRAID_DC_LOG_ERR,
		     "unsupported data-channel cipher '%s' (supported: AES-256-GCM, AES-128-GCM, CHACHA20-POLY1305)",
		     name ? name : "(null)");
	return -EINVAL;
}

const char *braid_aead_cipher_name(enum braid_aead_cipher c)
{
	for (size_t i = 0; i < sizeof(ciphers) / sizeof(ciphers[0]); i++)
		if (ciphers[i].cipher == c)
			return ciphers[i].name;
	return "?";
}

size_t braid_aead_key_len(enum braid_aead_cipher c)
{
	for (size_t i = 0; i < sizeof(ciphers) / sizeof(ciphers[0]); i++)
		if (ciphers[i].cipher == c)
			return ciphers[i].key_len;
	return 0;
}

const char *braid_aead_backend_name(const struct braid_aead *a)
{
	return a->backend == BRAID_AEAD_BACKEND_SODIUM ? "libsodium" : "openssl";
}

static const EVP_CIPHER *evp_cipher(enum braid_aead_cipher c)
{
	switch (c) {
	case BRAID_AEAD_AES_256_GCM:
		return EVP_aes_256_gcm();
	case BRAID_AEAD_AES_128_GCM:
		return EVP_aes_128_gcm();
	case BRAID_AEAD_CHACHA20_POLY1305:
		return EVP_chacha20_poly1305();
	}
	return NULL;
}

static void log_backend_once(enum braid_aead_cipher c, enum braid_aead_backend b)
{
	static bool logged[3][3];

	if (logged[c][b])
		return;
	logged[c][b] = true;
	if (c == BRAID_AEAD_AES_256_GCM && b == BRAID_AEAD_BACKEND_OPENSSL &&
	    !crypto_aead_aes256gcm_is_available())
		braid_dc_log(BRAID_DC_LOG_INFO,
			     "AES-256-GCM: using OpenSSL EVP (libsodium AES-GCM needs AES-NI+PCLMUL, not available on this CPU)");
	else
		braid_dc_log(BRAID_DC_LOG_INFO, "%s: using %s", braid_aead_cipher_name(c),
			     b == BRAID_AEAD_BACKEND_SODIUM ? "libsodium" : "OpenSSL EVP");
}

static int choose_backend(enum braid_aead_cipher c, enum braid_aead_backend want,
			  enum braid_aead_backend *out)
{
	bool sodium_ok;

	switch (c) {
	case BRAID_AEAD_AES_256_GCM:
		sodium_ok = crypto_aead_aes256gcm_is_available();
		break;
	case BRAID_AEAD_CHACHA20_POLY1305:
		sodium_ok = true;
		break;
	default:
		sodium_ok = false;
		break;
	}
	if (want == BRAID_AEAD_BACKEND_AUTO)
		want = sodium_ok ? BRAID_AEAD_BACKEND_SODIUM : BRAID_AEAD_BACKEND_OPENSSL;
	if (want == BRAID_AEAD_BACKEND_SODIUM && !sodium_ok) {
		braid_dc_log(BRAID_DC_LOG_ERR, "%s: libsodium backend not available%s",
			     braid_aead_cipher_name(c),
			     c == BRAID_AEAD_AES_256_GCM ? " (CPU lacks AES-NI/PCLMUL)" : "");
		return -ENOTSUP;
	}
	*out = want;
	return 0;
}

static int evp_setup(struct braid_aead *a, EVP_CIPHER_CTX **ctxp, int enc)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

	if (!ctx)
		return -ENOMEM;
	if (EVP_CipherInit_ex(ctx, evp_cipher(a->cipher), NULL, NULL, NULL, enc) != 1 ||
	    EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, BRAID_AEAD_NONCE_LEN, NULL) != 1 ||
	    EVP_CipherInit_ex(ctx, NULL, NULL, a->key, NULL, enc) != 1) {
		EVP_CIPHER_CTX_free(ctx);
		braid_dc_log(BRAID_DC_LOG_ERR, "%s: OpenSSL cipher setup failed",
			     braid_aead_cipher_name(a->cipher));
		return -EIO;
	}
	*ctxp = ctx;
	return 0;
}

int braid_aead_new(struct braid_aead **out, enum braid_aead_cipher c,
		   enum braid_aead_backend backend, const uint8_t *key, size_t key_len)
{
	struct braid_aead *a;
	enum braid_aead_backend b;
	int ret;

	if (sodium_init() < 0)
		return -EIO;
	if (braid_aead_key_len(c) == 0 || key_len != braid_aead_key_len(c)) {
		braid_dc_log(BRAID_DC_LOG_ERR, "%s: key must be %zu bytes, got %zu",
			     braid_aead_cipher_name(c), braid_aead_key_len(c), key_len);
		return -EINVAL;
	}
	ret = choose_backend(c, backend, &b);
	if (ret)
		return ret;

	a = aligned_alloc(64, (sizeof(*a) + 63) & ~(size_t)63);
	if (!a)
		return -ENOMEM;
	memset(a, 0, sizeof(*a));
	a->cipher = c;
	a->backend = b;
	memcpy(a->key, key, key_len);

	if (b == BRAID_AEAD_BACKEND_SODIUM) {
		if (c == BRAID_AEAD_AES_256_GCM &&
		    crypto_aead_aes256gcm_beforenm(&a->aes_state, a->key) != 0) {
			ret = -EIO;
			goto err_free;
		}
	} else {
		ret = evp_setup(a, &a->enc, 1);
		if (ret)
			goto err_free;
		ret = evp_setup(a, &a->dec, 0);
		if (ret)
			goto err_enc;
	}
	log_backend_once(c, b);
	*out = a;
	return 0;

err_enc:
	EVP_CIPHER_CTX_free(a->enc);
err_free:
	sodium_memzero(a, sizeof(*a));
	free(a);
	return ret;
}

void braid_aead_free(struct braid_aead *a)
{
	if (!a)
		return;
	/* EVP_CIPHER_CTX_free cleanses the expanded key it holds. */
	EVP_CIPHER_CTX_free(a->enc);
	EVP_CIPHER_CTX_free(a->dec);
	sodium_memzero(a, sizeof(*a));
	free(a);
}

static int evp_seal(struct braid_aead *a, const uint8_t *nonce, const uint8_t *ad, size_t ad_len,
		    const uint8_t *pt, size_t pt_len, uint8_t *ct, uint8_t *tag)
{
	int outl;

	if (EVP_EncryptInit_ex(a->enc, NULL, NULL, NULL, nonce) != 1)
		return -EIO;
	if (ad_len && EVP_EncryptUpdate(a->enc, NULL, &outl, ad, (int)ad_len) != 1)
		return -EIO;
	if (pt_len && EVP_EncryptUpdate(a->enc, ct, &outl, pt, (int)pt_len) != 1)
		return -EIO;
	if (EVP_EncryptFinal_ex(a->enc, ct + pt_len, &outl) != 1 ||
	    EVP_CIPHER_CTX_ctrl(a->enc, EVP_CTRL_AEAD_GET_TAG, BRAID_AEAD_TAG_LEN, tag) != 1)
		return -EIO;
	return 0;
}

static int evp_open(struct braid_aead *a, const uint8_t *nonce, const uint8_t *ad, size_t ad_len,
		    const uint8_t *ct, size_t ct_len, const uint8_t *tag, uint8_t *pt)
{
	uint8_t tagcopy[BRAID_AEAD_TAG_LEN];
	int outl;

	/* The tag may sit in the buffer we decrypt into: copy it first. */
	memcpy(tagcopy, tag, sizeof(tagcopy));
	if (EVP_DecryptInit_ex(a->dec, NULL, NULL, NULL, nonce) != 1)
		return -EIO;
	if (ad_len && EVP_DecryptUpdate(a->dec, NULL, &outl, ad, (int)ad_len) != 1)
		return -EIO;
	if (ct_len && EVP_DecryptUpdate(a->dec, pt, &outl, ct, (int)ct_len) != 1)
		return -EIO;
	if (EVP_CIPHER_CTX_ctrl(a->dec, EVP_CTRL_AEAD_SET_TAG, BRAID_AEAD_TAG_LEN, tagcopy) != 1)
		return -EIO;
	if (EVP_DecryptFinal_ex(a->dec, pt + ct_len, &outl) != 1) {
		if (ct_len)
			sodium_memzero(pt, ct_len);
		return -EBADMSG;
	}
	return 0;
}

int braid_aead_seal(struct braid_aead *a, const uint8_t nonce[BRAID_AEAD_NONCE_LEN],
		    const uint8_t *ad, size_t ad_len, const uint8_t *pt, size_t pt_len,
		    uint8_t *ct, uint8_t tag[BRAID_AEAD_TAG_LEN])
{
	if (pt_len > INT_MAX - 64 || ad_len > INT_MAX)
		return -EMSGSIZE;
	if (a->backend == BRAID_AEAD_BACKEND_OPENSSL)
		return evp_seal(a, nonce, ad, ad_len, pt, pt_len, ct, tag);
	if (a->cipher == BRAID_AEAD_AES_256_GCM)
		crypto_aead_aes256gcm_encrypt_detached_afternm(ct, tag, NULL, pt, pt_len, ad, ad_len,
								NULL, nonce, &a->aes_state);
	else
		crypto_aead_chacha20poly1305_ietf_encrypt_detached(ct, tag, NULL, pt, pt_len, ad,
								    ad_len, NULL, nonce, a->key);
	return 0;
}

int braid_aead_open(struct braid_aead *a, const uint8_t nonce[BRAID_AEAD_NONCE_LEN],
		    const uint8_t *ad, size_t ad_len, const uint8_t *ct, size_t ct_len,
		    const uint8_t tag[BRAID_AEAD_TAG_LEN], uint8_t *pt)
{
	int r;

	if (ct_len > INT_MAX - 64 || ad_len > INT_MAX)
		return -EMSGSIZE;
	if (a->backend == BRAID_AEAD_BACKEND_OPENSSL)
		return evp_open(a, nonce, ad, ad_len, ct, ct_len, tag, pt);
	if (a->cipher == BRAID_AEAD_AES_256_GCM)
		r = crypto_aead_aes256gcm_decrypt_detached_afternm(pt, NULL, ct, ct_len, tag, ad,
								    ad_len, nonce, &a->aes_state);
	else
		r = crypto_aead_chacha20poly1305_ietf_decrypt_detached(pt, NULL, ct, ct_len, tag,
								       ad, ad_len, nonce, a->key);
	if (r != 0) {
		if (ct_len)
			sodium_memzero(pt, ct_len);
		return -EBADMSG;
	}
	return 0;
}
