/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lg_push.h - what the load generator takes from a PUSH_REPLY: the data cipher,
 * the peer-id, the tunnel address, the address to ping (route-gateway), the
 * keepalive interval, the key derivation method and a multipath offer
 * (`braid-mp`, docs/multipath-negotiation.md §3). A bounded, copying reader.
 */
#ifndef BRAID_LG_PUSH_H
#define BRAID_LG_PUSH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LG_PUSH_MAX 4096 /* longer replies are refused */

struct lg_push {
	char cipher[64];      /* "" if none pushed */
	uint32_t peer_id;     /* UINT32_MAX if none pushed */
	uint32_t local;       /* ifconfig address (network order), 0 if none */
	uint32_t gateway;     /* route-gateway, else ifconfig's remote (net30/p2p), 0 if none */
	unsigned ping_s;      /* pushed `ping N`, 0 if none */
	bool ekm;             /* protocol-flags tls-ekm / key-derivation tls-ekm */
	unsigned mp_version;  /* `braid-mp VERSION WINDOW` (1..65535), 0 if none pushed */
	unsigned mp_window;   /* its replay window (64..65536) */
};

/*
 * Parse "PUSH_REPLY,opt,opt,..." of len bytes (need not be NUL-terminated).
 * 0, -EPROTO (not a PUSH_REPLY), -EMSGSIZE (longer than LG_PUSH_MAX),
 * -EBADMSG (a known option with a bad value: why names it).
 */
int lg_push_parse(const char *msg, size_t len, struct lg_push *out, const char **why);

#endif /* BRAID_LG_PUSH_H */
