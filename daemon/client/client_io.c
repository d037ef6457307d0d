// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_io.c - the TLS client's packet I/O (client_io.h): reading the UDP
 * socket or TCP link (data packets to the data channel, control packets to
 * the session), reading the TUN into the data channel, and the TCP connect
 * completion and write-queue drain. Sending a packet is client_link.c's, a
 * decrypted payload client_payload.c's.
 */
#include "client/client_io.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "client/client_ctl.h"
#include "client/client_link.h"
#include "client/client_mp.h"
#include "client/client_payload.h"
#include "client/client_sp.h"
#include "client/client_state.h"
#include "ctl/session.h"
#include "dataplane/backend.h"
#include "dataplane/dco_up.h"
#include "dataplane/mssfix.h"
#include "dc/dc.h"
#include "dc/payload.h"
#include "os/sock.h"
#include "os/tcplink.h"
#include "client/client_mptcp.h"
#include "util/log.h"

#define TUN_BATCH 64

/* ---- data channel ---- */

void client_send_payload(struct braid_client *c, const uint8_t *pl, size_t len)
{
	int r;

	if (!c->dc || c->st != CS_UP)
		return;
	if (c->mp) {
		client_mp_send_payload(c, pl, len);
		return;
	}
	if (!c->sp)
		return;
	r = braid_dp_send(c->sp, pl, len);
	if (r == -EOVERFLOW)
		client_request_restart(c, "packet-id-exhausted", false);
}

void client_send_ping(struct braid_client *c)
{
	uint8_t ping[BRAID_PING_LEN + 2];
	size_t len;

	if (!braid_payload_build_ping(c->framing, ping, sizeof(ping), &len)) {
		client_send_payload(c, ping, len);
		c->stt.pings_tx++;
	}
}

/* Send the UDP batch (sendmmsg, GSO runs); a datagram refused is dropped and counted, as send() was. */
static void tx_flush(struct braid_client *c)
{
	unsigned int n = c->txb.n ? braid_txb_flush(&c->txb) : 0;

	for (unsigned int i = 0; i < n; i++) {
		if (c->txb.res[i]) {
			c->stt.tx_dropped++;
			continue;
		}
		c->stt.link_tx_pkts++;
		c->stt.link_tx_bytes += c->txb.e[i].len;
		c->last_tx = ev_now(c->loop);
	}
	c->txb.n = 0;
}

/*
 * A framed payload read from the TUN, sealed into the next txbuf slot and
 * queued for the batch: 0 (queued, or dropped as braid_dp_send drops it), or
 * -EOPNOTSUPP when this link does not batch (TCP, MPTCP, multipath, not up):
 * send it one by one.
 */
static int tx_queue(struct braid_client *c, const uint8_t *pl, size_t len)
{
	uint8_t *slot;
	size_t olen;
	int r;

	if (c->tcp || c->ufd < 0 || c->mp || !c->sp || !c->dc || c->st != CS_UP)
		return -EOPNOTSUPP;
	if (c->txb.n >= BRAID_TXB_MAX)
		tx_flush(c);
	slot = c->txbuf + (size_t)c->txb.n * BUF_SIZE;
	r = braid_dp_seal(c->sp, pl, len, slot, BUF_SIZE, &olen);
	if (r == -EOPNOTSUPP)
		return r;
	if (r) {
		if (r == -EOVERFLOW)
			client_request_restart(c, "packet-id-exhausted", false);
		return 0;
	}
	/* the socket is connected to c->remote: the same destination, named for the batch */
	braid_txb_add(&c->txb, c->ufd, &c->gso, &c->remote, slot, olen);
	return 0;
}

void client_tun_read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_client *c = w->data;

	(void)loop, (void)revents;
	if (c->mp && c->st == CS_UP) {
		client_mp_tun_readable(c);
		return;
	}
	for (int i = 0; i < TUN_BATCH; i++) {
		ssize_t len;
		size_t flen;

		if (c->tcp && braid_tcplink_pending(&c->tl) > BRAID_TCPLINK_WQ_MAX / 2) {
			/* the TCP socket is full: wait for it to drain */
			ev_io_stop(c->loop, &c->tun_r);
			ev_io_start(c->loop, &c->sock_w);
			return;
		}
		len = read(c->tun.fd, c->plain, BUF_SIZE - 64);
		if (len < 0)
			break;
		c->stt.tun_read_pkts++;
		c->stt.tun_read_bytes += (uint64_t)len;
		if (c->st != CS_UP || len < 1)
			continue;
		braid_mssfix_apply(&c->mss, c->plain, (size_t)len);
		if (braid_payload_frame(c->framing, c->plain, (size_t)len, c->framed, BUF_SIZE,
					&flen))
			continue;
		if (tx_queue(c, c->framed, flen))
			client_send_payload(c, c->framed, flen);
	}
	tx_flush(c);
}

static void rx_data(struct braid_client *c, const uint8_t *pkt, size_t len)
{
	if (!c->dc || !c->sp) {
		c->stt.rx_malformed++;
		return;
	}
	braid_dp_input(c->sp, pkt, len, NULL);
}

static void rx_packet(struct braid_client *c, const uint8_t *pkt, size_t len)
{
	uint8_t op;
	int r;

	c->stt.link_rx_pkts++;
	c->stt.link_rx_bytes += len;
	if (!len)
		return;
	op = pkt[0] >> 3;
	/* BRAID_DCO_UP_OPCODE_V: what braid_dco hands up (the kernel backend's input reads it) */
	if (op == BRAID_OP_DATA_V1 || op == BRAID_OP_DATA_V2 || op == BRAID_DCO_UP_OPCODE_V) {
		rx_data(c, pkt, len);
		return;
	}
	if (!c->s)
		return;
	r = braid_ctls_input(c->s, pkt, len, client_now_ms());
	if (r) {
		char a[80];
		int k;

		c->stt.rx_ctl_dropped++;
		k = braid_reject_ctl(&c->rej, braid_ctls_last_reason(c->s), c->wrap, pkt, len,
				     braid_sockaddr_str(&c->remote, a, sizeof(a)),
				     braid_ctls_last_error(c->s), client_now_ms());
		if ((k == BRAID_REJ_HMAC || k == BRAID_REJ_TLS_CRYPT) &&
		    ev_now(c->loop) - c->last_auth_log >= 1.0) {
			c->last_auth_log = ev_now(c->loop);
			braid_warn("%s verification failed: control packet dropped (%s); "
				   "wrong key or key-direction?",
				   c->wrap == BRAID_CTLS_WRAP_AUTH ? "tls-auth" : "tls-crypt",
				   braid_ctls_last_error(c->s));
		}
		/* OpenVPN: a TLS error on a stream restarts the connection */
		if (c->tcp && k >= 0 && k != BRAID_REJ_REPLAY)
			client_request_restart(c, "tls-error", false);
		return;
	}
	c->ctl_ok++;
	c->last_rx = ev_now(c->loop);
	/*
	 * Act on it before the next packet of this batch: the server sends data under a
	 * renegotiated key right behind the control message that completes it (over TCP in the
	 * same read), and that key must be installed first (KEYS_READY) or the packet is lost.
	 */
	client_pump(c);
}

/* One datagram of a UDP read, or of a GRO message; nonzero: stop reading (restart or exit). */
static int udp_packet(struct braid_client *c, const uint8_t *p, size_t len)
{
	rx_packet(c, p, len);
	return c->restart_reason || c->exit_req;
}

/* Read the UDP socket by recvmmsg (GRO messages split); nonzero: stop (restart or exit). */
static int udp_read(struct braid_client *c)
{
	int vlen = c->gro ? CLIENT_RX_BATCH_GRO : CLIENT_RX_BATCH;
	size_t bs = c->gro ? CLIENT_RX_BUF_GRO : BUF_SIZE;
	int n;

	for (int i = 0; i < vlen; i++) {
		c->rxiov[i].iov_base = c->rxbuf + (size_t)i * bs;
		c->rxiov[i].iov_len = bs;
		memset(&c->rxmsg[i], 0, sizeof(c->rxmsg[i]));
		c->rxmsg[i].msg_hdr.msg_iov = &c->rxiov[i];
		c->rxmsg[i].msg_hdr.msg_iovlen = 1;
		if (c->gro) {
			c->rxmsg[i].msg_hdr.msg_control = c->rxctl[i].b;
			c->rxmsg[i].msg_hdr.msg_controllen = sizeof(c->rxctl[i].b);
		}
	}
	do
		n = recvmmsg(c->ufd, c->rxmsg, (unsigned int)vlen, MSG_DONTWAIT, NULL);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		if (errno == ECONNREFUSED)
			braid_dbg("UDP: connection refused (ICMP) by the server");
		return 0;
	}
	for (int i = 0; i < n; i++) {
		const uint8_t *p = c->rxbuf + (size_t)i * bs;
		size_t len = c->rxmsg[i].msg_len, seg = 0;

		if (c->rxmsg[i].msg_hdr.msg_flags & MSG_TRUNC) {
			c->stt.link_rx_pkts++;
			c->stt.rx_malformed++;
			continue;
		}
		if (c->gro)
			seg = braid_sock_gro_size(&c->rxmsg[i].msg_hdr);
		if (!seg || seg > len)
			seg = len;
		if (!len && udp_packet(c, p, 0))	/* an empty datagram: counted, as before */
			return 1;
		/* coalesced by GRO: datagrams of seg bytes, the last may be shorter */
		for (size_t o = 0; o < len; o += seg)
			if (udp_packet(c, p + o, len - o < seg ? len - o : seg))
				return 1;
	}
	return 0;
}

void client_sock_read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_client *c = w->data;
	const uint8_t *p;
	size_t len;
	int r;

	(void)loop, (void)revents;
	if (c->tcp) {
		r = braid_tcplink_read(&c->tl);
		if (r) {
			braid_warn("TCP connection to the server %s: %s", r == -ECONNRESET ?
				   "closed by the peer" : "failed", r == -ECONNRESET ? "EOF" :
				   strerror(-r));
			client_request_restart(c, "connection-reset", false);
			return;
		}
		while ((r = braid_tcplink_next(&c->tl, &p, &len)) == 0) {
			rx_packet(c, p, len);
			if (c->restart_reason || c->exit_req)
				return;
		}
		if (r == -EMSGSIZE) {
			char a[80];

			braid_reject_tcp_length(&c->rej, braid_sockaddr_str(&c->remote, a, sizeof(a)),
						c->tl.rx.bad_len, c->tl.rx.max_pkt, client_now_ms());
			client_request_restart(c, "connection-reset", false);
			return;
		}
	} else if (udp_read(c)) {
		return;
	}
	client_pump(c);
}

void client_sock_write_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_client *c = w->data;
	int r;

	(void)loop, (void)revents;
	if (c->st == CS_TCP_CONNECTING) {
		char a[128];

		r = braid_tcplink_connect_done(&c->tl);
		if (r == -EINPROGRESS)
			return;
		if (r) {
			braid_warn("TCP connect to %s failed: %s",
				   braid_sockaddr_str(&c->remote, a, sizeof(a)), strerror(-r));
			client_request_restart(c, "connection-failed", true);
			return;
		}
		braid_info("TCP connection established with %s",
			   braid_sockaddr_str(&c->remote, a, sizeof(a)));
		client_mptcp_connected(c);
		ev_io_stop(c->loop, &c->sock_w);
		ev_io_start(c->loop, &c->sock_r);
		if (client_new_session(c))
			client_request_exit(c, 1);	/* a configuration problem: retrying cannot help */
		return;
	}
	r = braid_tcplink_flush(&c->tl);
	if (r == -EAGAIN)
		return;
	ev_io_stop(c->loop, &c->sock_w);
	if (r) {
		braid_warn("TCP write to the server failed: %s", strerror(-r));
		client_request_restart(c, "connection-reset", false);
		return;
	}
	if (!ev_is_active(&c->tun_r) && c->tun_open)
		ev_io_start(c->loop, &c->tun_r);
}
