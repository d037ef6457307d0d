// SPDX-License-Identifier: GPL-2.0-only
/*
 * linkmon.c - rtnetlink link/address change notifications (see linkmon.h).
 */
#include "os/linkmon.h"

#include <errno.h>
#include <ifaddrs.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <string.h>
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
	sa.nl_groups = RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV6_IFADDR;
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
