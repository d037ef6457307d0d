// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_peerinfo.c - what the TLS client announces to the server
 * (client_peerinfo.h): data-ciphers (NCP), the peer-info block (IV_* and
 * UV_* variables) and the OCC options string of key-method-2.
 */
#include "client/client_peerinfo.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/utsname.h>

#include <openssl/crypto.h>

#include "ctl/km2.h"
#include "ctl/session.h"
#include "dc/static_key.h"
#include "util/log.h"

#define DEFAULT_CIPHERS "AES-256-GCM:AES-128-GCM:CHACHA20-POLY1305"

/* ---- data-ciphers, peer-info, OCC options string ---- */

const char *client_data_ciphers(const struct braid_options *o)
{
	return o->data_ciphers[0] ? o->data_ciphers : DEFAULT_CIPHERS;
}

bool client_cipher_allowed(const struct braid_options *o, const char *cipher)
{
	const char *l = client_data_ciphers(o);
	size_t n = strlen(cipher);

	while (*l) {
		size_t k = strcspn(l, ":");

		if (k == n && !strncasecmp(l, cipher, n))
			return true;
		l += k;
		if (*l == ':')
			l++;
	}
	return false;
}

int client_build_peer_info(struct braid_client *c)
{
	uint32_t proto = BRAID_IV_PROTO_DATA_V2 | BRAID_IV_PROTO_REQUEST_PUSH |
			 BRAID_IV_PROTO_AUTH_PENDING_KW | BRAID_IV_PROTO_CC_EXIT_NOTIFY |
			 BRAID_IV_PROTO_AUTH_FAIL_TEMP | BRAID_IV_PROTO_DNS_OPTION;
	const char *kd = getenv("BRAIDD_KEY_DERIVATION");
	char num[16], mtu[16];
	char *pi = c->peer_info;
	size_t cap = sizeof(c->peer_info);
	int r = 0;

	c->prf_only = kd && !strcmp(kd, "prf");
	if (!c->prf_only)
		proto |= BRAID_IV_PROTO_TLS_KEY_EXPORT;
	snprintf(num, sizeof(num), "%u", proto);
	snprintf(mtu, sizeof(mtu), "%d", 1600);
	pi[0] = '\0';
	r = r ? r : braid_peer_info_add(pi, cap, "IV_VER", "2.6.14");
	r = r ? r : braid_peer_info_add(pi, cap, "IV_PLAT", "linux");
	r = r ? r : braid_peer_info_add(pi, cap, "IV_TCPNL", "1");
	r = r ? r : braid_peer_info_add(pi, cap, "IV_MTU", mtu);
	r = r ? r : braid_peer_info_add(pi, cap, "IV_NCP", "2");
	r = r ? r : braid_peer_info_add(pi, cap, "IV_CIPHERS", client_data_ciphers(c->o));
	r = r ? r : braid_peer_info_add(pi, cap, "IV_PROTO", num);
	r = r ? r : braid_peer_info_add(pi, cap, "IV_LZO_STUB", "1");
	r = r ? r : braid_peer_info_add(pi, cap, "IV_COMP_STUB", "1");
	r = r ? r : braid_peer_info_add(pi, cap, "IV_COMP_STUBv2", "1");
	/* setenv IV_GUI_VER / IV_SSO always; with push-peer-info also the platform, TLS library and UV_* */
	for (unsigned int i = 0; !r && i < c->o->n_setenv; i++) {
		const struct braid_opt_setenv *e = &c->o->setenv[i];

		if (!e->value)
			continue;
		if (!strcmp(e->name, "IV_GUI_VER") || !strcmp(e->name, "IV_SSO") ||
		    (c->o->push_peer_info && !strncmp(e->name, "UV_", 3)))
			r = braid_peer_info_add(pi, cap, e->name, e->value);
	}
	if (!r && c->o->push_peer_info) {
		struct utsname u;

		if (!uname(&u))
			r = braid_peer_info_add(pi, cap, "IV_PLAT_VER", u.release);
		r = r ? r : braid_peer_info_add(pi, cap, "IV_SSL", OpenSSL_version(OPENSSL_VERSION));
	}
	/*
	 * Braid's multipath offer (docs/multipath-negotiation.md), unless `multipath off`, or the
	 * kernel data plane without `mp-path` lines (its paths are those sockets: one path)
	 */
	if (!c->o->mp_refuse && !(c->dco && !c->o->n_mp_paths))
		r = r ? r : braid_peer_info_add_braid_mp(pi, cap);
	if (r)
		braid_err("cannot build peer-info: %s", strerror(-r));
	if (c->prf_only)
		braid_info("key derivation: TLS_KEY_EXPORT not announced (BRAIDD_KEY_DERIVATION=prf)");
	return r;
}

void client_build_occ(struct braid_client *c, bool tcp, int family)
{
	const struct braid_options *o = c->o;
	int mtu = o->tun_mtu ? o->tun_mtu : 1500;
	const char *proto = tcp ? (family == AF_INET6 ? "TCPv6_CLIENT" : "TCPv4_CLIENT")
				: (family == AF_INET6 ? "UDPv6" : "UDPv4");
	int n;

	n = snprintf(c->occ, sizeof(c->occ), "V4,dev-type tun,link-mtu %d,tun-mtu %d,proto %s",
		     mtu + (tcp ? 43 : 41), mtu, proto);
	if (o->compress == BRAID_OPT_COMP_LZO_NO || o->compress == BRAID_OPT_COMP_STUB ||
	    o->compress == BRAID_OPT_COMP_STUBV2)
		n += snprintf(c->occ + n, sizeof(c->occ) - (size_t)n, ",comp-lzo");
	if (c->wrap == BRAID_CTLS_WRAP_AUTH && c->wrap_dir != BRAID_KEY_DIR_BIDIRECTIONAL)
		n += snprintf(c->occ + n, sizeof(c->occ) - (size_t)n, ",keydir %d", c->wrap_dir);
	n += snprintf(c->occ + n, sizeof(c->occ) - (size_t)n, ",auth %s,keysize 128",
		      o->auth_digest[0] ? o->auth_digest : "SHA1");
	if (c->wrap == BRAID_CTLS_WRAP_AUTH)
		n += snprintf(c->occ + n, sizeof(c->occ) - (size_t)n, ",tls-auth");
	snprintf(c->occ + n, sizeof(c->occ) - (size_t)n, ",key-method 2,tls-client");
}
