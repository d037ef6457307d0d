// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_link.c - one packet to a client (gw_link.h): a UDP datagram on the
 * gateway's socket, or a frame on the client's TCP write queue (bounded at
 * TCP_WQ_MAX, flushed when the socket is writable).
 */
#include "gateway/gw_link.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "gateway/gw_table.h"
#include "util/log.h"

static int tcp_queue(struct gw_client *c, const uint8_t *pkt, size_t len)
{
	ssize_t n;

	if (len > 65535)
		return -EMSGSIZE;
	if (c->wlen - c->woff + len + 2 > TCP_WQ_MAX)
		return -ENOBUFS;
	if (c->woff && c->woff == c->wlen)
		c->woff = c->wlen = 0;
	if (!c->wbuf) {
		c->wbuf = malloc(TCP_WQ_MAX + 2);
		if (!c->wbuf)
			return -ENOMEM;
	}
	if (c->wlen + len + 2 > TCP_WQ_MAX + 2) {
		memmove(c->wbuf, c->wbuf + c->woff, c->wlen - c->woff);
		c->wlen -= c->woff;
		c->woff = 0;
	}
	c->wbuf[c->wlen] = (uint8_t)(len >> 8);
	c->wbuf[c->wlen + 1] = (uint8_t)len;
	memcpy(c->wbuf + c->wlen + 2, pkt, len);
	c->wlen += len + 2;
	while (c->woff < c->wlen) {
		n = send(c->fd, c->wbuf + c->woff, c->wlen - c->woff, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				break;
			if (errno == EINTR)
				continue;
			return -errno;
		}
		c->woff += (size_t)n;
	}
	if (c->woff < c->wlen)
		ev_io_start(c->g->loop, &c->io_w);
	return 0;
}

void braid_gw_send_raw(struct gw_client *c, const uint8_t *pkt, size_t len)
{
	struct braid_gateway *g = c->g;

	if (c->tcp) {
		int r = tcp_queue(c, pkt, len);

		if (r == -ENOBUFS) {
			/* as stock's tcp-queue-limit: a client that cannot take what the tunnel sends loses packets */
			braid_reject(&g->rej, BRAID_REJ_TCP_QUEUE, braid_gw_now_ms(), 0,
				     "%s/%s: TCP send queue full (%zu bytes queued): packet dropped",
				     braid_gw_cname(c), c->real, c->wlen - c->woff);
			return;
		}
		if (r)
			braid_dbg("%s/%s: TCP send failed: %s", braid_gw_cname(c), c->real, strerror(-r));
	} else if (braid_pktinfo_send(g->fd, pkt, len, &c->addr, &c->local,
				      g->o->multihome_same_if) < 0) {
		braid_dbg("%s/%s: sendto: %s", braid_gw_cname(c), c->real, strerror(errno));
		return;
	}
	g->st.link_tx_pkts++;
	c->tx_bytes += len;
}

void braid_gw_tcp_w_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct gw_client *c = w->data;
	ssize_t n;

	(void)revents;
	while (c->woff < c->wlen) {
		n = send(c->fd, c->wbuf + c->woff, c->wlen - c->woff, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return;
			if (errno == EINTR)
				continue;
			braid_gw_client_kill(c, "TCP write error");
			braid_gw_reap(c->g);
			return;
		}
		c->woff += (size_t)n;
	}
	ev_io_stop(loop, w);
}
