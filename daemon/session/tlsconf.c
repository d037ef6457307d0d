// SPDX-License-Identifier: GPL-2.0-only
/*
 * tlsconf.c - the TLS context and the control-channel wrap from the options,
 * shared by the TLS client and the gateway (tlsconf.h).
 */
#include "session/tlsconf.h"

#include <stddef.h>

#include "util/log.h"

#define KEY_DIR_UNSET (-2)	/* as the options keep a direction not given */

static const char *blob_path(const struct braid_opt_source *s)
{
	return s->inline_text ? NULL : s->path;
}

int braid_tlsconf_ctx(const struct braid_options *o, bool server, SSL_CTX **ssl)
{
	const struct braid_opt_source *b = o->blobs;
	struct braid_tls_config cfg = {
		.server = server,
		.ca_file = blob_path(&b[BRAID_BLOB_CA]),
		.ca_pem = b[BRAID_BLOB_CA].inline_text,
		.cert_file = blob_path(&b[BRAID_BLOB_CERT]),
		.cert_pem = b[BRAID_BLOB_CERT].inline_text,
		.key_file = blob_path(&b[BRAID_BLOB_KEY]),
		.key_pem = b[BRAID_BLOB_KEY].inline_text,
		.crl_file = blob_path(&b[BRAID_BLOB_CRL_VERIFY]),
		.crl_pem = b[BRAID_BLOB_CRL_VERIFY].inline_text,
		.tls_version_min = o->tls_version_min[0] ? o->tls_version_min : NULL,
		.tls_version_max = o->tls_version_max[0] ? o->tls_version_max : NULL,
		.tls_cipher = o->tls_cipher,
		.tls_ciphersuites = o->tls_ciphersuites,
		.tls_groups = o->tls_groups,
		.remote_cert_tls = o->remote_cert_tls == BRAID_RCT_SERVER ? BRAID_REMOTE_CERT_SERVER :
				   o->remote_cert_tls == BRAID_RCT_CLIENT ? BRAID_REMOTE_CERT_CLIENT :
									    BRAID_REMOTE_CERT_NONE,
		.verify_x509_name = o->verify_x509_name,
	};
	char err[512];
	int r;

	if (server)	/* the client role leaves it at its default */
		cfg.verify_client_cert =
			o->verify_client_cert == BRAID_VCC_NONE || o->client_cert_not_required ?
				BRAID_VERIFY_CLIENT_NONE :
			o->verify_client_cert == BRAID_VCC_OPTIONAL ? BRAID_VERIFY_CLIENT_OPTIONAL :
								      BRAID_VERIFY_CLIENT_REQUIRE;
	if (o->verify_x509_name)
		cfg.verify_x509_type = o->verify_x509_type == BRAID_X509_NAME ? BRAID_X509_NAME_CN :
				       o->verify_x509_type == BRAID_X509_NAME_PREFIX ?
									  BRAID_X509_NAME_CN_PREFIX :
									  BRAID_X509_NAME_SUBJECT;
	r = braid_tls_ctx_new(ssl, &cfg, err, sizeof(err));
	if (r)
		braid_err("TLS set-up failed: %s", err);
	return r;
}

int braid_tlsconf_wrap(const struct braid_options *o, bool server, struct braid_ctls_config *cfg,
		       struct braid_key2 *key)
{
	const struct braid_opt_source *ta = &o->blobs[BRAID_BLOB_TLS_AUTH];
	const struct braid_opt_source *tc = &o->blobs[BRAID_BLOB_TLS_CRYPT];
	const struct braid_opt_source *src = NULL;
	const char *name = NULL;
	char err[512];
	int r, dir;

	cfg->wrap = BRAID_CTLS_WRAP_NONE;
	cfg->wrap_key = NULL;
	cfg->key_direction = BRAID_KEY_DIR_NORMAL;
	if (tc->path || tc->inline_text) {
		src = tc;
		name = "tls-crypt";
		cfg->wrap = BRAID_CTLS_WRAP_CRYPT;
	} else if (ta->path || ta->inline_text) {
		src = ta;
		name = "tls-auth";
		cfg->wrap = BRAID_CTLS_WRAP_AUTH;
	}
	if (!src)
		return 0;
	if (src->inline_text)
		r = braid_static_key_parse(src->inline_text, src->inline_len, key, err,
					   sizeof(err));
	else
		r = braid_static_key_load(src->path, key, err, sizeof(err));
	if (r) {
		braid_err("option '%s': %s%s", name, src->inline_text ? "inline block: " : "", err);
		return r;
	}
	cfg->wrap_key = key;
	if (cfg->wrap == BRAID_CTLS_WRAP_AUTH) {
		dir = o->tls_auth_dir != KEY_DIR_UNSET ? o->tls_auth_dir : o->key_direction;
		cfg->key_direction = dir == KEY_DIR_UNSET ? BRAID_KEY_DIR_BIDIRECTIONAL : dir;
	} else {	/* tls-crypt: the client's direction is the server's inverse */
		cfg->key_direction = server ? BRAID_KEY_DIR_NORMAL : BRAID_KEY_DIR_INVERSE;
	}
	return 0;
}
