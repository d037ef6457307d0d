// SPDX-License-Identifier: GPL-2.0-only
/*
 * kdf.c - OpenVPN data-key derivation (OpenVPN PRF and TLS-EKM).
 */
#include "kdf.h"

#include <errno.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

int braid_kdf_tls1_prf(const uint8_t *secret, size_t secret_len, const uint8_t *seed,
		       size_t seed_len, uint8_t *out, size_t out_len)
{
	OSSL_PARAM params[4];
	EVP_KDF_CTX *ctx;
	EVP_KDF *kdf;
	int ret = -EIO;

	if (!secret || !seed || !seed_len || !out || !out_len)
		return -EINVAL;
	kdf = EVP_KDF_fetch(NULL, "TLS1-PRF", NULL);
	if (!kdf)
		return -EIO;
	ctx = EVP_KDF_CTX_new(kdf);
	if (!ctx)
		goto out_kdf;
	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)"MD5-SHA1", 0);
	params[1] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SECRET, (void *)secret,
						      secret_len);
	params[2] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SEED, (void *)seed, seed_len);
	params[3] = OSSL_PARAM_construct_end();
	if (EVP_KDF_derive(ctx, out, out_len, params) == 1)
		ret = 0;
	EVP_KDF_CTX_free(ctx);
out_kdf:
	EVP_KDF_free(kdf);
	return ret;
}

static const char master_label[] = "OpenVPN master secret";
static const char expand_label[] = "OpenVPN key expansion";

int braid_kdf_openvpn_prf(const struct braid_kdf_prf_in *in, struct braid_key2 *out)
{
	uint8_t seed[sizeof(expand_label) - 1 + 2 * BRAID_KDF_RANDOM_LEN + 16];
	uint8_t master[BRAID_KDF_MASTER_LEN];
	size_t n = 0;
	int ret;

	memcpy(seed, master_label, sizeof(master_label) - 1);
	n = sizeof(master_label) - 1;
	memcpy(seed + n, in->client_random1, BRAID_KDF_RANDOM_LEN);
	n += BRAID_KDF_RANDOM_LEN;
	memcpy(seed + n, in->server_random1, BRAID_KDF_RANDOM_LEN);
	n += BRAID_KDF_RANDOM_LEN;
	ret = braid_kdf_tls1_prf(in->pre_master, sizeof(in->pre_master), seed, n, master,
				 sizeof(master));
	if (ret)
		goto out;
	memcpy(seed, expand_label, sizeof(expand_label) - 1);
	n = sizeof(expand_label) - 1;
	memcpy(seed + n, in->client_random2, BRAID_KDF_RANDOM_LEN);
	n += BRAID_KDF_RANDOM_LEN;
	memcpy(seed + n, in->server_random2, BRAID_KDF_RANDOM_LEN);
	n += BRAID_KDF_RANDOM_LEN;
	memcpy(seed + n, in->client_sid, 8);
	n += 8;
	memcpy(seed + n, in->server_sid, 8);
	n += 8;
	ret = braid_kdf_tls1_prf(master, sizeof(master), seed, n, out->k, sizeof(out->k));
out:
	OPENSSL_cleanse(master, sizeof(master));
	OPENSSL_cleanse(seed, sizeof(seed));
	return ret;
}

int braid_kdf_ekm(SSL *ssl, struct braid_key2 *out)
{
	if (!ssl || !SSL_get_session(ssl))
		return -EINVAL;
	if (SSL_export_keying_material(ssl, out->k, sizeof(out->k), BRAID_KDF_EKM_LABEL,
				       sizeof(BRAID_KDF_EKM_LABEL) - 1, NULL, 0, 0) != 1) {
		OPENSSL_cleanse(out, sizeof(*out));
		return -EIO;
	}
	return 0;
}
