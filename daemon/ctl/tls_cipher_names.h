// SPDX-License-Identifier: GPL-2.0-only
/*
 * tls_cipher_names.h - `tls-cipher` lists in IANA spelling, as stock OpenVPN
 * accepts them: TLS-ECDHE-RSA-WITH-AES-256-GCM-SHA384 (OpenVPN's dashes) or
 * TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384 (IANA's underscores) become OpenSSL's
 * ECDHE-RSA-AES256-GCM-SHA384 before SSL_CTX_set_cipher_list(). OpenSSL's own
 * names, keywords (HIGH, !aNULL, @SECLEVEL=2, ...) pass unchanged.
 */
#ifndef BRAID_CTL_TLS_CIPHER_NAMES_H
#define BRAID_CTL_TLS_CIPHER_NAMES_H

#include <stddef.h>

/*
 * Translate the ':'-separated list in into out (outlen bytes). 0, or -E2BIG
 * when out is too small, -EINVAL when a TLS-/TLS_ name is not a TLS 1.2-or-
 * older cipher OpenSSL knows (bad names the caller reports: *bad and *badlen
 * point into in).
 */
int tls_cipher_list_to_openssl(const char *in, char *out, size_t outlen, const char **bad, size_t *badlen);

#endif
