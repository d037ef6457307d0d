// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_data.c - the gateway's data path (gw_data.h): a client's data packet
 * decrypted (held while a renegotiated key is re-authorised), a float to a
 * new source address once it authenticated, the payload's inner source
 * checked, then to the TUN or to another client (client-to-client); and the
 * other way, TUN reads routed to a client's data channel.
 */
#include "gateway/gw_data.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dataplane/backend_mptcp.h"
#include "dataplane/backend_sp.h"
#include "gateway/gateway_mp.h"
#include "gateway/gw_io.h"
#include "gateway/gw_link.h"
#include "gateway/gw_table.h"
#include "gateway/gw_cluster.h"
#include "gateway/gw_shared.h"
#include "gateway/gw_tcpsuper.h"
#include "os/tun_super.h"
#include "util/log.h"

/* Frame, encrypt and send one payload (IP packet, ping, OCC) to an active client. */
void braid_gw_send_payload(struct gw_client *c, const uint8_t *p, size_t len)
{
	struct braid_gateway *g = c->g;
	uint8_t *fr = g->buf2 + HEADROOM;
	size_t flen;
	int r;

	if (c->st != C_ACTIVE || !c->dc)
		return;
	if (c->mp) {
		braid_gw_mp_send(c, p, len);
		return;
	}
	if (!c->sp)
		return;
	r = braid_payload_frame(c->framing, p, len, fr, BUF_SIZE - HEADROOM, &flen);
	if (r)
		return;
	/* UDP in a batch (TUN or socket reads): sealed into a slot, sent with the batch */
	r = braid_gw_io_tx_queue(c, fr, flen);
	if (r == -EOPNOTSUPP)
		r = braid_dp_send(c->sp, fr, flen);
	if (r) {
		braid_dbg("%s/%s: encrypt failed: %s", braid_gw_cname(c), c->real, strerror(-r));
		return;
	}
	c->last_tx_ms = braid_gw_now_ms();
}

/* The inner source of ip is one of c's addresses or iroutes (else counted in bad_source). */
static bool inner_src_ok(struct gw_client *c, const uint8_t *ip, size_t len)
{
	struct braid_gateway *g = c->g;
	uint8_t src[16];
	uint32_t owner = 0;
	int fam, r;

	if (braid_vroute_packet_src(ip, len, &fam, src)) {
		r = -EINVAL;
	} else {
		braid_gw_rt_rd(g);
		r = braid_vroute_lookup(braid_gw_routes(g), fam, src, &owner);
		braid_gw_rt_unlock(g);
	}
	if (r || owner != c->pid) {
		g->st.bad_source++;
		braid_dbg("%s/%s: inner packet with a source address not routed to this client",
			  braid_gw_cname(c), c->real);
		return false;
	}
	return true;
}

/* A client's TCP super-packet frame (os/tun_super.h): checked, its inner source checked, written to
 * the vnet TUN whole. */
static void rx_super(struct gw_client *c, uint8_t *p, size_t len)
{
	struct braid_gateway *g = c->g;
	unsigned int nseg;
	const char *why;
	size_t hl;

	if (braid_tcpsuper_open(p, len, &nseg, &hl, &why)) {
		g->st.tcp_super_bad++;
		braid_reject(&g->rej, BRAID_REJ_MALFORMED, braid_gw_now_ms(), 0,
			     "%s/%s: TCP super-packet frame of %zu bytes dropped: %s", braid_gw_cname(c),
			     c->real, len, why);
		return;
	}
	if (!inner_src_ok(c, p + BRAID_TCPSUPER_HDR, len - BRAID_TCPSUPER_HDR))
		return;
	c->last_ref = time(NULL);
	g->st.tcp_super_rx++;
	g->st.tun_super_writes++;
	braid_gw_io_tun_write_vnet(g, p, len, nseg);
}

static void on_payload(struct gw_client *c, uint8_t *p, size_t len)
{
	struct braid_gateway *g = c->g;
	struct braid_payload pl;
	uint32_t owner = 0;
	int r = -ENOENT;

	/* a Braid client's TCP super-packet frame (os/tun_super.h): before the framing, never in it */
	if (c->tcp_super && len && p[0] == BRAID_TCPSUPER_MAGIC) {
		rx_super(c, p, len);
		return;
	}
	braid_payload_classify(c->framing, p, len, &pl);
	switch (pl.kind) {
	case BRAID_PAYLOAD_IPV4:
	case BRAID_PAYLOAD_IPV6:
		break;
	case BRAID_PAYLOAD_OCC:
		if (pl.occ_type == BRAID_OCC_EXIT)
			braid_gw_client_kill(c, "explicit exit notification (OCC EXIT)");
		return;
	default:
		return;
	}
	/* the inner source must be one of the client's addresses or iroutes */
	if (!inner_src_ok(c, pl.data, pl.len))
		return;
	c->last_ref = time(NULL);
	braid_mssfix_apply(&g->mss, (uint8_t *)pl.data, pl.len);
	if (g->o->client_to_client) {
		braid_gw_rt_rd(g);
		r = braid_vroute_lookup_packet(braid_gw_routes(g), pl.data, pl.len, &owner);
		braid_gw_rt_unlock(g);
	}
	if (g->o->client_to_client && !r && owner != c->pid && !braid_gw_mine(g, owner)) {
		g->st.c2c_forwarded++;
		braid_gw_xq_send(g, owner % braid_gw_nw(g), GW_XQ_INNER, pl.data, pl.len);
		return;
	}
	if (g->o->client_to_client && !r && owner != c->pid) {
		struct gw_client *d = g->by_pid[owner];

		if (d && d->st == C_ACTIVE) {
			g->st.c2c_forwarded++;
			braid_gw_send_payload(d, pl.data, pl.len);
			return;
		}
	}
	braid_gw_io_tun_write(g, pl.data, pl.len);
}

void braid_gw_deliver(struct gw_client *c, uint8_t *p, size_t len)
{
	on_payload(c, p, len);
}

/* ---- the single-path data path's callbacks (backend_sp.c) ---- */

static int sp_xmit(void *user, const uint8_t *pkt, size_t len)
{
	braid_gw_send_raw(user, pkt, len);
	return 0;
}

/* Authenticated: float to a new source address (UDP) unless another certificate holds it. */
static int sp_rx_auth(void *user, const union braid_sockaddr *from, size_t len)
{
	struct gw_client *c = user;
	struct braid_gateway *g = c->g;

	if (from && !c->tcp && !braid_sockaddr_equal(from, &c->addr)) {
		struct gw_client *other = braid_gw_by_addr(g, from);
		char old[80];

		if (other && strcmp(other->cert_cn, c->cert_cn)) {
			/* 2.6: no float onto an address a client with another certificate uses */
			g->st.float_refused++;
			braid_dbg("%s/%s: float to %s refused: in use by %s", braid_gw_cname(c), c->real,
				  other->real, braid_gw_cname(other));
			return -EADDRINUSE;
		}
		if (!other && braid_gw_addr_elsewhere(g, from)) {	/* `workers N`: another worker's client */
			g->st.float_refused++;
			return -EADDRINUSE;
		}
		if (other)
			braid_gw_client_kill(other, "another session of this certificate floated to its address");
		snprintf(old, sizeof(old), "%s", c->real);
		braid_gw_addr_remove(g, c);
		c->addr = *from;
		braid_gw_addr_insert(g, c);
		braid_gw_addr_strings(c);
		g->st.floats++;
		braid_info("%s: peer-id %u floated from %s to %s", braid_gw_cname(c), braid_gw_wire_pid(c), old,
			   c->real);
	}
	c->last_rx_ms = braid_gw_now_ms();
	c->rx_bytes += len;
	return 0;
}

static void sp_rx_drop(void *user, int err, const uint8_t *pkt, size_t len,
		       const union braid_sockaddr *from)
{
	struct gw_client *c = user;
	struct braid_gateway *g = c->g;
	char a[80];

	braid_sockaddr_str(from ? from : &c->addr, a, sizeof(a));
	if (err == -EBADMSG) {
		g->st.data_auth_failed++;
		braid_reject(&g->rej, BRAID_REJ_DATA_AUTH, braid_gw_now_ms(), 0,
			     "%s/%s: data packet authentication failed", braid_gw_cname(c), a);
	} else if (err == -EALREADY || err == -ESTALE) {
		braid_reject_replay(&g->rej, braid_gw_cname(c), a, pkt, len,
				    g->o->mute_replay_warnings, braid_gw_now_ms());
	}
	if (c->tcp && err != -EALREADY && err != -ESTALE) {
		/* OpenVPN: a decrypt failure is fatal on TCP */
		braid_gw_client_kill(c, "data channel decryption failed on TCP");
	}
}

static void sp_deliver(void *user, uint8_t *payload, size_t len)
{
	on_payload(user, payload, len);
}

int braid_gw_sp_start(struct gw_client *c)
{
	const struct braid_dp_role role = {
		.deliver = sp_deliver, .xmit = sp_xmit, .rx_auth = sp_rx_auth,
		.rx_drop = sp_rx_drop, .user = c,
	};
	bool mptcp = c->tcp && c->g->mptcp && c->fd >= 0;
	const struct braid_dp_config cfg = { .loop = c->g->loop, .o = c->g->o, .dc = c->dc,
					     .mss = &c->g->mss, .shared_fd = mptcp ? c->fd : -1 };

	braid_dp_close(c->sp);
	c->sp = NULL;
	/* an MPTCP listener's client: the same data path, its subflows as paths */
	return braid_dp_open(mptcp ? &braid_dp_mptcp_ops : &braid_dp_sp_ops, &c->sp, &cfg, &role);
}

/* A data packet for client c (already matched by peer-id or address). */
void braid_gw_on_data(struct gw_client *c, uint8_t *pkt, size_t len, const union braid_sockaddr *from)
{
	struct braid_gateway *g = c->g;

	if (c->st != C_ACTIVE || !c->dc || !c->sp) {
		g->st.data_unknown_peer++;
		return;
	}
	if (c->reauth_key >= 0 && (pkt[0] & BRAID_CTL_KEY_ID_MASK) == c->reauth_key) {
		/*
		 * The client uses the renegotiated key while auth-user-pass-verify still
		 * checks it (2.6 blocks in the script, so its packets wait in the socket):
		 * keep them until the answer.
		 */
		if (!c->held)
			c->held = calloc(GW_HELD_MAX, sizeof(*c->held));
		if (c->held && c->n_held < GW_HELD_MAX) {
			struct gw_held *h = &c->held[c->n_held];

			h->p = malloc(len);
			if (h->p) {
				memcpy(h->p, pkt, len);
				h->len = len;
				h->has_from = from != NULL;
				if (from)
					h->from = *from;
				c->n_held++;
			}
		}
		return;
	}
	braid_dp_input(c->sp, pkt, len, from);
}

void braid_gw_release_held(struct gw_client *c, bool deliver)
{
	struct gw_held *held = c->held;	/* a packet held meanwhile starts a new array */
	unsigned n = c->n_held;

	c->held = NULL;
	c->n_held = 0;
	for (unsigned i = 0; i < n; i++) {
		struct gw_held *h = &held[i];

		if (deliver && !c->dead && h->len <= BUF_SIZE - HEADROOM) {
			memcpy(c->g->buf + HEADROOM, h->p, h->len);
			braid_gw_on_data(c, c->g->buf + HEADROOM, h->len, h->has_from ? &h->from : NULL);
		}
		free(h->p);
		h->p = NULL;
	}
	free(held);
}

void braid_gw_inner_out(struct braid_gateway *g, uint8_t *p, size_t n, bool tun)
{
	struct gw_client *c;
	uint32_t owner;
	int r;

	braid_gw_rt_rd(g);
	r = braid_vroute_lookup_packet(braid_gw_routes(g), p, n, &owner);
	braid_gw_rt_unlock(g);
	if (!r && !braid_gw_mine(g, owner)) {	/* another worker's client */
		if (tun)
			braid_mssfix_apply(&g->mss, p, n);
		braid_gw_xq_send(g, owner % braid_gw_nw(g), GW_XQ_INNER, p, n);
		return;
	}
	c = r ? NULL : g->by_pid[owner];
	if (!c || c->st != C_ACTIVE) {
		g->st.tun_no_route++;
		return;
	}
	if (tun)
		braid_mssfix_apply(&g->mss, p, n);
	braid_gw_send_payload(c, p, n);
}

/* Reads of a vnet TUN: each one split into the packets it stands for (MSS-sized TCP segments). */
static void tun_read_vnet(struct braid_gateway *g)
{
	uint8_t *p = g->buf + HEADROOM;

	for (int i = 0; i < GW_TUN_READS_VNET; i++) {
		struct braid_tun_split sp;
		ssize_t n = read(g->tun.fd, g->io->tunrd, BRAID_TUN_SUPER_MAX);
		long seg;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (braid_tun_split_begin(&sp, g->io->tunrd, (size_t)n)) {
			braid_reject(&g->rej, BRAID_REJ_MALFORMED, braid_gw_now_ms(), 0,
				     "%s: a read the kernel should not give (vnet header): dropped",
				     g->tun.name);
			continue;
		}
		if (sp.gso_type)
			g->st.tun_super_reads++;
		if (sp.gso_type && !braid_gw_tcpsuper_out(g, &sp))
			continue;	/* as TCP super-packet frames to a Braid client (gw_tcpsuper.c) */
		while ((seg = braid_tun_split_next(&sp, p, BUF_SIZE - HEADROOM)) > 0) {
			g->st.tun_read_pkts++;
			braid_gw_inner_out(g, p, (size_t)seg, true);
		}
		if (seg < 0)
			braid_reject(&g->rej, BRAID_REJ_MALFORMED, braid_gw_now_ms(), 0,
				     "%s: a segment over %d bytes: dropped", g->tun.name,
				     (int)(BUF_SIZE - HEADROOM));
	}
}

void braid_gw_tun_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_gateway *g = w->data;
	uint8_t *p = g->buf + HEADROOM;
	ssize_t n;

	(void)loop;
	(void)revents;
	braid_gw_io_begin(g);	/* the datagrams of these reads go out in sendmmsg batches */
	if (g->io && g->io->tunrd) {
		tun_read_vnet(g);
	} else {
		for (int i = 0; i < RX_BATCH; i++) {
			n = read(g->tun.fd, p, BUF_SIZE - HEADROOM);
			if (n <= 0)
				break;
			g->st.tun_read_pkts++;
			braid_gw_inner_out(g, p, (size_t)n, true);
		}
	}
	braid_gw_io_end(g);
	braid_gw_reap(g);
}
