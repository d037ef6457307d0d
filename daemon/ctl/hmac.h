/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * hmac.h - HMAC over several buffers (OpenSSL EVP_MAC), shared by tls_auth
 * and tls_crypt.
 */
#ifndef BRAID_CTL_HMAC_H
#define BRAID_CTL_HMAC_H

#include <stddef.h>
#include <stdint.h>

#define BRAID_HMAC_MAX 64

struct braid_iov {
	const uint8_t *p;
	size_t n;
};

/* Size of a digest by OpenSSL name ("SHA1", "SHA256", ...); -EINVAL if unknown or > 64. */
int braid_hmac_size(const char *digest, size_t *len);

/*
 * out = HMAC-<digest>(key[0..keylen), iov[0] | iov[1] | ...). out holds
 * BRAID_HMAC_MAX bytes; *outlen = digest size. -EINVAL, -ENOMEM, -EIO.
 */
int braid_hmac(const char *digest, const uint8_t *key, size_t keylen,
	       const struct braid_iov *iov, unsigned niov, uint8_t out[BRAID_HMAC_MAX],
	       size_t *outlen);

#endif /* BRAID_CTL_HMAC_H */
