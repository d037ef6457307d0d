/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tls.h - OpenSSL 3 TLS for the OpenVPN control channel, over memory BIOs.
 *
 * One SSL_CTX per configuration (braid_tls_ctx_new) with OpenVPN 2.6's
 * settings: TLS >= 1.2 (or tls-version-min), no session tickets, no session
 * cache, no TLS renegotiation, no SNI/ALPN, peer verification against the CA
 * (client certificate required unless verify-client-cert optional|none), CRL
 * check when a CRL is given, remote-cert-tls (EKU + KU of the peer leaf) and
 * verify-x509-name checked in the verify callback.
 *
 * One braid_tls object per key_state (key_id): the caller moves ciphertext
 * between the reliability layer and the object (put_ciphertext /
 * get_ciphertext) and calls braid_tls_handshake until it returns 0. After
 * that, each control message is exactly one TLS record: write_record sends
 * one plaintext message as ONE SSL_write (one record, <= 2048 bytes), and
 * read_record returns the plaintext of one record per call.
 *
 * Errors are -errno; braid_tls_error() and the err buffers carry a reason
 * that names the file and the OpenSSL reason ("ca.crt: no certificate or
 * crl found", "certificate verify failed: certificate has expired", ...).
 * Private keys are never logged.
 */
#ifndef BRAID_CTL_TLS_H
#define BRAID_CTL_TLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <openssl/ssl.h>

#include "static_key.h"

/* Largest control message (one record): OpenVPN TLS_CHANNEL_BUF_SIZE. */
#define BRAID_TLS_RECORD_MAX 2048
#define BRAID_TLS_CN_MAX 256
#define BRAID_TLS_SERIAL_MAX 128
#define BRAID_TLS_ERR_MAX 256

/* --remote-cert-tls: the peer leaf must carry this EKU (and a signing KU). */
enum braid_remote_cert_tls {
	BRAID_REMOTE_CERT_NONE = 0,
	BRAID_REMOTE_CERT_SERVER, /* EKU serverAuth (client checks the server) */
	BRAID_REMOTE_CERT_CLIENT, /* EKU clientAuth (server checks clients) */
};

/* --verify-x509-name NAME [type] */
enum braid_x509_name_type {
	BRAID_X509_NAME_OFF = 0,
	BRAID_X509_NAME_SUBJECT,     /* whole subject, OpenVPN "C=.., O=.., CN=.." form */
	BRAID_X509_NAME_CN,          /* "name": CN equals NAME */
	BRAID_X509_NAME_CN_PREFIX,   /* "name-prefix": CN starts with NAME */
};

/* --verify-client-cert (server only) */
enum braid_verify_client_cert {
	BRAID_VERIFY_CLIENT_REQUIRE = 0,
	BRAID_VERIFY_CLIENT_OPTIONAL,
	BRAID_VERIFY_CLIENT_NONE,
};

struct braid_tls_config {
	bool server;
	/* Either a PEM file path or inline PEM text for each; the text wins. */
	const char *ca_file, *cert_file, *key_file, *crl_file;
	const char *ca_pem, *cert_pem, *key_pem, *crl_pem;
	const char *tls_version_min;   /* "1.2" (default) or "1.3"; "or-highest" = 1.3 */
	const char *tls_version_max;   /* NULL (highest), "1.2" or "1.3" */
	const char *tls_cipher;        /* TLS <= 1.2 cipher list (SSL_CTX_set_cipher_list) */
	const char *tls_ciphersuites;  /* TLS 1.3 suites */
	const char *tls_groups;        /* e.g. "X25519:P-256" */
	enum braid_remote_cert_tls remote_cert_tls;
	const char *verify_x509_name;
	enum braid_x509_name_type verify_x509_type;
	enum braid_verify_client_cert verify_client_cert;
};

/*
 * Create the SSL_CTX. -EINVAL (bad option value), -ENOENT (file missing),
 * -EBADMSG (PEM without certificate/key, key not matching the cert), -ENOMEM,
 * -EIO; err (may be NULL) gets the reason. Free with braid_tls_ctx_free.
 */
int braid_tls_ctx_new(SSL_CTX **out, const struct braid_tls_config *cfg, char *err,
		      size_t errlen);
void braid_tls_ctx_free(SSL_CTX *ctx);

struct braid_tls;

/* A TLS object for one key_state; client or server role from the ctx. -ENOMEM. */
int braid_tls_new(struct braid_tls **out, SSL_CTX *ctx);
/* Wipes and frees; NULL is fine. */
void braid_tls_free(struct braid_tls *t);

/* Ciphertext received from the peer (CONTROL_V1 payload bytes, in order). -ENOMEM. */
int braid_tls_put_ciphertext(struct braid_tls *t, const uint8_t *buf, size_t len);
/* Bytes of ciphertext waiting to be sent. */
size_t braid_tls_pending_ciphertext(const struct braid_tls *t);
/* Take up to cap bytes of ciphertext to send: 0 (*len may be 0 = nothing). */
int braid_tls_get_ciphertext(struct braid_tls *t, uint8_t *buf, size_t cap, size_t *len);

/*
 * Drive the handshake with the ciphertext fed so far: 0 once it is complete
 * (also on later calls), -EAGAIN (needs more input; check for ciphertext to
 * send), -EPROTO (failed: braid_tls_error() has the OpenSSL reason, e.g.
 * "certificate verify failed: ..."; the object is dead).
 */
int braid_tls_handshake(struct braid_tls *t);
bool braid_tls_handshake_done(const struct braid_tls *t);

/*
 * Write one plaintext message as one TLS record. -EMSGSIZE (> 2048),
 * -EAGAIN (handshake not done), -EPROTO.
 */
int braid_tls_write_record(struct braid_tls *t, const uint8_t *msg, size_t len);
/*
 * Read the plaintext of one record: 0 (*len bytes), -EAGAIN (no complete
 * record yet), -ENOBUFS (cap too small), -ECONNRESET (peer sent close_notify),
 * -EPROTO (TLS failure).
 */
int braid_tls_read_record(struct braid_tls *t, uint8_t *buf, size_t cap, size_t *len);

/* Last error reason ("" if none). */
const char *braid_tls_error(const struct braid_tls *t);

/* After the handshake: peer certificate CN and serial (decimal); "" if no cert. */
const char *braid_tls_peer_cn(const struct braid_tls *t);
const char *braid_tls_peer_serial(const struct braid_tls *t);
/* "TLSv1.3, cipher TLS_AES_256_GCM_SHA384, ..." for the log. */
const char *braid_tls_describe(const struct braid_tls *t, char *buf, size_t cap);

/* The SSL object (for braid_kdf_ekm and the dynamic tls-crypt exporter). */
SSL *braid_tls_ssl(struct braid_tls *t);
/* Data-channel key2 by TLS-EKM (kdf.h). -EAGAIN before the handshake, -EIO. */
int braid_tls_ekm(struct braid_tls *t, struct braid_key2 *out);

#endif /* BRAID_CTL_TLS_H */
