// SPDX-License-Identifier: GPL-2.0-only
/*
 * tcplink.c - TCP client transport with u16 BE length framing (see tcplink.h).
 */
#include "os/tcplink.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "os/mptcp.h"

void braid_tcplink_init(struct braid_tcplink *l)
{
	memset(l, 0, sizeof(*l));
	l->fd = -1;
}

void braid_tcplink_close(struct braid_tcplink *l)
{
	if (l->fd >= 0)
		close(l->fd);
	braid_tcpframe_free(&l->rx);
	free(l->wbuf);
	braid_tcplink_init(l);
}

int braid_tcplink_connect(struct braid_tcplink *l, const union braid_sockaddr *remote,
			  const union braid_sockaddr *local, const struct braid_tcplink_opts *opts)
{
	static const struct braid_tcplink_opts plain;
	int r;

	braid_tcplink_close(l);
	r = braid_tcpframe_init(&l->rx, BRAID_TCPFRAME_MAX_PKT);
	if (r)
		return r;
	if (!opts)
		opts = &plain;
	r = braid_mptcp_socket(remote->sa.sa_family, opts->mptcp, opts->sndbuf, opts->rcvbuf,
			       &l->fd, &l->mptcp_socket, &l->mptcp_refused);
	if (r)
		goto err;
	if (local && bind(l->fd, &local->sa, braid_sockaddr_len(local)) < 0) {
		r = -errno;
		goto err;
	}
	l->remote = *remote;
	if (connect(l->fd, &remote->sa, braid_sockaddr_len(remote)) < 0) {
		if (errno != EINPROGRESS) {
			r = -errno;
			goto err;
		}
		l->connecting = true;
		return 0;
	}
	l->connected = true;
	return 0;
err:
	braid_tcplink_close(l);
	return r;
}

int braid_tcplink_connect_done(struct braid_tcplink *l)
{
	int err = 0;
	socklen_t len = sizeof(err);

	if (l->connected)
		return 0;
	if (l->fd < 0)
		return -ENOTCONN;
	if (getsockopt(l->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
		return -errno;
	if (err == EINPROGRESS || err == EALREADY)
		return -EINPROGRESS;
	if (err)
		return -err;
	l->connecting = false;
	l->connected = true;
	return 0;
}

int braid_tcplink_fd(const struct braid_tcplink *l)
{
	return l->fd;
}

bool braid_tcplink_want_write(const struct braid_tcplink *l)
{
	return l->fd >= 0 && (l->connecting || l->woff < l->wlen);
}

size_t braid_tcplink_pending(const struct braid_tcplink *l)
{
	return l->wlen - l->woff;
}

int braid_tcplink_flush(struct braid_tcplink *l)
{
	while (l->woff < l->wlen) {
		ssize_t n = send(l->fd, l->wbuf + l->woff, l->wlen - l->woff, MSG_NOSIGNAL);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return -EAGAIN;
			return -errno;
		}
		l->woff += (size_t)n;
		l->tx_bytes += (uint64_t)n;
	}
	l->woff = l->wlen = 0;
	return 0;
}

int braid_tcplink_send(struct braid_tcplink *l, const uint8_t *pkt, size_t len)
{
	size_t need;
	int r;

	if (!l->connected)
		return -ENOTCONN;
	if (!len || len > BRAID_TCPLINK_MAX_PKT)
		return -EMSGSIZE;
	if (braid_tcplink_pending(l) + len + 2 > BRAID_TCPLINK_WQ_MAX)
		return -ENOBUFS;
	if (l->woff && l->woff == l->wlen)
		l->woff = l->wlen = 0;
	if (l->woff > l->wcap / 2) {
		memmove(l->wbuf, l->wbuf + l->woff, l->wlen - l->woff);
		l->wlen -= l->woff;
		l->woff = 0;
	}
	need = l->wlen + len + 2;
	if (need > l->wcap) {
		size_t cap = l->wcap ? l->wcap : 16384;
		uint8_t *b;

		while (cap < need)
			cap *= 2;
		b = realloc(l->wbuf, cap);
		if (!b)
			return -ENOMEM;
		l->wbuf = b;
		l->wcap = cap;
	}
	l->wbuf[l->wlen] = (uint8_t)(len >> 8);
	l->wbuf[l->wlen + 1] = (uint8_t)len;
	memcpy(l->wbuf + l->wlen + 2, pkt, len);
	l->wlen += len + 2;
	r = braid_tcplink_flush(l);
	return r == -EAGAIN ? 0 : r;
}

int braid_tcplink_read(struct braid_tcplink *l)
{
	uint8_t *p;
	size_t room;
	ssize_t n;

	if (l->fd < 0 || !l->rx.buf)
		return -ENOTCONN;
	p = braid_tcpframe_space(&l->rx, &room);
	if (!room)
		return 0;	/* a whole packet waits to be taken */
	n = recv(l->fd, p, room, 0);
	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return 0;
		return -errno;
	}
	if (n == 0)
		return -ECONNRESET;
	braid_tcpframe_commit(&l->rx, (size_t)n);
	l->rx_bytes += (uint64_t)n;
	return 0;
}

int braid_tcplink_next(struct braid_tcplink *l, const uint8_t **pkt, size_t *len)
{
	if (!l->rx.buf)
		return -EAGAIN;
	return braid_tcpframe_next(&l->rx, pkt, len);
}
