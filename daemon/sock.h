/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sock.h - UDP sockets and socket addresses: open/bind, resolve, compare,
 * print ("[AF_INET]10.1.2.2:1194", as OpenVPN prints peers).
 *
 * An IPv6 socket may be dual-stack; IPv4 peers then appear as v4-mapped
 * addresses. braid_sockaddr_to_family() converts an address to the form a
 * socket needs, braid_sockaddr_str() prints v4-mapped addresses as IPv4.
 */
#ifndef BRAID_SOCK_H
#define BRAID_SOCK_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

union braid_sockaddr {
	struct sockaddr sa;
	struct sockaddr_in in;
	struct sockaddr_in6 in6;
	struct sockaddr_storage ss;
};

socklen_t braid_sockaddr_len(const union braid_sockaddr *a);
bool braid_sockaddr_equal(const union braid_sockaddr *a, const union braid_sockaddr *b);
const char *braid_sockaddr_str(const union braid_sockaddr *a, char *buf, size_t len);
/* In place: a v4 address for an AF_INET6 socket becomes v4-mapped. -EAFNOSUPPORT if impossible. */
int braid_sockaddr_to_family(union braid_sockaddr *a, int family);

/*
 * getaddrinfo wrapper: host (NULL = wildcard when passive) and port into
 * out; family AF_UNSPEC/AF_INET/AF_INET6. 0 or -EHOSTUNREACH with a message
 * naming host and reason in err.
 */
int braid_sock_resolve(const char *host, uint16_t port, int family, bool passive,
		       union braid_sockaddr *out, char *err, size_t err_len);

/*
 * A non-blocking UDP socket of family; bound to bind_addr unless NULL. An
 * AF_INET6 socket is dual-stack when v6only is false. 0 or -errno.
 */
int braid_sock_open_udp(int family, const union braid_sockaddr *bind_addr, bool v6only, int *fd);

#endif /* BRAID_SOCK_H */
