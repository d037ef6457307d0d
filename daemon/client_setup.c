// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_setup.c - what the TLS client loads once at start (client_setup.h):
 * the tls-auth/tls-crypt key, the auth-user-pass credentials and the TLS
 * context. Secrets are wiped when freed.
 */
#include "client_setup.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "ctl/session.h"
#include "ctl/tls.h"
#include "dc/static_key.h"
#include "log.h"

/* ---- set-up helpers ---- */

void client_free_secret(char **p)
{
	if (*p) {
		sodium_memzero(*p, strlen(*p));
		free(*p);
		*p = NULL;
	}
}

static const char *blob_path(const struct braid_opt_source *s)
{
	return s->inline_text ? NULL : s->path;
}

int client_load_wrap_key(struct braid_client *c)
{
	struct braid_options *o = c->o;
	struct braid_opt_source *ta = &o->blobs[BRAID_BLOB_TLS_AUTH];
	struct braid_opt_source *tc = &o->blobs[BRAID_BLOB_TLS_CRYPT];
	struct braid_opt_source *src = NULL;
	const char *name = NULL;
	char err[512];
	int r;

	c->wrap = BRAID_CTLS_WRAP_NONE;
	if (tc->path || tc->inline_text) {
		src = tc;
		name = "tls-crypt";
		c->wrap = BRAID_CTLS_WRAP_CRYPT;
	} else if (ta->path || ta->inline_text) {
		src = ta;
		name = "tls-auth";
		c->wrap = BRAID_CTLS_WRAP_AUTH;
	}
	if (!src)
		return 0;
	if (src->inline_text)
		r = braid_static_key_parse(src->inline_text, src->inline_len, &c->wrap_key, err,
					   sizeof(err));
	else
		r = braid_static_key_load(src->path, &c->wrap_key, err, sizeof(err));
	if (r) {
		braid_err("option '%s': %s%s", name, src->inline_text ? "inline block: " : "", err);
		return r;
	}
	if (c->wrap == BRAID_CTLS_WRAP_AUTH) {
		int dir = o->tls_auth_dir != -2 ? o->tls_auth_dir : o->key_direction;

		c->wrap_dir = dir == -2 ? BRAID_KEY_DIR_BIDIRECTIONAL : dir;
	} else {
		c->wrap_dir = BRAID_KEY_DIR_INVERSE;	/* tls-crypt client */
	}
	return 0;
}

int client_load_user_pass(struct braid_client *c)
{
	struct braid_opt_source *s = &c->o->blobs[BRAID_BLOB_AUTH_USER_PASS];
	char *text = NULL, *nl, *pass;
	size_t size = 0;
	int r = 0;

	if (!c->o->has_auth_user_pass && !s->path && !s->inline_text)
		return 0;
	if (s->inline_text) {
		size = s->inline_len + 1;
		text = calloc(1, size);
		if (!text)
			return -ENOMEM;
		memcpy(text, s->inline_text, s->inline_len);
	} else if (s->path) {
		FILE *f = fopen(s->path, "re");
		size_t len;

		if (!f) {
			r = -errno;
			braid_err("option 'auth-user-pass': cannot read '%s': %s", s->path,
				  strerror(-r));
			return r;
		}
		size = 2048;
		text = calloc(1, size);
		if (!text) {
			fclose(f);
			return -ENOMEM;
		}
		len = fread(text, 1, size - 1, f);
		fclose(f);
		text[len] = '\0';
	} else {
		braid_err("option 'auth-user-pass' needs a file or an inline block: braidd cannot "
			  "prompt");
		return -EINVAL;
	}
	nl = strchr(text, '\n');
	if (!nl || nl == text) {
		braid_err("option 'auth-user-pass': expected the username on the first line and the "
			  "password on the second");
		r = -EINVAL;
		goto out;
	}
	*nl = '\0';
	if (nl[-1] == '\r')
		nl[-1] = '\0';
	pass = nl + 1;
	pass[strcspn(pass, "\r\n")] = '\0';
	if (!*pass) {
		braid_err("option 'auth-user-pass': the password (second line) is empty");
		r = -EINVAL;
		goto out;
	}
	c->user = strdup(text);
	c->pass = strdup(pass);
	if (!c->user || !c->pass)
		r = -ENOMEM;
out:
	sodium_memzero(text, size);	/* the password was in there */
	free(text);
	return r;
}

int client_make_tls_ctx(struct braid_client *c)
{
	const struct braid_options *o = c->o;
	const struct braid_opt_source *b = o->blobs;
	struct braid_tls_config cfg = {
		.server = false,
		.ca_file = blob_path(&b[BRAID_BLOB_CA]),
		.ca_pem = b[BRAID_BLOB_CA].inline_text,
		.cert_file = blob_path(&b[BRAID_BLOB_CERT]),
		.cert_pem = b[BRAID_BLOB_CERT].inline_text,
		.key_file = blob_path(&b[BRAID_BLOB_KEY]),
		.key_pem = b[BRAID_BLOB_KEY].inline_text,
		.crl_file = blob_path(&b[BRAID_BLOB_CRL_VERIFY]),
		.crl_pem = b[BRAID_BLOB_CRL_VERIFY].inline_text,
		.tls_version_min = o->tls_version_min[0] ? o->tls_version_min : NULL,
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

	if (o->verify_x509_name)
		cfg.verify_x509_type = o->verify_x509_type == BRAID_X509_NAME ? BRAID_X509_NAME_CN :
				       o->verify_x509_type == BRAID_X509_NAME_PREFIX ?
									  BRAID_X509_NAME_CN_PREFIX :
									  BRAID_X509_NAME_SUBJECT;
	r = braid_tls_ctx_new(&c->ssl, &cfg, err, sizeof(err));
	if (r)
		braid_err("TLS set-up failed: %s", err);
	return r;
}
