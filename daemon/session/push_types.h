/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * push_types.h - what a PUSH_REPLY configures (struct braid_pushed), shared
 * by its parser (push.c) and the code applying it (push_apply.c). Includes
 * nothing of the push family.
 */
#ifndef BRAID_PUSH_TYPES_H
#define BRAID_PUSH_TYPES_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>

#include "config/options.h"

#define BRAID_PUSH_MAX_ROUTES 64
#define BRAID_PUSH_MAX_DHCP 32
#define BRAID_PUSH_DNS_MAX_SERVERS 8	/* `dns server N ...` blocks */
#define BRAID_PUSH_DNS_MAX_ADDRS 8	/* addresses of one server (OpenVPN's limit) */
#define BRAID_PUSH_DNS_MAX_DOMAINS 8	/* search-domains, resolve-domains */

enum braid_push_comp { BRAID_PUSH_COMP_NONE, BRAID_PUSH_COMP_LZO_NO, BRAID_PUSH_COMP_STUB,
		       BRAID_PUSH_COMP_STUB_V2 };

/* One `dns server PRIORITY ...` block of OpenVPN 2.6's `dns` option (push_dns.c). */
struct braid_push_dns_server {
	int priority;				/* -128..127, lower is preferred */
	unsigned int n_addr;
	char addr[BRAID_PUSH_DNS_MAX_ADDRS][INET6_ADDRSTRLEN];	/* numeric, validated */
	uint16_t port[BRAID_PUSH_DNS_MAX_ADDRS];		/* 0 = not given (53) */
	unsigned int n_domains;
	char *domains[BRAID_PUSH_DNS_MAX_DOMAINS];		/* resolve-domains (owned) */
};

/* What a PUSH_REPLY configures. */
struct braid_pushed {
	enum braid_opt_topology topology;
	bool has_topology;
	bool has_ifconfig;
	struct in_addr ifc_local, ifc_remote;	/* remote: the netmask in subnet topology */
	bool has_ifconfig6;
	struct in6_addr ifc6_local, ifc6_remote;
	uint8_t ifc6_prefix;
	bool has_route_gateway;
	struct in_addr route_gateway;
	struct braid_opt_route routes[BRAID_PUSH_MAX_ROUTES];
	unsigned int n_routes;
	bool redirect;				/* redirect-gateway / redirect-private */
	unsigned int redirect_flags;		/* BRAID_RG_* (options.h) */
	char *dhcp[BRAID_PUSH_MAX_DHCP];	/* "DNS 10.8.0.1" (owned) */
	unsigned int n_dhcp;
	struct braid_push_dns_server dns[BRAID_PUSH_DNS_MAX_SERVERS];	/* `dns server` */
	unsigned int n_dns;
	char *dns_search[BRAID_PUSH_DNS_MAX_DOMAINS];	/* `dns search-domains` (owned) */
	unsigned int n_dns_search;
	bool has_peer_id;
	uint32_t peer_id;
	char cipher[32];			/* "" = none pushed */
	bool tls_ekm, cc_exit, dyn_tls_crypt;
	int tun_mtu;				/* 0 = not pushed */
	int ping, ping_restart;			/* -1 = not pushed */
	int explicit_exit_notify;		/* -1 = not pushed */
	enum braid_push_comp comp;
	bool has_comp;
	char *auth_token;			/* owned, wiped on free */
	unsigned int braid_mp;			/* `braid-mp V WINDOW` (a Braid gateway): V, 0 = none */
	bool braid_mp_offered;			/* a `braid-mp` line came, readable or not */
	uint32_t braid_mp_window;		/* its replay window (docs/multipath-negotiation.md) */
	bool braid_tcp_super;			/* `braid-tcp-super 1`: TCP super-packet frames */
	unsigned int n_ignored;			/* options understood but not acted on */
};

/* The prefix length of a netmask (its leading one bits). */
static inline uint8_t braid_push_mask_prefix(struct in_addr m)
{
	uint32_t v = ntohl(m.s_addr);
	uint8_t p = 0;

	while (p < 32 && (v & (0x80000000u >> p)))
		p++;
	return p;
}

#endif /* BRAID_PUSH_TYPES_H */
