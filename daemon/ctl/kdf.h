/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kdf.h - data-channel key derivation: the OpenVPN PRF (TLS 1.0 PRF with
 * the key-method-2 randoms) and TLS-EKM. Both produce the 256-byte key2 in
 * the layout daemon/dc expects (static_key.h; the client uses it NORMAL,
 * the server INVERSE).
 *
 *   master[48] = PRF(client.pre_master,
 *                    "OpenVPN master secret" | client.random1 | server.random1)
 *   K[256]     = PRF(master, "OpenVPN key expansion" | client.random2 |
 *                    server.random2 | client_sid | server_sid)
 *   PRF        = P_MD5(S1, seed) XOR P_SHA1(S2, seed)   (OpenSSL "TLS1-PRF", MD5-SHA1)
 *
 *   EKM: SSL_export_keying_material(ssl, K, 256, "EXPORTER-OpenVPN-datakeys",
 *        no context)
 */
#ifndef BRAID_CTL_KDF_H
#define BRAID_CTL_KDF_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/ssl.h>

#include "static_key.h"

#define BRAID_KDF_PRE_MASTER_LEN 48
#define BRAID_KDF_RANDOM_LEN 32
#define BRAID_KDF_MASTER_LEN 48
#define BRAID_KDF_EKM_LABEL "EXPORTER-OpenVPN-datakeys"

/* TLS 1.0/1.1 PRF: out = PRF(secret, seed). -EINVAL, -EIO (e.g. MD5 unavailable). */
int braid_kdf_tls1_prf(const uint8_t *secret, size_t secret_len, const uint8_t *seed,
		       size_t seed_len, uint8_t *out, size_t out_len);

struct braid_kdf_prf_in {
	uint8_t pre_master[BRAID_KDF_PRE_MASTER_LEN]; /* the client's */
	uint8_t client_random1[BRAID_KDF_RANDOM_LEN], client_random2[BRAID_KDF_RANDOM_LEN];
	uint8_t server_random1[BRAID_KDF_RANDOM_LEN], server_random2[BRAID_KDF_RANDOM_LEN];
	uint8_t client_sid[8], server_sid[8];
};

/* key2 by the OpenVPN PRF. 0, -EIO. */
int braid_kdf_openvpn_prf(const struct braid_kdf_prf_in *in, struct braid_key2 *out);

/* key2 by TLS-EKM from an established SSL. -EINVAL (no session), -EIO. */
int braid_kdf_ekm(SSL *ssl, struct braid_key2 *out);

#endif /* BRAID_CTL_KDF_H */
