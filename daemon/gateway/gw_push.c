// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_push.c - per-client PUSH_REPLY (see gw_push.h).
 */
#include "gateway/gw_push.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ctl/km2.h"

static int add(struct braid_gw_push_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int add(struct braid_gw_push_out *o, const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	if (o->n_opts >= BRAID_GW_PUSH_MAX_OPTS)
		return -E2BIG;
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	o->opts[o->n_opts++] = s;
	return 0;
}

static const char *v4str(uint32_t a, char *buf)
{
	struct in_addr in = { .s_addr = htonl(a) };

	return inet_ntop(AF_INET, &in, buf, INET_ADDRSTRLEN);
}

/* Is name in the ':'-separated list (case-insensitive)? */
static bool in_list(const char *list, const char *name, size_t nlen)
{
	const char *p = list;

	while (p && *p) {
		const char *e = strchr(p, ':');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l == nlen && !strncasecmp(p, name, l))
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}

/* "cipher X" inside an OCC string ("V4,...,cipher AES-256-GCM,..."). */
static bool occ_cipher(const char *occ, char *out, size_t cap)
{
	const char *p = occ ? strstr(occ, ",cipher ") : NULL;
	size_t l;

	if (!p)
		return false;
	p += 8;
	l = strcspn(p, ",");
	if (!l || l >= cap)
		return false;
	memcpy(out, p, l);
	out[l] = 0;
	return true;
}

int braid_gw_push_ncp(const char *ours, const char *peer_info, const char *peer_options,
		      char *cipher, size_t cap)
{
	char theirs[512] = "", ncp[16];
	const char *p = ours;

	if (peer_info && !braid_peer_info_get(peer_info, "IV_CIPHERS", theirs, sizeof(theirs)))
		;
	else if (peer_info && !braid_peer_info_get(peer_info, "IV_NCP", ncp, sizeof(ncp)) &&
		 atoi(ncp) >= 2)
		snprintf(theirs, sizeof(theirs), "AES-256-GCM:AES-128-GCM");
	else if (!occ_cipher(peer_options, theirs, sizeof(theirs)))
		theirs[0] = 0;
	while (p && *p) {
		const char *e = strchr(p, ':');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l && l < cap && in_list(theirs, p, l)) {
			memcpy(cipher, p, l);
			cipher[l] = 0;
			for (size_t i = 0; i < l; i++)
				if (cipher[i] >= 'a' && cipher[i] <= 'z')
					cipher[i] = (char)(cipher[i] - 'a' + 'A');
			return 0;
		}
		p = e ? e + 1 : NULL;
	}
	return -ENOTSUP;
}

int braid_gw_push_build(const struct braid_gw_push_in *in, struct braid_gw_push_out *out)
{
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN], val[64], theirs[512];
	uint32_t proto = 0;
	int r = 0;

	memset(out, 0, sizeof(*out));
	out->framing = in->server_framing;
	if (in->peer_info)
		braid_peer_info_iv_proto(in->peer_info, &proto);
	if (braid_gw_push_ncp(in->data_ciphers, in->peer_info, in->peer_options, out->cipher,
			      sizeof(out->cipher))) {
		if (!in->peer_info ||
		    braid_peer_info_get(in->peer_info, "IV_CIPHERS", theirs, sizeof(theirs)))
			snprintf(theirs, sizeof(theirs), "(none announced)");
		snprintf(out->why, sizeof(out->why), "no common data cipher: ours '%.100s', client's '%.100s'",
			 in->data_ciphers, theirs);
		return -ENOTSUP;
	}
	if (!in->push_reset) {
		/* 2.6 reads the `push` lines first; the helpers (server, keepalive) add theirs after */
		for (unsigned i = 0; i < in->n_user_push; i++)
			r = r ?: add(out, "%s", in->user_push[i]);
		if (in->has_v6 && !in->no_server_helper)
			r = r ?: add(out, "tun-ipv6");
		if (in->has_v4 && !in->no_server_helper) {
			if (in->subnet)
				r = r ?: add(out, "route-gateway %s", v4str(in->gw4, a));
			else
				r = r ?: add(out, "route %s", v4str(in->gw4, a));
			r = r ?: add(out, "topology %s", in->subnet ? "subnet" : "net30");
		}
		if (in->ping > 0)
			r = r ?: add(out, "ping %d", in->ping);
		if (in->ping_restart > 0)
			r = r ?: add(out, "ping-restart %d", in->ping_restart);
	}
	for (unsigned i = 0; i < in->n_ccd_push; i++)
		r = r ?: add(out, "%s", in->ccd_push[i]);
	if (in->compress_migrate && in->peer_options && strstr(in->peer_options, ",comp-lzo,")) {
		if (in->peer_info && !braid_peer_info_get(in->peer_info, "IV_COMP_STUBv2", val,
							  sizeof(val)) && !strcmp(val, "1")) {
			r = r ?: add(out, "compress stub-v2");
			out->framing = BRAID_COMP_STUB_V2;
		} else {
			r = r ?: add(out, "comp-lzo no");
			out->framing = BRAID_COMP_LZO;
		}
	}
	if (in->has_ifc6)
		r = r ?: add(out, "ifconfig-ipv6 %s/%u %s", inet_ntop(AF_INET6, &in->ifc6, a, sizeof(a)),
			     in->ifc6_prefix, inet_ntop(AF_INET6, &in->gw6, b, sizeof(b)));
	if (in->has_ifc4)
		r = r ?: add(out, "ifconfig %s %s", v4str(in->ifc_local, a), v4str(in->ifc_remote, b));
	if (proto & BRAID_IV_PROTO_DATA_V2) {
		out->use_peer_id = true;
		r = r ?: add(out, "peer-id %u", in->peer_id);
	}
	r = r ?: add(out, "cipher %s", out->cipher);
	if (proto & BRAID_IV_PROTO_CC_EXIT_NOTIFY) {
		out->cc_exit = true;
		out->ekm = proto & BRAID_IV_PROTO_TLS_KEY_EXPORT;
		r = r ?: add(out, "protocol-flags cc-exit%s", out->ekm ? " tls-ekm" : "");
	} else if (proto & BRAID_IV_PROTO_TLS_KEY_EXPORT) {
		out->ekm = true;
		r = r ?: add(out, "key-derivation tls-ekm");
	}
	if (in->tun_mtu > 0 && in->peer_info &&
	    !braid_peer_info_get(in->peer_info, "IV_MTU", val, sizeof(val)) &&
	    atoi(val) >= in->tun_mtu)
		r = r ?: add(out, "tun-mtu %d", in->tun_mtu);
	if (r)
		braid_gw_push_out_free(out);
	return r;
}

void braid_gw_push_out_free(struct braid_gw_push_out *out)
{
	for (unsigned i = 0; i < out->n_opts; i++)
		free(out->opts[i]);
	out->n_opts = 0;
}
