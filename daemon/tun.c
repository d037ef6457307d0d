// SPDX-License-Identifier: GPL-2.0-only
/*
 * tun.c - TUN device lifetime and configuration.
 */
#include "tun.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_tun.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "log.h"

int braid_tun_open(struct braid_tun *t, const struct braid_options *o)
{
	struct ifreq ifr;
	int fd, r;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		braid_err("cannot open /dev/net/tun: %s", strerror(-r));
		return r;
	}
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_TUN | IFF_NO_PI;
	/* "tun" alone: let the kernel pick the first free tunN, as OpenVPN does */
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", strcmp(o->dev, "tun") ? o->dev : "tun%d");
	if (ioctl(fd, TUNSETIFF, &ifr) < 0) {
		r = -errno;
		braid_err("cannot create tun device '%s': %s", o->dev, strerror(-r));
		goto err_close;
	}
	memcpy(t->name, ifr.ifr_name, IFNAMSIZ);
	t->name[IFNAMSIZ - 1] = '\0';
	t->ifindex = (int)if_nametoindex(t->name);
	if (!t->ifindex) {
		r = -errno;
		braid_err("tun device '%s' has no index: %s", t->name, strerror(-r));
		goto err_close;
	}
	r = braid_nl_open(&t->nl);
	if (r) {
		braid_err("cannot open rtnetlink: %s", strerror(-r));
		goto err_close;
	}
	t->fd = fd;
	braid_info("TUN/TAP device %s opened", t->name);
	return 0;
err_close:
	close(fd);
	return r;
}

static const char *fmt_addr(int family, const void *a, char *buf, size_t len)
{
	if (!inet_ntop(family, a, buf, (socklen_t)len))
		snprintf(buf, len, "?");
	return buf;
}

int braid_tun_configure(struct braid_tun *t, const struct braid_options *o)
{
	char a[INET6_ADDRSTRLEN], b[INET6_ADDRSTRLEN];
	int r;

	r = braid_nl_link_set(t->nl, t->ifindex, o->tun_mtu, true);
	if (r) {
		braid_err("%s: cannot set mtu %d and bring the link up: %s", t->name, o->tun_mtu,
			  strerror(-r));
		return r;
	}
	braid_info("%s: mtu %d, link up", t->name, o->tun_mtu);
	if (o->has_ifconfig) {
		if (o->ifc_is_netmask) {
			uint32_t m = ntohl(o->ifc_remote.s_addr);
			uint8_t prefix = 0;

			while (prefix < 32 && (m & (0x80000000u >> prefix)))
				prefix++;
			t->prefix4 = prefix;
			r = braid_nl_addr(t->nl, true, t->ifindex, AF_INET, &o->ifc_local, NULL, prefix);
			braid_info("%s: address %s/%u", t->name,
				   fmt_addr(AF_INET, &o->ifc_local, a, sizeof(a)), prefix);
		} else {
			t->prefix4 = 32;
			r = braid_nl_addr(t->nl, true, t->ifindex, AF_INET, &o->ifc_local,
					  &o->ifc_remote, 32);
			braid_info("%s: address %s peer %s", t->name,
				   fmt_addr(AF_INET, &o->ifc_local, a, sizeof(a)),
				   fmt_addr(AF_INET, &o->ifc_remote, b, sizeof(b)));
		}
		if (r) {
			braid_err("%s: cannot add IPv4 address: %s", t->name, strerror(-r));
			return r;
		}
		t->addr4_added = true;
	}
	if (o->has_ifconfig6) {
		r = braid_nl_addr(t->nl, true, t->ifindex, AF_INET6, &o->ifc6_local, NULL,
				  o->ifc6_prefix);
		if (r) {
			braid_err("%s: cannot add IPv6 address: %s", t->name, strerror(-r));
			return r;
		}
		t->addr6_added = true;
		braid_info("%s: address %s/%u", t->name,
			   fmt_addr(AF_INET6, &o->ifc6_local, a, sizeof(a)), o->ifc6_prefix);
	}
	for (unsigned int i = 0; i < o->n_routes; i++) {
		const struct braid_opt_route *rt = &o->routes[i];

		r = braid_nl_route(t->nl, true, t->ifindex, rt->family, rt->dst, rt->prefix,
				   rt->has_gw ? rt->gw : NULL, rt->metric);
		if (r) {
			braid_err("%s: cannot add route %s/%u: %s", t->name,
				  fmt_addr(rt->family, rt->dst, a, sizeof(a)), rt->prefix,
				  strerror(-r));
			return r;
		}
		t->route_added[i] = true;
		braid_info("%s: route %s/%u%s%s", t->name, fmt_addr(rt->family, rt->dst, a, sizeof(a)),
			   rt->prefix, rt->has_gw ? " via " : "",
			   rt->has_gw ? fmt_addr(rt->family, rt->gw, b, sizeof(b)) : "");
	}
	return 0;
}

void braid_tun_close(struct braid_tun *t, const struct braid_options *o)
{
	int r;

	if (t->fd < 0)
		return;
	for (unsigned int i = o->n_routes; i-- > 0;) {
		const struct braid_opt_route *rt = &o->routes[i];

		if (!t->route_added[i])
			continue;
		r = braid_nl_route(t->nl, false, t->ifindex, rt->family, rt->dst, rt->prefix,
				   rt->has_gw ? rt->gw : NULL, rt->metric);
		if (r && r != -ESRCH)
			braid_warn("%s: cannot remove route: %s", t->name, strerror(-r));
		t->route_added[i] = false;
	}
	if (t->addr6_added) {
		r = braid_nl_addr(t->nl, false, t->ifindex, AF_INET6, &o->ifc6_local, NULL,
				  o->ifc6_prefix);
		if (r && r != -EADDRNOTAVAIL)
			braid_warn("%s: cannot remove IPv6 address: %s", t->name, strerror(-r));
		t->addr6_added = false;
	}
	if (t->addr4_added) {
		r = braid_nl_addr(t->nl, false, t->ifindex, AF_INET, &o->ifc_local,
				  o->ifc_is_netmask ? NULL : &o->ifc_remote, t->prefix4);
		if (r && r != -EADDRNOTAVAIL)
			braid_warn("%s: cannot remove IPv4 address: %s", t->name, strerror(-r));
		t->addr4_added = false;
	}
	braid_nl_close(t->nl);
	t->nl = NULL;
	close(t->fd);
	t->fd = -1;
	braid_info("%s: closed (routes and addresses removed)", t->name);
}
