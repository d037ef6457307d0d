/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tls_certenv.h - OpenVPN 2.6's certificate variables of a verified peer
 * (tls_certenv.c): per depth N of the chain (0 = the peer's own
 * certificate) tls_id_N (the subject), X509_N_<field> (each subject
 * field), tls_serial_N, tls_serial_hex_N, tls_digest_N (SHA-1) and
 * tls_digest_sha256_N, as stock gives them to scripts and in the
 * management interface's >CLIENT:ENV blocks.
 */
#ifndef BRAID_TLS_CERTENV_H
#define BRAID_TLS_CERTENV_H

#include <stddef.h>

#include "tls.h"

/*
 * "NAME=VALUE" strings (malloc'ed) into v[0..max), deepest first as stock
 * sets them; returns how many. 0 before the handshake or without a peer
 * certificate.
 */
size_t braid_tls_cert_env(struct braid_tls *t, char **v, size_t max);

#endif /* BRAID_TLS_CERTENV_H */
