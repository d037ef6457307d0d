/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * push.h - the push/pull control-message layer (fact sheet §6), shared by
 * the TLS client and the gateway.
 *
 *   server: option list --braid_push_split--> "PUSH_REPLY,a,b,...,push-continuation 2"
 *                                               ... "PUSH_REPLY,...,push-continuation 1"
 *   client: "PUSH_REPLY,..." --braid_push_accumulate--> option list (until the last part)
 *           --braid_push_filter (pull-filter, route-nopull)--> --braid_push_parse--> braid_pushed
 *           --braid_push_apply--> addresses and routes on the TUN (braid_push_unapply undoes it)
 *
 * Messages are comma-separated options; options never contain commas. A
 * message is at most BRAID_PUSH_MSG_MAX bytes (without the NUL). A reply
 * without `push-continuation` is complete; `push-continuation 2` means more
 * parts follow, `push-continuation 1` marks the last one.
 */
#ifndef BRAID_PUSH_H
#define BRAID_PUSH_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/options.h"
#include "os/sock.h"

#define BRAID_PUSH_MSG_MAX 1024
#define BRAID_PUSH_MAX_OPTS 256
#define BRAID_PUSH_MAX_ROUTES 64
#define BRAID_PUSH_MAX_DHCP 32

/* The options received so far (strings owned by the list). */
struct braid_push_list {
	char *opt[BRAID_PUSH_MAX_OPTS];
	unsigned int n;
	unsigned int parts;
	bool complete;
};

void braid_push_list_clear(struct braid_push_list *l);

/*
 * Feed one received control message starting with "PUSH_REPLY". Returns 1
 * when the reply is complete, 0 if more parts are expected, -EBADMSG (not a
 * PUSH_REPLY, empty option, too many options) or -ENOMEM, with err set.
 * A message after a complete reply starts a new list.
 */
int braid_push_accumulate(struct braid_push_list *l, const char *msg, char *err, size_t err_len);

/*
 * Split an option list into PUSH_REPLY messages of at most max_len bytes
 * (0: BRAID_PUSH_MSG_MAX), calling emit for each in order. With more than
 * one message, each carries ",push-continuation 2" except the last, which
 * carries ",push-continuation 1". -EMSGSIZE if one option cannot fit, -EINVAL
 * for an option containing a comma, or emit's error.
 */
int braid_push_split(const char *const *opts, unsigned int n, size_t max_len,
		     int (*emit)(void *user, const char *msg), void *user);

/*
 * Apply pull-filter rules (first match wins, no match = accept) and
 * route-nopull (drops route, route-ipv6, redirect-gateway, redirect-private,
 * dhcp-option, dns, block-outside-dns). Dropped options are logged.
 * -EPERM with err naming the option when a `reject` rule matched.
 */
int braid_push_filter(struct braid_push_list *l, const struct braid_opt_pull_filter *rules,
		      unsigned int n_rules, bool route_nopull, char *err, size_t err_len);

enum braid_push_comp { BRAID_PUSH_COMP_NONE, BRAID_PUSH_COMP_LZO_NO, BRAID_PUSH_COMP_STUB,
		       BRAID_PUSH_COMP_STUB_V2 };

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
	uint32_t braid_mp_window;		/* its replay window (docs/multipath-negotiation.md) */
	unsigned int n_ignored;			/* options understood but not acted on */
};

void braid_pushed_free(struct braid_pushed *p);

/*
 * Parse a (filtered) list into *out. Unknown options are logged and
 * skipped, as OpenVPN does for pushed options; a malformed known option
 * (bad address, bad number) fails: -EINVAL with err naming it.
 */
int braid_push_parse(const struct braid_push_list *l, struct braid_pushed *out, char *err,
		     size_t err_len);

/* What braid_push_apply changed, so that braid_push_unapply removes exactly that. */
struct braid_push_net {
	int ifindex;
	bool addr4, addr6;
	struct in_addr a4, p4;
	uint8_t prefix4;
	bool a4_is_ptp;
	struct in6_addr a6;
	uint8_t prefix6;
	struct braid_opt_route routes[BRAID_PUSH_MAX_ROUTES + 4];
	int route_ifindex[BRAID_PUSH_MAX_ROUTES + 4];
	unsigned int n_routes;
	bool has_net_gateway;
	struct in_addr net_gateway;		/* default gateway before redirect-gateway */
	int net_gateway_ifindex;
};

struct braid_nl;

/*
 * Put the pushed addresses and routes on the TUN (ifindex). With
 * redirect-gateway def1: 0.0.0.0/1 + 128.0.0.0/1 on the TUN (with `ipv6` also ::/1 +
 * 8000::/1) and a host route to `server` (IPv4 or IPv6, whichever family is
 * redirected) via the gateway it is reached by now (RTM_GETROUTE); not with `local`. Logs each
 * step. 0 or -errno (logged); on error what was added stays recorded in *n
 * for braid_push_unapply. `what` picks addresses and/or routes, so that a caller
 * can run its `up` script in between as OpenVPN does (ifconfig, up, routes).
 */
#define BRAID_PUSH_APPLY_ADDRS 1u	/* addresses (first call: resets *n) */
#define BRAID_PUSH_APPLY_ROUTES 2u	/* routes and redirect-gateway */
int braid_push_apply(struct braid_push_net *n, struct braid_nl *nl, int ifindex,
		     const char *ifname, const struct braid_pushed *p,
		     const union braid_sockaddr *server, unsigned int what);
void braid_push_unapply(struct braid_push_net *n, struct braid_nl *nl);

/*
 * The other control messages (fact sheet §6), classified for dispatch:
 *   PUSH_REQUEST, PUSH_REPLY,...
 *   AUTH_FAILED[,reason]          AUTH_FAILED,TEMP[backoff N,advance addr|remote|no]:reason
 *   AUTH_PENDING[,timeout N]      RESTART[,[flags]msg] (flag N = next remote)   HALT[,msg]
 *   EXIT                          INFO,text / INFO_PRE,text
 */
enum braid_ctl_msg_kind {
	BRAID_MSG_UNKNOWN = 0,
	BRAID_MSG_PUSH_REQUEST,
	BRAID_MSG_PUSH_REPLY,
	BRAID_MSG_AUTH_FAILED,
	BRAID_MSG_AUTH_PENDING,
	BRAID_MSG_RESTART,
	BRAID_MSG_HALT,
	BRAID_MSG_EXIT,
	BRAID_MSG_INFO,
};

struct braid_ctl_msg {
	enum braid_ctl_msg_kind kind;
	bool temp;		/* AUTH_FAILED,TEMP */
	int backoff;		/* AUTH_FAILED,TEMP[backoff N]: seconds, -1 = none */
	int advance;		/* AUTH_FAILED,TEMP[advance ...]: 0 no, 1 addr/remote, -1 not given */
	int timeout;		/* AUTH_PENDING,timeout N: seconds, -1 = none */
	bool next_remote;	/* RESTART,[N]... */
	const char *text;	/* the reason / message part (points into the input), "" if none */
};

/* Classify one control message. Never fails: unknown messages are BRAID_MSG_UNKNOWN. */
void braid_ctl_msg_parse(const char *msg, struct braid_ctl_msg *out);

#endif /* BRAID_PUSH_H */
