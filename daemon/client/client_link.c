// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_link.c - the TLS client's link to the server (client_link.h):
 * sending on the UDP socket or the TCP link (with its write queue) and
 * closing it. Reading it is client_io.c's.
 */
#include "client/client_link.h"

#include <errno.h>
#include <sys/socket.h>
#include <unistd.h>

#include "client/client_state.h"
#include "os/tcplink.h"

int client_link_send(struct braid_client *c, const uint8_t *pkt, size_t len)
{
	int r;

	if (c->tcp) {
		r = braid_tcplink_send(&c->tl, pkt, len);
		if (r == 0 && braid_tcplink_want_write(&c->tl))
			ev_io_start(c->loop, &c->sock_w);
		if (r && r != -ENOBUFS)
			client_request_restart(c, "connection-reset", false);
	} else {
		if (send(c->ufd, pkt, len, 0) < 0)
			r = -errno;
		else
			r = 0;
	}
	if (r) {
		c->stt.tx_dropped++;
		return r;
	}
	c->stt.link_tx_pkts++;
	c->stt.link_tx_bytes += len;
	c->last_tx = ev_now(c->loop);
	return 0;
}

void client_close_link(struct braid_client *c)
{
	ev_io_stop(c->loop, &c->sock_r);
	ev_io_stop(c->loop, &c->sock_w);
	if (c->tcp)
		braid_tcplink_close(&c->tl);
	c->txb.n = 0;	/* sealed for this socket: never sent on the next one */
	if (c->ufd >= 0) {
		close(c->ufd);
		c->ufd = -1;
	}
}
