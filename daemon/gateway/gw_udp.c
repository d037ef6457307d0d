// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_udp.c - the gateway's UDP socket (gw_udp.h): datagrams dispatched by
 * opcode (DATA_V2 by peer-id, DATA_V1 and control by source address), and
 * for an address without a client the stateless cookie: a
 * HARD_RESET_CLIENT_V2 gets the cookie reply with nothing allocated, any
 * other packet must carry a valid cookie ACK to create the client.
 */
#include "gateway/gw_udp.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "gateway/gateway_mp.h"
#include "gateway/gw_client.h"
#include "gateway/gw_cluster.h"
#include "gateway/gw_data.h"
#include "gateway/gw_io.h"
#include "gateway/gw_table.h"
#include "gateway/gw_shared.h"
#include "util/log.h"

static const struct gw_client_cbs udp_cbs = { .ctl = braid_gw_ctl_cb };

/* The cookie check refused a packet: the wrap's failure as stock logs it, else a stale or forged cookie. */
static void cookie_reject(struct braid_gateway *g, const uint8_t *pkt, size_t len,
			  const union braid_sockaddr *from, const char *why)
{
	enum braid_ctls_reason r = braid_ctls_cookie_last_reason(g->cookie);
	int64_t now = braid_gw_now_ms();
	char a[80];

	braid_sockaddr_str(from, a, sizeof(a));
	if (r == BRAID_CTLS_R_WRAP || r == BRAID_CTLS_R_MALFORMED) {
		braid_reject_ctl(&g->rej, r, g->ccfg.wrap, pkt, len, a, why, now);
		return;
	}
	braid_reject(&g->rej, BRAID_REJ_COOKIE, now, 0, "Packet (%s) with invalid or missing SID from %s",
		     braid_ctl_op_name(pkt[0] >> BRAID_CTL_OP_SHIFT), a);
	braid_dbg("%s: %s", a, why ? why : "");
}

/*
 * multihome: a client's datagram came to this local address; the replies go out from it. Only a
 * datagram from the client's own address moves it (a float is followed by its next datagram).
 */
static void note_local(struct braid_gateway *g, struct gw_client *c, const union braid_sockaddr *from)
{
	if (g->o->multihome && braid_sockaddr_equal(from, &c->addr))
		c->local = g->rx_local;
}

/* A UDP packet from an address with no client: only the cookie exchange may go on. */
static void udp_unknown(struct braid_gateway *g, uint8_t *pkt, size_t len,
			const union braid_sockaddr *from)
{
	union braid_sockaddr ca;
	size_t calen = braid_gw_cookie_addr(from, &ca);
	uint8_t out[BRAID_CTL_MAX_PKT];
	size_t olen;
	const char *why = NULL;
	struct braid_ctls *s = NULL;
	struct gw_client *c;
	int r;

	if (braid_ctls_cookie_is_reset(pkt, len)) {
		/* connect-freq-initial N S (stock 2.6): no reflection at a forged source (gw_shared.c) */
		if (g->o->cfi_n > 0 && !braid_gw_cfi_allow(g))
			return;
		r = braid_ctls_cookie_reply(g->cookie, pkt, len, &ca, calen, time(NULL), out,
					    sizeof(out), &olen, &why);
		if (r) {
			g->st.cookie_rejected++;
			cookie_reject(g, pkt, len, from, why);
			return;
		}
		if (braid_pktinfo_send(g->fd, out, olen, from, g->o->multihome ? &g->rx_local : NULL,
				       g->o->multihome_same_if) >= 0) {
			g->st.cookie_replies++;
			g->st.link_tx_pkts++;
		}
		return;
	}
	if ((pkt[0] >> BRAID_CTL_OP_SHIFT) != BRAID_OP_ACK_V1 &&
	    (pkt[0] >> BRAID_CTL_OP_SHIFT) != BRAID_OP_CONTROL_V1) {
		uint8_t op = pkt[0] >> BRAID_CTL_OP_SHIFT;
		char a[80];

		if (braid_ctl_op_is_control(op))	/* a SOFT_RESET of another worker's floated client? */
			braid_gw_link_handover(g, pkt, len, from);
		g->st.cookie_rejected++;
		braid_sockaddr_str(from, a, sizeof(a));
		if (!braid_ctl_op_is_control(op))
			braid_reject(&g->rej, BRAID_REJ_OPCODE, braid_gw_now_ms(), 0,
				     "TLS Error: unknown opcode received from %s op=%u", a, op);
		else
			braid_reject(&g->rej, BRAID_REJ_COOKIE, braid_gw_now_ms(), 0,
				     "Packet (%s) with invalid or missing SID from %s",
				     braid_ctl_op_name(op), a);
		return;
	}
	if (braid_gw_n_clients(g) >= g->client_limit) {
		g->st.max_clients_refused++;
		g->st.cookie_rejected++;
		return;
	}
	/* connect-freq N S: at most N new sessions per S seconds (one window for all workers) */
	if (g->o->connect_freq_n > 0 && !braid_gw_cf_take(g)) {
		g->st.cookie_rejected++;
		return;
	}
	r = braid_ctls_new_from_cookie(&s, g->cookie, pkt, len, &ca, calen, time(NULL), braid_gw_now_ms(),
				       &why);
	if (r)	/* `workers N`: another worker's client after a float, if one takes it; rejected here */
		braid_gw_link_handover(g, pkt, len, from);
	if (r) {
		g->st.cookie_rejected++;
		cookie_reject(g, pkt, len, from, why ? why : strerror(-r));
		if (g->o->connect_freq_n > 0)
			braid_gw_cf_give(g);
		return;
	}
	r = braid_gw_client_new(g, from, -1, &udp_cbs, &c);
	if (r) {
		if (g->o->connect_freq_n > 0)
			braid_gw_cf_give(g);
		braid_ctls_free(s);
		braid_warn("new client refused: %s", r == -ENOSPC ? "max-clients reached" : strerror(-r));
		return;
	}
	c->ctl = s;
	c->rx_bytes += len;
	braid_info("%s: new client session (peer-id %u)", c->real, braid_gw_wire_pid(c));
	braid_gw_ctl_run(c);
}

/* A data packet no session takes (no such peer-id, or an address without a client). */
static void unknown_peer(struct braid_gateway *g, const uint8_t *pkt, size_t len,
			 const union braid_sockaddr *from)
{
	char a[80];

	g->st.data_unknown_peer++;
	braid_sockaddr_str(from, a, sizeof(a));
	if (len >= 4 && (pkt[0] >> BRAID_CTL_OP_SHIFT) == BRAID_OP_DATA_V2)
		braid_reject(&g->rej, BRAID_REJ_UNKNOWN_PEER, braid_gw_now_ms(), 0,
			     "Data packet with unknown peer-id %u from %s dropped",
			     (unsigned)pkt[1] << 16 | (unsigned)pkt[2] << 8 | pkt[3], a);
	else
		braid_reject(&g->rej, BRAID_REJ_UNKNOWN_PEER, braid_gw_now_ms(), 0,
			     "Data packet (%s) from %s without a session dropped",
			     braid_ctl_op_name(pkt[0] >> BRAID_CTL_OP_SHIFT), a);
}

static void on_udp_packet(struct braid_gateway *g, uint8_t *pkt, size_t len,
			  const union braid_sockaddr *from)
{
	uint8_t op;
	struct gw_client *c;

	if (len < 1)
		return;
	g->st.link_rx_pkts++;
	op = pkt[0] >> BRAID_CTL_OP_SHIFT;
	if (op == BRAID_OP_DATA_V2) {
		uint32_t pid;

		if (len < 4) {
			unknown_peer(g, pkt, len, from);
			return;
		}
		pid = (uint32_t)pkt[1] << 16 | (uint32_t)pkt[2] << 8 | pkt[3];
		pid = braid_gw_local_pid(g, pid);
		/* another worker's peer-id (the steering program was bypassed): not ours to read */
		c = pid < g->max_clients && braid_gw_mine(g, pid) ? g->by_pid[pid] : NULL;
		if (!c || c->tcp || !c->use_peer_id) {
			unknown_peer(g, pkt, len, from);
			return;
		}
		note_local(g, c, from);
		if (c->mp) {	/* a multipath client: any address, its engine learns the path */
			braid_gw_mp_input(c, pkt, len, from);
			return;
		}
		braid_gw_on_data(c, pkt, len, from);
		return;
	}
	c = braid_gw_by_addr(g, from);
	if (c)
		note_local(g, c, from);
	if (op == BRAID_OP_DATA_V1) {
		if (!c) {	/* `workers N`: offered to the others too (a floated client's) */
			braid_gw_link_handover(g, pkt, len, from);
			unknown_peer(g, pkt, len, from);
			return;
		}
		braid_gw_on_data(c, pkt, len, NULL);
		return;
	}
	if (!c) {
		udp_unknown(g, pkt, len, from);
		return;
	}
	if (braid_ctls_cookie_is_reset(pkt, len)) {
		/* the peer restarted from the same address: a fresh cookie exchange */
		uint8_t lsid[BRAID_CTL_SID_LEN], rsid[BRAID_CTL_SID_LEN];

		braid_ctls_session_ids(c->ctl, lsid, rsid);
		if (len >= 9 && memcmp(pkt + 1, rsid, BRAID_CTL_SID_LEN)) {
			udp_unknown(g, pkt, len, from);	/* answered statelessly; c stays until the cookie ACK */
			return;
		}
	}
	if ((op == BRAID_OP_ACK_V1 || op == BRAID_OP_CONTROL_V1) && (pkt[0] & 7) == 0 && len >= 9) {
		/* an ACK of a new cookie from a restarted client at the same address */
		uint8_t lsid[BRAID_CTL_SID_LEN], rsid[BRAID_CTL_SID_LEN];

		braid_ctls_session_ids(c->ctl, lsid, rsid);
		if (memcmp(pkt + 1, rsid, BRAID_CTL_SID_LEN)) {
			struct braid_ctls *s = NULL;
			union braid_sockaddr ca;
			size_t calen = braid_gw_cookie_addr(from, &ca);
			const char *why;

			if (!braid_ctls_new_from_cookie(&s, g->cookie, pkt, len, &ca, calen, time(NULL),
							braid_gw_now_ms(), &why)) {
				struct gw_client *n;

				braid_gw_client_kill(c, "the client restarted (new session from the same address)");
				if (braid_gw_client_new(g, from, -1, &udp_cbs, &n)) {
					braid_ctls_free(s);
					return;
				}
				n->ctl = s;
				braid_info("%s: new client session (peer-id %u)", n->real, braid_gw_wire_pid(n));
				braid_gw_ctl_run(n);
				return;
			}
		}
	}
	braid_gw_on_control(c, pkt, len);
}

/* Without the batch buffers (cannot happen once set up): one datagram per recvfrom. */
static void sock_read_single(struct braid_gateway *g)
{
	union braid_sockaddr from;
	socklen_t fl;
	ssize_t n;

	for (int i = 0; i < RX_BATCH; i++) {
		fl = sizeof(from);
		if (g->pktinfo)
			n = braid_pktinfo_recv(g->fd, g->buf + HEADROOM, BUF_SIZE - HEADROOM, &from,
					       &g->rx_local);
		else
			n = recvfrom(g->fd, g->buf + HEADROOM, BUF_SIZE - HEADROOM, 0, &from.sa, &fl);
		if (n < 0)
			break;
		on_udp_packet(g, g->buf + HEADROOM, (size_t)n, &from);
	}
}

/*
 * recvmmsg batches (UDP GRO messages split into their datagrams, each
 * message's local address read with multihome), answers queued meanwhile
 * (gw_io.h) and sent at the end.
 */
void braid_gw_sock_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_gateway *g = w->data;
	struct gw_io *io = g->io;
	int vlen, n = 0;

	(void)loop;
	(void)revents;
	braid_gw_io_begin(g);
	if (!io || !io->rxbuf) {
		sock_read_single(g);
	} else {
		const struct braid_rxmm rx = {
			.msg = io->rxmsg, .iov = io->rxiov, .buf = io->rxbuf,
			.bs = io->gro ? GW_RX_BUF_GRO : BUF_SIZE, .addr = io->rxaddr,
			.ctl = io->rxctl, .ctl_len = sizeof(io->rxctl[0]),
		};

		vlen = io->gro ? GW_RX_BATCH_GRO : RX_BATCH;
		n = braid_sock_recvmmsg(g->fd, &rx, (unsigned int)vlen);
		for (int i = 0; i < n; i++) {
			struct braid_sock_dgrams d;
			const uint8_t *p;
			size_t len;

			int dr = braid_sock_dgrams_begin(&d, &rx, (unsigned int)i, io->gro);

			if (dr) {
				char a[80];

				g->st.link_rx_pkts++;	/* truncated: longer than any packet we take */
				if (dr == -ENOBUFS)
					braid_reject(&g->rej, BRAID_REJ_MALFORMED, braid_gw_now_ms(), 0,
						     "Datagram from %s dropped: its control data was cut off",
						     braid_sockaddr_str(&io->rxaddr[i], a, sizeof(a)));
				else
					braid_reject(&g->rej, BRAID_REJ_MALFORMED, braid_gw_now_ms(), 0,
						     "Datagram over %zu bytes from %s dropped", rx.bs,
						     braid_sockaddr_str(&io->rxaddr[i], a, sizeof(a)));
				continue;
			}
			if (g->pktinfo)
				braid_pktinfo_from_msg(&io->rxmsg[i].msg_hdr, &g->rx_local);
			if (d.seg < d.len)
				g->st.link_rx_gro++;
			/* the datagrams are processed in place (a control packet may be copied, not kept) */
			while (braid_sock_dgrams_next(&d, &p, &len))
				on_udp_packet(g, (uint8_t *)p, len, &io->rxaddr[i]);
		}
	}
	braid_gw_io_end(g);
	braid_gw_reap(g);
	/* a full batch: more may wait; libev calls again while the socket is readable */
}
