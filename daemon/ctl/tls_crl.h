/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tls_crl.h - a TLS context's CRLs replaced while it runs (crl-verify read
 * again at a live reload), and a connected peer's serial checked against
 * them (tls_crl.c).
 */
#ifndef BRAID_TLS_CRL_H
#define BRAID_TLS_CRL_H

#include <stdbool.h>
#include <stddef.h>

#include <openssl/ssl.h>

/*
 * Give ctx a new certificate store: the trusted certificates of the old one
 * and the CRLs of the PEM file (or text) given; neither: no CRL check. The
 * handshakes that begin later (new clients, renegotiations) use it. 0, or
 * -errno with the reason in err (ctx unchanged); *n_crl gets the CRLs read.
 */
int braid_tls_crl_reload(SSL_CTX *ctx, const char *file, const char *pem, unsigned *n_crl,
			 char *err, size_t errlen);
/* Is the certificate serial (decimal, as braid_tls_peer_serial) on one of ctx's CRLs? */
bool braid_tls_crl_revoked(SSL_CTX *ctx, const char *serial_dec);

#endif /* BRAID_TLS_CRL_H */
