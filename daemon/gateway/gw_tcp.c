// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_tcp.c - the gateway's TCP connections (gw_tcp.h): accept (max-clients,
 * at most GW_TCP_UNAUTH_MAX without a finished handshake), the stream's
 * framing (lengths bounded), and each packet to the data path or the
 * client's control session. The write side is gw_link.c.
 */
#include "gateway/gw_tcp.h"

#include <errno.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gateway/gw_client.h"
#include "gateway/gw_cluster.h"
#include "gateway/gw_data.h"
#include "gateway/gw_io.h"
#include "gateway/gw_link.h"
#include "gateway/gw_table.h"
#include "os/mptcp.h"
#include "util/log.h"

static void tcp_r_cb(struct ev_loop *loop, ev_io *w, int revents);

static const struct gw_client_cbs tcp_cbs = {
	.ctl = braid_gw_ctl_cb, .tcp_read = tcp_r_cb, .tcp_write = braid_gw_tcp_w_cb,
};

static void tcp_packet(struct gw_client *c, uint8_t *pkt, size_t len)
{
	uint8_t op = pkt[0] >> BRAID_CTL_OP_SHIFT;

	c->g->st.link_rx_pkts++;
	if (op == BRAID_OP_DATA_V2 || op == BRAID_OP_DATA_V1) {
		if (op == BRAID_OP_DATA_V2 && len >= 4 &&
		    ((uint32_t)pkt[1] << 16 | (uint32_t)pkt[2] << 8 | pkt[3]) != braid_gw_wire_pid(c)) {
			c->g->st.data_unknown_peer++;
			return;
		}
		braid_gw_on_data(c, pkt, len, NULL);
		return;
	}
	braid_gw_on_control(c, pkt, len);
}

_Static_assert(BRAID_TCPFRAME_MAX_PKT <= BUF_SIZE - HEADROOM, "a TCP frame must fit g->buf");

static void tcp_r_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct gw_client *c = w->data;
	struct braid_gateway *g = c->g;
	const uint8_t *pkt;
	uint8_t *space;
	size_t room, plen;
	ssize_t n;
	int r;

	(void)loop;
	(void)revents;
	space = braid_tcpframe_space(&c->rx, &room);
	n = room ? recv(c->fd, space, room, 0) : 0;
	if (room && (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))) {
		braid_gw_client_kill(c, n == 0 ? "connection closed by the client" : "TCP read error");
		braid_gw_reap(g);
		return;
	}
	if (n > 0)
		braid_tcpframe_commit(&c->rx, (size_t)n);
	while (!c->dead && (r = braid_tcpframe_next(&c->rx, &pkt, &plen)) == 0) {
		/* plen <= BRAID_TCPFRAME_MAX_PKT, or 64 KiB with TCP super-packet frames (gw_tcpsuper.c) */
		uint8_t *dst = plen <= BUF_SIZE - HEADROOM ? g->buf + HEADROOM :
			       g->io ? g->io->super_rx : NULL;

		if (!dst || plen > BRAID_TCPSUPER_RX_BUF)
			break;	/* not reached: only a negotiated stream takes such lengths */
		memcpy(dst, pkt, plen);
		tcp_packet(c, dst, plen);
	}
	if (!c->dead && r == -EMSGSIZE) {
		char a[80];

		braid_reject_tcp_length(&g->rej, braid_sockaddr_str(&c->addr, a, sizeof(a)),
					c->rx.bad_len, c->rx.max_pkt, braid_gw_now_ms());
		if (c->st != C_ACTIVE)
			g->rej.count[BRAID_REJ_TCP_CLOSED]++;	/* the line above says it */
		braid_gw_client_kill(c, "bad encapsulated packet length: connection closed");
	}
	braid_gw_reap(g);
}

/* TCP connections whose TLS handshake has not finished (each bounded by hand-window). */
static unsigned tcp_unauth(const struct braid_gateway *g)
{
	unsigned n = 0;

	for (uint32_t i = 0; i < g->max_clients; i++) {
		const struct gw_client *c = g->by_pid[i];

		if (c && c->tcp && c->st == C_HANDSHAKE)
			n++;
	}
	return n;
}

void braid_gw_accept_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_gateway *g = w->data;
	union braid_sockaddr from;
	socklen_t fl = sizeof(from);
	struct gw_client *c;
	char err[256];
	int fd, r;

	(void)loop;
	(void)revents;
	fd = accept4(g->fd, &from.sa, &fl, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return;
	braid_mptcp_stream_opts(fd, g->o->sndbuf, g->o->rcvbuf);
	if (braid_gw_n_clients(g) >= g->client_limit) {
		g->st.max_clients_refused++;
		close(fd);
		return;
	}
	if (tcp_unauth(g) >= GW_TCP_UNAUTH_MAX) {
		char a[80];

		braid_reject(&g->rej, BRAID_REJ_TCP_REFUSED, braid_gw_now_ms(), 0,
			     "%s: TCP connection refused: %d unauthenticated TCP connections (limit)",
			     braid_sockaddr_str(&from, a, sizeof(a)), GW_TCP_UNAUTH_MAX);
		close(fd);
		return;
	}
	r = braid_gw_client_new(g, &from, fd, &tcp_cbs, &c);
	if (r) {
		close(fd);
		return;
	}
	r = braid_ctls_new(&c->ctl, &g->ccfg, braid_gw_now_ms(), err, sizeof(err));
	if (r) {
		braid_err("%s: cannot create a control session: %s", c->real, err);
		braid_gw_client_kill(c, "control session set-up failed");
		braid_gw_reap(g);
		return;
	}
	if (!g->mptcp)
		braid_info("%s: TCP connection accepted (peer-id %u)", c->real, c->pid);
	else if (braid_mptcp_active(fd) == 1)
		braid_info("%s: TCP connection accepted (peer-id %u), MPTCP", c->real, c->pid);
	else	/* said once per connection */
		braid_info("%s: TCP connection accepted (peer-id %u), plain TCP: the client (or a "
			   "middlebox) does not speak MPTCP", c->real, c->pid);
}
