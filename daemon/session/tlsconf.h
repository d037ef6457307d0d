/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tlsconf.h - the TLS context and the control-channel wrap (tls-auth /
 * tls-crypt) built from the options, for both roles: the TLS client
 * (client_setup.c) and the gateway (gateway.c) (tlsconf.c).
 */
#ifndef BRAID_TLSCONF_H
#define BRAID_TLSCONF_H

#include <stdbool.h>

#include "ctl/session.h"
#include "ctl/tls.h"
#include "dc/static_key.h"
#include "config/options.h"

/*
 * A TLS context from ca/cert/key/crl-verify and the tls-* options; server: the
 * gateway role (verify-client-cert applies). 0 or -errno (logged).
 */
int braid_tlsconf_ctx(const struct braid_options *o, bool server, SSL_CTX **ssl);

/*
 * Load the tls-crypt (preferred) or tls-auth key into *key, if configured, and
 * set cfg->wrap, cfg->wrap_key (key, or NULL without a wrap) and
 * cfg->key_direction for the role (tls-auth: the option's direction;
 * tls-crypt: server normal, client inverse). 0 or -errno (logged).
 */
int braid_tlsconf_wrap(const struct braid_options *o, bool server, struct braid_ctls_config *cfg,
		       struct braid_key2 *key);

#endif
