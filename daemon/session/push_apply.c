// SPDX-License-Identifier: GPL-2.0-only
/*
 * push_apply.c - applying pushed options (see push_apply.h): addresses and
 * routes on the TUN by rtnetlink, redirect-gateway with the host route to
 * the server via the route the kernel uses now (RTM_GETROUTE), and undoing
 * exactly that.
 */
#include "session/push_apply.h"

#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <libmnl/libmnl.h>
#include <linux/rtnetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/log.h"
#include "os/netlink.h"

/* ---- apply ---- */

/*
 * The route the kernel uses now towards dst (before our /1 routes): gateway and device; with oif
 * (and src, both optional) the route out of that device from that source.
 */
static int route_lookup_from(int family, const void *dst, int oif, const void *src, void *gw,
			     bool *has_gw, int *ifindex)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct mnl_socket *s;
	struct nlmsghdr *nlh;
	struct rtmsg *rtm;
	struct nlattr *a;
	uint32_t seq = (uint32_t)time(NULL), portid;
	unsigned int alen = family == AF_INET ? 4 : 16;
	ssize_t n;
	int r = -ENOENT;

	s = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (!s)
		return -errno;
	if (mnl_socket_bind(s, 0, MNL_SOCKET_AUTOPID) < 0) {
		r = -errno;
		goto out;
	}
	portid = mnl_socket_get_portid(s);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = RTM_GETROUTE;
	nlh->nlmsg_flags = NLM_F_REQUEST;
	nlh->nlmsg_seq = seq;
	rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));
	rtm->rtm_family = (unsigned char)family;
	rtm->rtm_dst_len = alen * 8;
	mnl_attr_put(nlh, RTA_DST, alen, dst);
	if (src)
		mnl_attr_put(nlh, RTA_SRC, alen, src);
	if (oif)
		mnl_attr_put_u32(nlh, RTA_OIF, (uint32_t)oif);
	if (mnl_socket_sendto(s, nlh, nlh->nlmsg_len) < 0) {
		r = -errno;
		goto out;
	}
	n = mnl_socket_recvfrom(s, buf, sizeof(buf));
	if (n < 0) {
		r = -errno;
		goto out;
	}
	nlh = (struct nlmsghdr *)buf;
	if (!braid_nl_buf_ok(buf, (size_t)n) || !mnl_nlmsg_ok(nlh, (int)n) ||
	    nlh->nlmsg_seq != seq || nlh->nlmsg_pid != portid) {
		r = -EPROTO;
		goto out;
	}
	if (nlh->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

		if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e))) {
			r = -EPROTO;
			goto out;
		}
		r = e->error ? e->error : -ENOENT;
		if (r > 0 || r < -4095)	/* not an errno */
			r = -EPROTO;
		goto out;
	}
	*has_gw = false;
	*ifindex = 0;
	mnl_attr_for_each(a, nlh, sizeof(struct rtmsg)) {
		if (mnl_attr_get_type(a) == RTA_GATEWAY && mnl_attr_get_payload_len(a) == alen) {
			memcpy(gw, mnl_attr_get_payload(a), alen);
			*has_gw = true;
		} else if (mnl_attr_get_type(a) == RTA_OIF) {
			*ifindex = (int)mnl_attr_get_u32(a);
		}
	}
	r = *ifindex ? 0 : -ENOENT;
out:
	mnl_socket_close(s);
	return r;
}

static int route_lookup(int family, const void *dst, void *gw, bool *has_gw, int *ifindex)
{
	return route_lookup_from(family, dst, 0, NULL, gw, has_gw, ifindex);
}

static int add_route(struct braid_push_net *n, struct braid_nl *nl, const char *ifname,
		     int ifindex, const struct braid_opt_route *rt)
{
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];
	int r;

	if (n->n_routes >= sizeof(n->routes) / sizeof(n->routes[0]))
		return -ENOSPC;
	r = braid_nl_route(nl, true, ifindex, rt->family, rt->dst, rt->prefix,
			   rt->has_gw ? rt->gw : NULL, rt->metric);
	inet_ntop(rt->family, rt->dst, a, sizeof(a));
	if (rt->has_gw)
		inet_ntop(rt->family, rt->gw, b, sizeof(b));
	if (r == -EEXIST) {
		braid_warn("%s: route %s/%u already exists; left as it is", ifname, a, rt->prefix);
		return 0;
	}
	if (r) {
		braid_err("%s: cannot add route %s/%u: %s", ifname, a, rt->prefix, strerror(-r));
		return r;
	}
	n->routes[n->n_routes] = *rt;
	n->route_ifindex[n->n_routes] = ifindex;
	n->n_routes++;
	braid_info("%s: route %s/%u%s%s", ifname, a, rt->prefix, rt->has_gw ? " via " : "",
		   rt->has_gw ? b : "");
	return 0;
}

int braid_push_apply(struct braid_push_net *n, struct braid_nl *nl, int ifindex,
		     const char *ifname, const struct braid_pushed *p,
		     const union braid_sockaddr *server, unsigned int what)
{
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];
	int r;

	if (what & BRAID_PUSH_APPLY_ADDRS) {
		memset(n, 0, sizeof(*n));
		n->ifindex = ifindex;
	}
	if ((what & BRAID_PUSH_APPLY_ADDRS) && p->has_ifconfig) {
		bool subnet = p->topology == BRAID_TOPO_SUBNET;

		n->a4 = p->ifc_local;
		if (subnet) {
			n->prefix4 = braid_push_mask_prefix(p->ifc_remote);
			r = braid_nl_addr(nl, true, ifindex, AF_INET, &p->ifc_local, NULL, n->prefix4);
		} else {
			n->p4 = p->ifc_remote;
			n->a4_is_ptp = true;
			n->prefix4 = 32;
			r = braid_nl_addr(nl, true, ifindex, AF_INET, &p->ifc_local, &p->ifc_remote,
					  32);
		}
		inet_ntop(AF_INET, &p->ifc_local, a, sizeof(a));
		inet_ntop(AF_INET, &p->ifc_remote, b, sizeof(b));
		if (r) {
			braid_err("%s: cannot add the pushed address %s: %s", ifname, a, strerror(-r));
			return r;
		}
		n->addr4 = true;
		if (subnet)
			braid_info("%s: address %s/%u (topology subnet)", ifname, a, n->prefix4);
		else
			braid_info("%s: address %s peer %s", ifname, a, b);
	}
	if ((what & BRAID_PUSH_APPLY_ADDRS) && p->has_ifconfig6) {
		r = braid_nl_addr(nl, true, ifindex, AF_INET6, &p->ifc6_local, NULL, p->ifc6_prefix);
		inet_ntop(AF_INET6, &p->ifc6_local, a, sizeof(a));
		if (r) {
			braid_err("%s: cannot add the pushed IPv6 address %s: %s", ifname, a,
				  strerror(-r));
			return r;
		}
		n->addr6 = true;
		n->a6 = p->ifc6_local;
		n->prefix6 = p->ifc6_prefix;
		braid_info("%s: address %s/%u", ifname, a, p->ifc6_prefix);
	}
	if (!(what & BRAID_PUSH_APPLY_ROUTES))
		return 0;
	/*
	 * redirect-gateway: first a host route to the server via the gateway it is reached by now (unless
	 * `local`), needed when the /1 routes of the server's family go to the TUN; then the /1 routes.
	 */
	bool redir4 = p->redirect && !(p->redirect_flags & BRAID_RG_NOT_IPV4);
	bool redir6 = p->redirect && (p->redirect_flags & BRAID_RG_IPV6);

	if (server && !(p->redirect_flags & BRAID_RG_LOCAL) &&
	    ((redir4 && server->sa.sa_family == AF_INET) ||
	     (redir6 && server->sa.sa_family == AF_INET6))) {
		int fam = server->sa.sa_family;
		const void *dst = fam == AF_INET ? (const void *)&server->in.sin_addr
						 : (const void *)&server->in6.sin6_addr;
		struct braid_opt_route host = { .family = fam, .prefix = fam == AF_INET ? 32 : 128 };
		bool has_gw = false;
		int oif = 0;

		r = route_lookup(fam, dst, host.gw, &has_gw, &oif);
		if (r) {
			braid_err("redirect-gateway: no route to the server now: %s", strerror(-r));
			return r;
		}
		memcpy(host.dst, dst, fam == AF_INET ? 4 : 16);
		host.has_gw = has_gw;
		if (fam == AF_INET && has_gw)
			memcpy(&n->net_gateway, host.gw, 4);
		n->has_net_gateway = has_gw;
		n->net_gateway_ifindex = oif;
		r = add_route(n, nl, "redirect-gateway (server host route)", oif, &host);
		if (r)
			return r;
	}
	if (redir4) {
		struct braid_opt_route rt = { .family = AF_INET, .prefix = 1 };

		r = add_route(n, nl, ifname, ifindex, &rt);	/* 0.0.0.0/1 */
		if (r)
			return r;
		rt.dst[0] = 128;
		r = add_route(n, nl, ifname, ifindex, &rt);	/* 128.0.0.0/1 */
		if (r)
			return r;
	}
	if (redir6) {
		struct braid_opt_route rt = { .family = AF_INET6, .prefix = 1 };

		r = add_route(n, nl, ifname, ifindex, &rt);	/* ::/1 */
		if (r)
			return r;
		rt.dst[0] = 0x80;
		r = add_route(n, nl, ifname, ifindex, &rt);	/* 8000::/1 */
		if (r)
			return r;
	}
	for (unsigned int i = 0; i < p->n_routes; i++) {
		r = add_route(n, nl, ifname, ifindex, &p->routes[i]);
		if (r)
			return r;
	}
	return 0;
}

void braid_push_unapply(struct braid_push_net *n, struct braid_nl *nl)
{
	int r;

	for (unsigned int i = n->n_routes; i-- > 0;) {
		const struct braid_opt_route *rt = &n->routes[i];

		r = braid_nl_route(nl, false, n->route_ifindex[i], rt->family, rt->dst, rt->prefix,
				   rt->has_gw ? rt->gw : NULL, rt->metric);
		if (r && r != -ESRCH)
			braid_warn("cannot remove a pushed route: %s", strerror(-r));
	}
	n->n_routes = 0;
	if (n->addr6) {
		r = braid_nl_addr(nl, false, n->ifindex, AF_INET6, &n->a6, NULL, n->prefix6);
		if (r && r != -EADDRNOTAVAIL)
			braid_warn("cannot remove the pushed IPv6 address: %s", strerror(-r));
		n->addr6 = false;
	}
	if (n->addr4) {
		r = braid_nl_addr(nl, false, n->ifindex, AF_INET, &n->a4,
				  n->a4_is_ptp ? &n->p4 : NULL, n->prefix4);
		if (r && r != -EADDRNOTAVAIL)
			braid_warn("cannot remove the pushed address: %s", strerror(-r));
		n->addr4 = false;
	}
}

/* ---- multipath: one host route to the server per path ---- */

/* The interface holding address a (family fam); 0 if none. */
static int addr_ifindex(int fam, const void *a)
{
	struct ifaddrs *ifa, *i;
	int idx = 0;

	if (getifaddrs(&ifa))
		return 0;
	for (i = ifa; i && !idx; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != fam)
			continue;
		if ((fam == AF_INET &&
		     !memcmp(&((struct sockaddr_in *)(void *)i->ifa_addr)->sin_addr, a, 4)) ||
		    (fam == AF_INET6 &&
		     !memcmp(&((struct sockaddr_in6 *)(void *)i->ifa_addr)->sin6_addr, a, 16)))
			idx = (int)if_nametoindex(i->ifa_name);
	}
	freeifaddrs(ifa);
	return idx;
}

int braid_push_apply_path_route(struct braid_push_net *n, struct braid_nl *nl,
				const struct braid_pushed *p, const union braid_sockaddr *server,
				const char *local, uint32_t metric)
{
	int fam = server->sa.sa_family, oif = 0, ifindex;
	bool redir = p->redirect && (fam == AF_INET ? !(p->redirect_flags & BRAID_RG_NOT_IPV4) :
						      (p->redirect_flags & BRAID_RG_IPV6));
	const void *dst = fam == AF_INET ? (const void *)&server->in.sin_addr :
					   (const void *)&server->in6.sin6_addr;
	struct braid_opt_route host = { .family = fam, .prefix = fam == AF_INET ? 32 : 128,
					.metric = metric };
	unsigned char src[16];
	bool has_src, has_gw = false;
	char what[96];

	if (!redir || (p->redirect_flags & BRAID_RG_LOCAL))
		return 0;
	has_src = inet_pton(fam, local, src) == 1;
	ifindex = has_src ? addr_ifindex(fam, src) : (int)if_nametoindex(local);
	if (!ifindex)
		return 0;	/* another family's path, or the address is not up: nothing to pin */
	if (route_lookup_from(fam, dst, ifindex, has_src ? src : NULL, host.gw, &has_gw, &oif) ||
	    !has_gw || oif != ifindex) {
		braid_info("redirect-gateway: path %s has no route with a gateway towards the server "
			   "out of its interface: no host route for it", local);
		return 0;
	}
	for (unsigned int i = 0; i < n->n_routes; i++)
		if (n->routes[i].family == fam && n->routes[i].prefix == host.prefix &&
		    !memcmp(n->routes[i].dst, dst, fam == AF_INET ? 4 : 16) &&
		    n->route_ifindex[i] == oif)
			return 0;	/* the session's own host route already leaves there */
	memcpy(host.dst, dst, fam == AF_INET ? 4 : 16);
	host.has_gw = true;
	snprintf(what, sizeof(what), "redirect-gateway (server host route of path %s)", local);
	return add_route(n, nl, what, oif, &host);
}
