// SPDX-License-Identifier: GPL-2.0-only
/*
 * hmac.c - HMAC over several buffers with OpenSSL 3 EVP_MAC.
 */
#include "hmac.h"

#include <errno.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>

int braid_hmac_size(const char *digest, size_t *len)
{
	EVP_MD *md;
	int n;

	if (!digest)
		return -EINVAL;
	md = EVP_MD_fetch(NULL, digest, NULL);
	if (!md)
		return -EINVAL;
	n = EVP_MD_get_size(md);
	EVP_MD_free(md);
	if (n <= 0 || n > BRAID_HMAC_MAX)
		return -EINVAL;
	*len = (size_t)n;
	return 0;
}

int braid_hmac(const char *digest, const uint8_t *key, size_t keylen,
	       const struct braid_iov *iov, unsigned niov, uint8_t out[BRAID_HMAC_MAX],
	       size_t *outlen)
{
	OSSL_PARAM params[2];
	EVP_MAC_CTX *ctx = NULL;
	EVP_MAC *mac;
	size_t n = 0;
	int ret = -EIO;

	mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	if (!mac)
		return -EIO;
	ctx = EVP_MAC_CTX_new(mac);
	if (!ctx) {
		ret = -ENOMEM;
		goto out_mac;
	}
	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)digest, 0);
	params[1] = OSSL_PARAM_construct_end();
	if (!EVP_MAC_init(ctx, key, keylen, params)) {
		ret = -EINVAL;
		goto out_ctx;
	}
	for (unsigned i = 0; i < niov; i++)
		if (iov[i].n && !EVP_MAC_update(ctx, iov[i].p, iov[i].n))
			goto out_ctx;
	if (!EVP_MAC_final(ctx, out, &n, BRAID_HMAC_MAX))
		goto out_ctx;
	*outlen = n;
	ret = 0;
out_ctx:
	EVP_MAC_CTX_free(ctx);
out_mac:
	EVP_MAC_free(mac);
	return ret;
}
