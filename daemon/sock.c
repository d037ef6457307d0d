// SPDX-License-Identifier: GPL-2.0-only
/*
 * sock.c - UDP socket setup and socket-address helpers.
 */
#include "sock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

socklen_t braid_sockaddr_len(const union braid_sockaddr *a)
{
	return a->sa.sa_family == AF_INET6 ? sizeof(a->in6) : sizeof(a->in);
}

bool braid_sockaddr_equal(const union braid_sockaddr *a, const union braid_sockaddr *b)
{
	if (a->sa.sa_family != b->sa.sa_family)
		return false;
	if (a->sa.sa_family == AF_INET)
		return a->in.sin_port == b->in.sin_port && a->in.sin_addr.s_addr == b->in.sin_addr.s_addr;
	if (a->sa.sa_family == AF_INET6)
		return a->in6.sin6_port == b->in6.sin6_port &&
		       !memcmp(&a->in6.sin6_addr, &b->in6.sin6_addr, 16) &&
		       a->in6.sin6_scope_id == b->in6.sin6_scope_id;
	return false;
}

const char *braid_sockaddr_str(const union braid_sockaddr *a, char *buf, size_t len)
{
	char ip[INET6_ADDRSTRLEN];

	if (a->sa.sa_family == AF_INET) {
		inet_ntop(AF_INET, &a->in.sin_addr, ip, sizeof(ip));
		snprintf(buf, len, "[AF_INET]%s:%u", ip, ntohs(a->in.sin_port));
	} else if (a->sa.sa_family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&a->in6.sin6_addr)) {
		inet_ntop(AF_INET, &a->in6.sin6_addr.s6_addr[12], ip, sizeof(ip));
		snprintf(buf, len, "[AF_INET]%s:%u", ip, ntohs(a->in6.sin6_port));
	} else if (a->sa.sa_family == AF_INET6) {
		inet_ntop(AF_INET6, &a->in6.sin6_addr, ip, sizeof(ip));
		snprintf(buf, len, "[AF_INET6]%s:%u", ip, ntohs(a->in6.sin6_port));
	} else {
		snprintf(buf, len, "[unknown address family %d]", a->sa.sa_family);
	}
	return buf;
}

int braid_sockaddr_to_family(union braid_sockaddr *a, int family)
{
	if (a->sa.sa_family == family)
		return 0;
	if (a->sa.sa_family == AF_INET && family == AF_INET6) {
		struct sockaddr_in v4 = a->in;

		memset(a, 0, sizeof(*a));
		a->in6.sin6_family = AF_INET6;
		a->in6.sin6_port = v4.sin_port;
		a->in6.sin6_addr.s6_addr[10] = 0xff;
		a->in6.sin6_addr.s6_addr[11] = 0xff;
		memcpy(&a->in6.sin6_addr.s6_addr[12], &v4.sin_addr, 4);
		return 0;
	}
	if (a->sa.sa_family == AF_INET6 && family == AF_INET &&
	    IN6_IS_ADDR_V4MAPPED(&a->in6.sin6_addr)) {
		struct sockaddr_in6 v6 = a->in6;

		memset(a, 0, sizeof(*a));
		a->in.sin_family = AF_INET;
		a->in.sin_port = v6.sin6_port;
		memcpy(&a->in.sin_addr, &v6.sin6_addr.s6_addr[12], 4);
		return 0;
	}
	return -EAFNOSUPPORT;
}

int braid_sock_resolve(const char *host, uint16_t port, int family, bool passive,
		       union braid_sockaddr *out, char *err, size_t err_len)
{
	struct addrinfo hints, *res = NULL;
	char serv[8];
	int r;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = family;
	hints.ai_socktype = SOCK_DGRAM;
	hints.ai_protocol = IPPROTO_UDP;
	hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0);
	snprintf(serv, sizeof(serv), "%u", port);
	r = getaddrinfo(host, serv, &hints, &res);
	if (r || !res) {
		snprintf(err, err_len, "cannot resolve '%s'%s: %s", host ? host : "*",
			 family == AF_INET ? " (IPv4)" : family == AF_INET6 ? " (IPv6)" : "",
			 r ? gai_strerror(r) : "no address");
		if (res)
			freeaddrinfo(res);
		return -EHOSTUNREACH;
	}
	memset(out, 0, sizeof(*out));
	memcpy(out, res->ai_addr, res->ai_addrlen);
	freeaddrinfo(res);
	return 0;
}

int braid_sock_open_udp(int family, const union braid_sockaddr *bind_addr, bool v6only, int *fd)
{
	int s, r, one = 1, zero = 0, bufsz = 4 << 20;

	s = socket(family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_UDP);
	if (s < 0)
		return -errno;
	if (family == AF_INET6 &&
	    setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, v6only ? &one : &zero, sizeof(int)) < 0) {
		r = -errno;
		goto err_close;
	}
	/* large buffers: a burst from the TUN must not be dropped by the socket */
	setsockopt(s, SOL_SOCKET, SO_SNDBUF, &bufsz, sizeof(bufsz));
	setsockopt(s, SOL_SOCKET, SO_RCVBUF, &bufsz, sizeof(bufsz));
	if (bind_addr && bind(s, &bind_addr->sa, braid_sockaddr_len(bind_addr)) < 0) {
		r = -errno;
		goto err_close;
	}
	*fd = s;
	return 0;
err_close:
	close(s);
	return r;
}
