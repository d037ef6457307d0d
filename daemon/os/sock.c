// SPDX-License-Identifier: GPL-2.0-only
/*
 * sock.c - UDP socket setup and socket-address helpers.
 */
#include "os/sock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/udp.h>
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

int braid_sock_gso_ok(int fd)
{
	int v = 0;
	socklen_t l = sizeof(v);

	return getsockopt(fd, SOL_UDP, UDP_SEGMENT, &v, &l) == 0;
}

int braid_sock_set_gro(int fd)
{
	int one = 1;

	return setsockopt(fd, SOL_UDP, UDP_GRO, &one, sizeof(one)) < 0 ? -errno : 0;
}

size_t braid_sock_gro_size(const struct msghdr *h)
{
	struct cmsghdr *c;

	for (c = CMSG_FIRSTHDR(h); c; c = CMSG_NXTHDR((struct msghdr *)h, c)) {
		int v;

		if (c->cmsg_level != SOL_UDP || c->cmsg_type != UDP_GRO ||
		    c->cmsg_len < CMSG_LEN(sizeof(v)))
			continue;
		memcpy(&v, CMSG_DATA(c), sizeof(v));
		return v > 0 ? (size_t)v : 0;
	}
	return 0;
}

int braid_sock_recvmmsg(int fd, const struct braid_rxmm *r, unsigned int vlen)
{
	int n;

	for (unsigned int i = 0; i < vlen; i++) {
		struct msghdr *h = &r->msg[i].msg_hdr;

		r->iov[i].iov_base = r->buf + (size_t)i * r->bs;
		r->iov[i].iov_len = r->bs;
		memset(&r->msg[i], 0, sizeof(r->msg[i]));
		h->msg_iov = &r->iov[i];
		h->msg_iovlen = 1;
		if (r->addr) {
			h->msg_name = &r->addr[i];
			h->msg_namelen = sizeof(r->addr[i]);
		}
		if (r->ctl) {
			h->msg_control = (uint8_t *)r->ctl + (size_t)i * r->ctl_len;
			h->msg_controllen = r->ctl_len;
		}
	}
	do
		n = recvmmsg(fd, r->msg, vlen, MSG_DONTWAIT, NULL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
	return n;
}

int braid_sock_dgrams_begin(struct braid_sock_dgrams *d, const struct braid_rxmm *r, unsigned int i,
			    bool gro)
{
	const struct msghdr *h = &r->msg[i].msg_hdr;
	size_t len = r->msg[i].msg_len, seg = 0;

	memset(d, 0, sizeof(*d));
	if (h->msg_flags & MSG_TRUNC)
		return -EMSGSIZE;
	if (len > r->bs)	/* cannot happen without MSG_TRUNC: bounded all the same */
		return -EMSGSIZE;
	/* the GRO segment size may be what was cut off: the datagrams' bounds are unknown */
	if (gro && (h->msg_flags & MSG_CTRUNC))
		return -ENOBUFS;
	if (gro)
		seg = braid_sock_gro_size(h);
	if (!seg || seg > len)
		seg = len;
	d->p = r->buf + (size_t)i * r->bs;
	d->len = len;
	d->seg = seg;
	d->empty = !len;
	return 0;
}

bool braid_sock_dgrams_next(struct braid_sock_dgrams *d, const uint8_t **p, size_t *len)
{
	if (d->empty) {
		d->empty = false;
		*p = d->p;
		*len = 0;
		return true;
	}
	if (d->off >= d->len)
		return false;
	/* coalesced by GRO: datagrams of seg bytes, the last may be shorter */
	*p = d->p + d->off;
	*len = d->len - d->off < d->seg ? d->len - d->off : d->seg;
	d->off += *len;
	return true;
}

int braid_txb_add(struct braid_txbatch *b, int fd, bool *gso, const union braid_sockaddr *peer,
		  const void *p, size_t len)
{
	struct braid_txb_ent *e;

	if (b->n >= BRAID_TXB_MAX)
		return -ENOBUFS;
	e = &b->e[b->n++];
	e->fd = fd;
	e->gso = gso;
	e->peer = peer;
	e->src = NULL;
	e->p = p;
	e->len = len;
	return 0;
}

void braid_txb_set_src(struct braid_txbatch *b, const struct braid_pktinfo *src)
{
	if (b->n)
		b->e[b->n - 1].src = src && src->family ? src : NULL;
}

size_t braid_sock_src_cmsg(void *c, size_t room, const struct braid_pktinfo *src, bool same_if)
{
	struct cmsghdr *cm = c;

	if (!src || !src->family)
		return 0;
	if (src->family == AF_INET) {
		/* also on a dual-stack socket to a v4-mapped peer: the kernel takes IP_PKTINFO there */
		struct in_pktinfo pi = { .ipi_spec_dst = src->addr.v4 };

		if (room < CMSG_SPACE(sizeof(pi)))
			return 0;
		pi.ipi_ifindex = same_if ? src->ifindex : 0;
		memset(c, 0, CMSG_SPACE(sizeof(pi)));
		cm->cmsg_level = IPPROTO_IP;
		cm->cmsg_type = IP_PKTINFO;
		cm->cmsg_len = CMSG_LEN(sizeof(pi));
		memcpy(CMSG_DATA(cm), &pi, sizeof(pi));
		return CMSG_SPACE(sizeof(pi));
	}
	{
		struct in6_pktinfo pi = { .ipi6_addr = src->addr.v6 };

		if (room < CMSG_SPACE(sizeof(pi)))
			return 0;
		/* a link-local source needs its interface */
		pi.ipi6_ifindex = same_if || IN6_IS_ADDR_LINKLOCAL(&src->addr.v6) ?
					  (unsigned)src->ifindex : 0;
		memset(c, 0, CMSG_SPACE(sizeof(pi)));
		cm->cmsg_level = IPPROTO_IPV6;
		cm->cmsg_type = IPV6_PKTINFO;
		cm->cmsg_len = CMSG_LEN(sizeof(pi));
		memcpy(CMSG_DATA(cm), &pi, sizeof(pi));
		return CMSG_SPACE(sizeof(pi));
	}
}

static bool same_src(const struct braid_pktinfo *a, const struct braid_pktinfo *b)
{
	if (!a || !b)
		return a == b;
	return a->family == b->family && !memcmp(&a->addr, &b->addr, sizeof(a->addr));
}

static bool same_dest(const struct braid_txb_ent *a, const struct braid_txb_ent *b)
{
	return a->fd == b->fd && braid_sockaddr_equal(a->peer, b->peer) && same_src(a->src, b->src);
}

/* Positions [i, end) of ord one by one, each result into res. */
static void txb_single(struct braid_txbatch *b, unsigned int i, unsigned int end)
{
	for (; i < end; i++) {
		const struct braid_txb_ent *e = &b->e[b->ord[i]];
		ssize_t r;

		union {
			struct cmsghdr align;
			uint8_t b[BRAID_SOCK_SRC_CMSG];
		} ctl;
		struct iovec iov = { .iov_base = (void *)e->p, .iov_len = e->len };
		struct msghdr h = {
			.msg_name = (void *)&e->peer->sa, .msg_namelen = braid_sockaddr_len(e->peer),
			.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.b,
		};

		h.msg_controllen = braid_sock_src_cmsg(ctl.b, sizeof(ctl.b), e->src, false);
		if (!h.msg_controllen)
			h.msg_control = NULL;
		do {
			r = sendmsg(e->fd, &h, 0);
			b->syscalls++;
		} while (r < 0 && errno == EINTR);
		b->res[b->ord[i]] = r < 0 ? -errno : 0;
	}
}

/* How many positions of ord from i go into one message. */
static unsigned int txb_run(const struct braid_txbatch *b, unsigned int i)
{
	const struct braid_txb_ent *e = &b->e[b->ord[i]];
	size_t bytes = e->len;
	unsigned int j = i + 1;

	if (!e->gso || !*e->gso)
		return 1;
	while (j < b->n && j - i < BRAID_TXB_GSO_SEGS) {
		const struct braid_txb_ent *f = &b->e[b->ord[j]];

		if (f->len > e->len || bytes + f->len > BRAID_TXB_GSO_BYTES || !same_dest(f, e))
			break;
		bytes += f->len;
		j++;
		if (f->len < e->len)	/* only the last may be shorter */
			break;
	}
	return j - i;
}

/* ord: the entries grouped by destination, first-seen order, stable within one. */
static void txb_order(struct braid_txbatch *b)
{
	bool placed[BRAID_TXB_MAX] = { false };
	unsigned int k = 0;

	for (unsigned int i = 0; i < b->n; i++) {
		if (placed[i])
			continue;
		for (unsigned int j = i; j < b->n; j++)
			if (!placed[j] && (j == i || same_dest(&b->e[j], &b->e[i]))) {
				placed[j] = true;
				b->ord[k++] = j;
			}
	}
}

unsigned int braid_txb_flush(struct braid_txbatch *b)
{
	unsigned int nm = 0, i = 0, k;

	txb_order(b);
	while (i < b->n) {
		unsigned int c = txb_run(b, i);
		struct msghdr *h = &b->msg[nm].msg_hdr;
		const struct braid_txb_ent *e = &b->e[b->ord[i]];

		memset(&b->msg[nm], 0, sizeof(b->msg[nm]));
		for (unsigned int j = i; j < i + c; j++) {
			b->iov[j].iov_base = (void *)b->e[b->ord[j]].p;
			b->iov[j].iov_len = b->e[b->ord[j]].len;
			b->res[b->ord[j]] = 0;
		}
		h->msg_iov = &b->iov[i];
		h->msg_iovlen = c;
		h->msg_name = (void *)&e->peer->sa;
		h->msg_namelen = braid_sockaddr_len(e->peer);
		if (c > 1 || e->src) {
			size_t used = 0;

			memset(b->ctl[nm].b, 0, sizeof(b->ctl[nm].b));
			h->msg_control = b->ctl[nm].b;
			if (c > 1) {
				struct cmsghdr *cm = (struct cmsghdr *)(void *)b->ctl[nm].b;
				uint16_t seg = (uint16_t)e->len;

				cm->cmsg_level = SOL_UDP;
				cm->cmsg_type = UDP_SEGMENT;
				cm->cmsg_len = CMSG_LEN(sizeof(seg));
				memcpy(CMSG_DATA(cm), &seg, sizeof(seg));
				used = CMSG_SPACE(sizeof(seg));
				b->gso_msgs++;
			}
			/* the source address: the same for every entry of the run (same_dest) */
			used += braid_sock_src_cmsg(b->ctl[nm].b + used, sizeof(b->ctl[nm].b) - used,
						    e->src, false);
			h->msg_controllen = used;
		}
		b->first[nm++] = i;
		i += c;
	}
	k = 0;
	while (k < nm) {
		int fd = b->e[b->ord[b->first[k]]].fd;
		unsigned int l = k + 1, beg, end;
		int r, err;

		while (l < nm && b->e[b->ord[b->first[l]]].fd == fd)
			l++;
		r = sendmmsg(fd, &b->msg[k], l - k, 0);
		b->syscalls++;
		if (r > 0) {
			k += (unsigned int)r;
			continue;
		}
		if (r < 0 && errno == EINTR)
			continue;
		/* message k failed: its entries get the error, or go one by one */
		err = r < 0 ? errno : EIO;
		beg = b->first[k];
		end = k + 1 < nm ? b->first[k + 1] : b->n;
		if (end - beg > 1 && (err == EIO || err == EINVAL || err == EMSGSIZE)) {
			bool *gso = b->e[b->ord[beg]].gso;

			if (err == EIO && gso)
				*gso = false;
			b->gso_fallbacks++;
			txb_single(b, beg, end);
		} else {
			for (unsigned int j = beg; j < end; j++)
				b->res[b->ord[j]] = -err;
		}
		k++;
	}
	return b->n;
}
