// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_setup.c - what the TLS client loads once at start (client_setup.h):
 * the tls-auth/tls-crypt key, the auth-user-pass credentials and the TLS
 * context; and the privilege drop after its first connection. Secrets are
 * wiped when freed.
 */
#include "client/client_setup.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "client/client_state.h"
#include "ctl/session.h"
#include "ctl/tls.h"
#include "dc/static_key.h"
#include "util/log.h"
#include "session/privdrop.h"
#include "session/tlsconf.h"

/* ---- set-up helpers ---- */

void client_free_secret(char **p)
{
	if (*p) {
		sodium_memzero(*p, strlen(*p));
		free(*p);
		*p = NULL;
	}
}

int client_load_wrap_key(struct braid_client *c)
{
	struct braid_ctls_config ccfg = { 0 };
	int r;

	r = braid_tlsconf_wrap(c->o, false, &ccfg, &c->wrap_key);
	c->wrap = ccfg.wrap;
	if (ccfg.wrap != BRAID_CTLS_WRAP_NONE)
		c->wrap_dir = ccfg.key_direction;
	return r;
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
	} else if (c->o->mgmt_query_passwords && c->o->mgmt_addr) {
		return 0;	/* asked on the management interface before each connection */
	} else {
		braid_err("option 'auth-user-pass' needs a file or an inline block: braidd cannot "
			  "prompt (or use management-query-passwords)");
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
	return braid_tlsconf_ctx(c->o, false, &c->ssl);
}

int client_drop_privileges(struct braid_client *c)
{
	int r = braid_privdrop_apply(c->o);

	if (r)
		client_request_exit(c, 1);	/* never run with more rights than configured */
	return r;
}
