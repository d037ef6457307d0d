/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * push_apply.h - applying pushed options to the TUN (push_apply.c):
 * addresses, routes, redirect-gateway; and undoing them. Included by
 * push.h.
 */
#ifndef BRAID_PUSH_APPLY_H
#define BRAID_PUSH_APPLY_H

#include <netinet/in.h>
#include <stdbool.h>

#include "config/options.h"
#include "os/sock.h"
#include "session/push_types.h"

/* What braid_push_apply changed, so that braid_push_unapply removes exactly that. */
struct braid_push_net {
	int ifindex;
	bool addr4, addr6;
	struct in_addr a4, p4;
	uint8_t prefix4;
	bool a4_is_ptp;
	struct in6_addr a6;
	uint8_t prefix6;
	/* + the server host route, four /1 routes and one host route per multipath path */
	struct braid_opt_route routes[BRAID_PUSH_MAX_ROUTES + 5 + BRAID_OPT_MAX_MP_PATHS];
	int route_ifindex[BRAID_PUSH_MAX_ROUTES + 5 + BRAID_OPT_MAX_MP_PATHS];
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
 * Multipath with redirect-gateway: a host route to `server` for one path,
 * via that path's next hop (RTM_GETROUTE towards the server out of the
 * path's interface: `local` is its numeric address or an interface name),
 * with `metric` (above the session's own host route, so unbound sockets keep
 * using that one). A socket tied to the path's interface then reaches the
 * server over its own link instead of falling into the /1 routes of the TUN.
 * Nothing is added when the server's family is not redirected, `local` is
 * given, the next hop is the session's own host route, or the interface has
 * no route with a gateway towards the server (logged at info). Recorded in
 * *n for braid_push_unapply. 0 or -errno (logged).
 */
int braid_push_apply_path_route(struct braid_push_net *n, struct braid_nl *nl,
				const struct braid_pushed *p, const union braid_sockaddr *server,
				const char *local, uint32_t metric);

#endif /* BRAID_PUSH_APPLY_H */
