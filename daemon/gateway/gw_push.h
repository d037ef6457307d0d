/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_push.h - the gateway's PUSH_REPLY for one client, in OpenVPN 2.6's
 * order (push.c prepare_push_reply; checked against stock 2.6.14 by
 * tests/daemon/gw_push_interop.sh):
 *
 *   user `push` lines, in config order       (2.6 parses them before its helpers run)
 *   tun-ipv6                                 (`server-ipv6` helper)
 *   route-gateway GW | route GW (net30), topology subnet|net30   (`server` helper)
 *   ping N, ping-restart N                   (`keepalive` helper)
 *                                            (all of the above dropped by ccd push-reset)
 *   ccd `push` lines
 *   compress stub-v2 | comp-lzo no           (`compress migrate`, client OCC has comp-lzo)
 *   ifconfig-ipv6 ADDR/BITS GW6
 *   ifconfig LOCAL NETMASK (subnet) | ifconfig LOCAL PEER (net30)
 *   peer-id N                                (IV_PROTO bit 1)
 *   cipher X                                 (NCP, always)
 *   protocol-flags cc-exit [tls-ekm]         (bit 7; tls-ekm if bit 3)
 *     | key-derivation tls-ekm               (bit 3 without bit 7)
 *   tun-mtu N                                (client sent IV_MTU >= N)
 *
 * The caller splits the list into PUSH_REPLY messages with push.h's
 * braid_push_split (<= 1024 bytes, push-continuation 2/1).
 *
 * NCP: the cipher is the first of our data-ciphers that the client lists in
 * IV_CIPHERS; without IV_CIPHERS, IV_NCP>=2 means "AES-256-GCM:AES-128-GCM",
 * else the `cipher` of the client's OCC string. None in common: -ENOTSUP
 * and the caller answers AUTH_FAILED.
 */
#ifndef BRAID_GW_PUSH_H
#define BRAID_GW_PUSH_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dc/payload.h"

#define BRAID_GW_PUSH_MAX_OPTS 160

struct braid_gw_push_in {
	/* gateway-wide */
	bool subnet;			/* topology subnet (else net30) */
	bool has_v4;
	uint32_t gw4;			/* gateway tunnel address (host order) */
	bool has_v6;
	struct in6_addr gw6;
	bool no_server_helper;		/* `mode server` long form (no `server`): no tun-ipv6,
					 * route-gateway/route, topology pushes */
	int ping, ping_restart;		/* keepalive values pushed; 0 = none */
	const char *const *user_push;
	unsigned n_user_push;
	const char *data_ciphers;	/* ours, ':'-separated */
	int tun_mtu;
	bool compress_migrate;
	enum braid_comp_framing server_framing;	/* framing without migrate */
	/* client */
	const char *const *ccd_push;
	unsigned n_ccd_push;
	bool push_reset;
	bool has_ifc4;
	uint32_t ifc_local, ifc_remote;	/* host order: netmask (subnet) or peer (net30) */
	bool has_ifc6;
	struct in6_addr ifc6;
	uint8_t ifc6_prefix;
	uint32_t peer_id;
	const char *peer_info;		/* "IV_...=...\n" */
	const char *peer_options;	/* the client's OCC string */
};

struct braid_gw_push_out {
	char *opts[BRAID_GW_PUSH_MAX_OPTS];	/* malloc'ed options, in push order */
	unsigned n_opts;
	char cipher[32];		/* negotiated data cipher */
	bool use_peer_id;		/* send DATA_V2 with peer_id */
	bool ekm;			/* derive keys by TLS-EKM (else PRF) */
	bool cc_exit;
	enum braid_comp_framing framing;
	char why[256];			/* for -ENOTSUP */
};

/* Build the option list. 0, -ENOTSUP (no common cipher; why set), -ENOMEM, -E2BIG. */
int braid_gw_push_build(const struct braid_gw_push_in *in, struct braid_gw_push_out *out);
void braid_gw_push_out_free(struct braid_gw_push_out *out);

/*
 * NCP choice alone (used by build). 0 + cipher, -ENOTSUP.
 */
int braid_gw_push_ncp(const char *ours, const char *peer_info, const char *peer_options,
		      char *cipher, size_t cap);

#endif /* BRAID_GW_PUSH_H */
