// SPDX-License-Identifier: GPL-2.0-only
/*
 * linkmon.c - rtnetlink link/address change notifications (see linkmon.h).
 */
#include "os/linkmon.h"

#include <errno.h>
#include <ifaddrs.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <unistd.h>

int braid_linkmon_open(int *fd)
{
	struct sockaddr_nl sa;
	int s;

	s = socket(AF_NETLINK, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (s < 0)
		return -errno;
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	/* routes too: a new interface is usable for `mp-path auto` once its route is there */
	sa.nl_groups = RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR | RTMGRP_IPV4_ROUTE |
		       RTMGRP_IPV6_ROUTE;
	if (bind(s, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int e = -errno;

		close(s);
		return e;
	}
	*fd = s;
	return 0;
}

int braid_linkmon_drain(int fd)
{
	char buf[8192];
	int any = 0;

	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return any;
			if (errno == ENOBUFS)	/* overrun: something changed, rescan */
				return 1;
			return -errno;
		}
		if (n == 0)
			return any;
		any = 1;
	}
}

static bool addr_equal(const struct sockaddr *ifa, const union braid_sockaddr *a)
{
	if (ifa->sa_family != a->sa.sa_family)
		return false;
	if (ifa->sa_family == AF_INET)
		return ((const struct sockaddr_in *)ifa)->sin_addr.s_addr == a->in.sin_addr.s_addr;
	if (ifa->sa_family == AF_INET6)
		return !memcmp(&((const struct sockaddr_in6 *)ifa)->sin6_addr, &a->in6.sin6_addr,
			       sizeof(struct in6_addr));
	return false;
}

int braid_linkmon_addr_up(const union braid_sockaddr *addr)
{
	struct ifaddrs *list, *i;
	int up = 0;

	if (getifaddrs(&list) < 0)
		return -errno;
	for (i = list; i; i = i->ifa_next) {
		if (!i->ifa_addr || !addr_equal(i->ifa_addr, addr))
			continue;
		if ((i->ifa_flags & IFF_UP) && (i->ifa_flags & IFF_RUNNING))
			up = 1;
	}
	freeifaddrs(list);
	return up;
}

static void where_fill(struct braid_linkmon_where *w, const struct ifaddrs *i)
{
	memset(&w->addr, 0, sizeof(w->addr));
	if (i->ifa_addr->sa_family == AF_INET)
		memcpy(&w->addr.in, i->ifa_addr, sizeof(w->addr.in));
	else
		memcpy(&w->addr.in6, i->ifa_addr, sizeof(w->addr.in6));
	w->addr.in.sin_port = 0;
	snprintf(w->ifname, sizeof(w->ifname), "%s", i->ifa_name);
	w->ifindex = (int)if_nametoindex(i->ifa_name);
	w->up = (i->ifa_flags & IFF_UP) && (i->ifa_flags & IFF_RUNNING);
}

int braid_linkmon_addr_where(const union braid_sockaddr *addr, struct braid_linkmon_where *w)
{
	struct ifaddrs *list, *i;
	int found = 0;

	if (getifaddrs(&list) < 0)
		return -errno;
	for (i = list; i; i = i->ifa_next) {
		if (!i->ifa_addr || !addr_equal(i->ifa_addr, addr))
			continue;
		where_fill(w, i);
		found = 1;
		if (w->up)
			break;
	}
	freeifaddrs(list);
	return found;
}

static bool v6_usable(const struct sockaddr_in6 *a)
{
	const uint8_t *b = a->sin6_addr.s6_addr;

	return !(b[0] == 0xfe && (b[1] & 0xc0) == 0x80) && !IN6_IS_ADDR_LOOPBACK(&a->sin6_addr);
}

int braid_linkmon_if_where(const char *ifname, int family, struct braid_linkmon_where *w)
{
	struct ifaddrs *list, *i;
	int found = 0;

	memset(w, 0, sizeof(*w));
	w->ifindex = (int)if_nametoindex(ifname);
	if (getifaddrs(&list) < 0)
		return -errno;
	for (i = list; i && !found; i = i->ifa_next) {
		if (!i->ifa_addr || i->ifa_addr->sa_family != family || strcmp(i->ifa_name, ifname))
			continue;
		if (family == AF_INET6 && !v6_usable((const struct sockaddr_in6 *)i->ifa_addr))
			continue;
		where_fill(w, i);
		found = 1;
	}
	freeifaddrs(list);
	return found;
}

static bool is_tun(const char *name)
{
	char p[64 + IF_NAMESIZE];
	struct stat st;

	snprintf(p, sizeof(p), "/sys/class/net/%s/tun_flags", name);
	return stat(p, &st) == 0;
}

int braid_linkmon_auto_ifs(char (*names)[IF_NAMESIZE], int max)
{
	struct ifaddrs *list, *i;
	int n = 0;

	if (getifaddrs(&list) < 0)
		return -errno;
	for (i = list; i && n < max; i = i->ifa_next) {
		bool dup = false;

		if (!i->ifa_name || (i->ifa_flags & IFF_LOOPBACK) || !(i->ifa_flags & IFF_UP) ||
		    !(i->ifa_flags & IFF_RUNNING))
			continue;
		for (int k = 0; k < n && !dup; k++)
			dup = !strcmp(names[k], i->ifa_name);
		if (dup || is_tun(i->ifa_name))
			continue;
		snprintf(names[n++], IF_NAMESIZE, "%s", i->ifa_name);
	}
	freeifaddrs(list);
	return n;
}
