/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_setup.h - the fixed control-channel contexts the harnesses fuzz,
 * shared with the seed maker (mkseeds.c), so that seeds wrapped by the maker
 * open in the harness: tls-auth / tls-crypt contexts and the cookie server's
 * configuration. All keys are fz_key2() test keys. (The data channel's are in
 * fuzz_dckeys.h: dc.h and pkt.h cannot be included together.)
 */
#ifndef BRAID_FUZZ_SETUP_H
#define BRAID_FUZZ_SETUP_H

#include <stdbool.h>
#include <string.h>

#include "cookie.h"
#include "fuzz_common.h"
#include "tls_auth.h"
#include "session.h"
#include "tls_crypt.h"

/* tls-auth: the harness unwraps as the server (direction NORMAL) or, with
 * bidir, key-direction-less; the digest is picked by a flag. */
static inline const char *fz_ta_digest(unsigned i)
{
	static const char *const d[] = { "SHA1", "SHA256", "SHA512", "SHA1" };

	return d[i & 3];
}

static inline int fz_ta_new(struct braid_tls_auth *c, bool server, bool bidir, const char *digest)
{
	struct braid_key2 k;
	int dir = bidir ? BRAID_KEY_DIR_BIDIRECTIONAL
			: (server ? BRAID_KEY_DIR_NORMAL : BRAID_KEY_DIR_INVERSE);

	fz_key2(&k, 3);
	return braid_tls_auth_init(c, &k, dir, digest, BRAID_REPLAY_DEFAULT_WINDOW,
				   BRAID_REPLAY_DEFAULT_TIME);
}

static inline int fz_tc_new(struct braid_tls_crypt *c, bool server)
{
	struct braid_key2 k;

	fz_key2(&k, 4);
	return braid_tls_crypt_init(c, &k, server, BRAID_REPLAY_DEFAULT_WINDOW,
				    BRAID_REPLAY_DEFAULT_TIME);
}

/* The cookie server and its clients: wrap BRAID_CTLS_WRAP_*, the key of
 * fuzz_tls_auth (fz_key2(3)) or fuzz_tls_crypt (fz_key2(4)),
 * the cookie secret all 0x5a, the client address 10.0.0.2:1194 as bytes. */
static const uint8_t fz_cookie_secret[BRAID_COOKIE_SECRET_LEN] = {
	0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a,
	0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a,
	0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a,
};
static const uint8_t fz_addr[8] = { 2, 0, 0x04, 0xaa, 10, 0, 0, 2 };
static const uint8_t fz_addr_other[8] = { 2, 0, 0x04, 0xaa, 10, 0, 0, 3 };

static inline void fz_ctls_cfg(struct braid_ctls_config *cfg, bool server, int wrap,
			       SSL_CTX *ctx, const struct braid_key2 *key)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->server = server;
	cfg->ssl_ctx = ctx;
	cfg->wrap = wrap;
	cfg->wrap_key = wrap ? key : NULL;
	cfg->key_direction = server ? BRAID_KEY_DIR_NORMAL : BRAID_KEY_DIR_INVERSE;
	cfg->reneg_sec = UINT32_MAX;
	cfg->options_string = server ? "V4,dev-type tun,link-mtu 1549,tun-mtu 1500,proto UDPv4,"
				       "cipher AES-256-GCM,auth [null-digest],keysize 256,"
				       "key-method 2,tls-server"
				     : "V4,dev-type tun,link-mtu 1549,tun-mtu 1500,proto UDPv4,"
				       "cipher AES-256-GCM,auth [null-digest],keysize 256,"
				       "key-method 2,tls-client";
	cfg->peer_info = server ? NULL : "IV_VER=2.6.14\nIV_PLAT=linux\nIV_PROTO=478\n"
					 "IV_CIPHERS=AES-256-GCM:CHACHA20-POLY1305\nIV_BRAID_MP=1\n";
}

#endif /* BRAID_FUZZ_SETUP_H */
