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
#include "client/client_tcpsuper.h"
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
#define TUN_READS_VNET 8	/* vnet TUN reads per wakeup (each up to 64 KiB) */

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

/* One IP packet read from the TUN (or a segment of a super-packet): clamped, framed, queued or sent. */
static void tun_packet(struct braid_client *c, uint8_t *ip, size_t len)
{
	size_t flen;

	c->stt.tun_read_pkts++;
	c->stt.tun_read_bytes += (uint64_t)len;
	if (c->st != CS_UP || len < 1)
		return;
	braid_mssfix_apply(&c->mss, ip, len);
	if (braid_payload_frame(c->framing, ip, len, c->framed, BUF_SIZE, &flen))
		return;
	if (tx_queue(c, c->framed, flen))
		client_send_payload(c, c->framed, flen);
}

/* The TCP socket is full: wait for it to drain (true: stop reading). */
static bool tcp_full(struct braid_client *c)
{
	if (!c->tcp || braid_tcplink_pending(&c->tl) <= BRAID_TCPLINK_WQ_MAX / 2)
		return false;
	ev_io_stop(c->loop, &c->tun_r);
	ev_io_start(c->loop, &c->sock_w);
	return true;
}

/* Reads of a vnet TUN: each one split into the packets it stands for (MSS-sized TCP segments). */
static void tun_read_vnet(struct braid_client *c)
{
	for (int i = 0; i < TUN_READS_VNET; i++) {
		struct braid_tun_split sp;
		ssize_t len;
		long seg;

		if (tcp_full(c))
			return;
		len = read(c->tun.fd, c->tunrd, BRAID_TUN_SUPER_MAX);
		if (len < 0 && errno == EINTR)
			continue;
		if (len < 0)
			return;
		if (braid_tun_split_begin(&sp, c->tunrd, (size_t)len)) {
			c->stt.rx_malformed++;
			braid_dbg("%s: a read the kernel should not give (vnet header): dropped",
				  c->tun.name);
			continue;
		}
		if (sp.gso_type && !client_tcpsuper_send(c, &sp))
			continue;	/* as TCP super-packet frames (client_tcpsuper.c) */
		while ((seg = braid_tun_split_next(&sp, c->plain, BUF_SIZE - 64)) > 0)
			tun_packet(c, c->plain, (size_t)seg);
		if (seg < 0)
			braid_dbg("%s: a segment over the buffer: dropped", c->tun.name);
	}
}

void client_tun_read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_client *c = w->data;

	(void)loop, (void)revents;
	if (c->mp && c->st == CS_UP) {
		client_mp_tun_readable(c);
		return;
	}
	if (c->tunrd) {
		tun_read_vnet(c);
		tx_flush(c);
		return;
	}
	for (int i = 0; i < TUN_BATCH; i++) {
		ssize_t len;

		if (tcp_full(c))
			return;
		len = read(c->tun.fd, c->plain, BUF_SIZE - 64);
		if (len < 0)
			break;
		tun_packet(c, c->plain, (size_t)len);
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
	const struct braid_rxmm rx = {
		.msg = c->rxmsg, .iov = c->rxiov, .buf = c->rxbuf,
		.bs = c->gro ? CLIENT_RX_BUF_GRO : BUF_SIZE,
		.ctl = c->gro ? c->rxctl : NULL, .ctl_len = sizeof(c->rxctl[0]),
	};
	int n = braid_sock_recvmmsg(c->ufd, &rx, c->gro ? CLIENT_RX_BATCH_GRO : CLIENT_RX_BATCH);

	if (n == -ECONNREFUSED)
		braid_dbg("UDP: connection refused (ICMP) by the server");
	for (int i = 0; i < n; i++) {
		struct braid_sock_dgrams d;
		const uint8_t *p;
		size_t len;

		if (braid_sock_dgrams_begin(&d, &rx, (unsigned int)i, c->gro)) {
			c->stt.link_rx_pkts++;
			c->stt.rx_malformed++;
			continue;
		}
		while (braid_sock_dgrams_next(&d, &p, &len))
			if (udp_packet(c, p, len))
				return 1;
	}
	return 0;
}

static void sock_read(struct braid_client *c);

/* The socket is readable: what it gives to the TUN goes in coalesced writes, flushed at the end. */
void client_sock_read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_client *c = w->data;

	(void)loop, (void)revents;
	c->rx_open = true;
	sock_read(c);
	c->rx_open = false;
	client_tun_flush(c);
}

static void sock_read(struct braid_client *c)
{
	const uint8_t *p;
	size_t len;
	int r;

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
