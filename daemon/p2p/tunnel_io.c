// SPDX-License-Identifier: GPL-2.0-only
/*
 * tunnel_io.c - the I/O of a point-to-point tunnel: single path, TUN reads
 * (vnet super-packets split into segments) encrypted and sent by sendmmsg
 * with UDP GSO runs (with back-pressure), recvmmsg with UDP GRO, peer
 * check, decryption, peer learning/float and delivery to the TUN (IP
 * coalesced into vnet super-packets, ping, OCC exit); with multipath, the
 * role callbacks of its data path (dataplane/backend.h).
 */
#include "p2p/tunnel_io.h"

#include <errno.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dataplane/backend_sp.h"
#include "dc/payload.h"
#include "util/log.h"

static bool ratelimit(ev_tstamp *last, ev_tstamp now)
{
	if (now - *last < 1.0)
		return false;
	*last = now;
	return true;
}

void tunnel_update_mssfix(struct braid_tunnel *t)
{
	const struct braid_path *p = &t->ps.path[0];
	int outer = 40;

	if (t->mpd)
		outer = braid_dp_outer_hdr(t->mpd);
	else if (p->has_peer && (p->peer.sa.sa_family == AF_INET ||
			    IN6_IS_ADDR_V4MAPPED(&p->peer.in6.sin6_addr)))
		outer = 20;
	else if (!p->has_peer && t->family == AF_INET)
		outer = 20;
	braid_mssfix_init(&t->mss, t->o->mssfix, outer, (int)braid_dc_overhead(t->dc),
			  t->o->tun_mtu);
}

/* ---- TX ---- */

/*
 * Send the batch (sendmmsg, UDP GSO runs). What the full socket refused
 * (EAGAIN/ENOBUFS) stays queued, in order, and TUN reads stop until the
 * socket is writable again (back-pressure, not loss); other errors drop
 * the datagram (counted, logged rate-limited).
 */
static void tx_flush(struct braid_tunnel *t)
{
	struct braid_txbatch *b = &t->txb;
	unsigned int n, keep = 0;

	n = b->n ? braid_txb_flush(b) : 0;
	for (unsigned int i = 0; i < n; i++) {
		int res = b->res[i];

		if (!res) {
			braid_pathset_tx_done(&t->ps, t->txpath[i], b->e[i].len);
			t->st.link_tx_pkts++;
			t->st.link_tx_bytes += b->e[i].len;
			t->last_tx = ev_now(t->loop);
			continue;
		}
		if (res == -EAGAIN || res == -ENOBUFS) {
			b->e[keep] = b->e[i];	/* keep <= i: the entry and its slot stay valid */
			t->txpath[keep] = t->txpath[i];
			keep++;
			continue;
		}
		t->st.link_tx_errors++;
		if (ratelimit(&t->last_txerr_log, ev_now(t->loop)))
			braid_warn("UDP send error: %s (packet dropped)", strerror(-res));
	}
	b->n = keep;
	if (keep) {
		ev_io_stop(t->loop, &t->tun_r);
		ev_io_start(t->loop, &t->sock_w);
		return;
	}
	if (ev_is_active(&t->sock_w)) {
		ev_io_stop(t->loop, &t->sock_w);
		ev_io_start(t->loop, &t->tun_r);
	}
}

void tunnel_sock_write_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	(void)loop, (void)revents;
	tx_flush(w->data);
}

/*
 * One IP packet read from the TUN at buf + ov (len bytes): clamped, sealed
 * in place and queued. -EOVERFLOW: packet-ids used up (restart asked for),
 * stop reading; 0 otherwise (a packet dropped is counted).
 */
static int tx_packet(struct braid_tunnel *t, uint8_t *buf, size_t ov, size_t len)
{
	struct braid_txbatch *b = &t->txb;
	unsigned int i = b->n;
	size_t out_len;
	int path, r;

	t->st.tun_read_pkts++;
	t->st.tun_read_bytes += (uint64_t)len;
	if (len < 1 || ((buf[ov] >> 4) != 4 && (buf[ov] >> 4) != 6)) {
		t->st.tx_not_ip++;
		return 0;
	}
	path = braid_pathset_select(&t->ps, buf + ov, len);
	if (path < 0) {
		t->st.tx_no_peer++;
		braid_dbg("%s: packet dropped: no peer address known yet", t->tun.name);
		return 0;
	}
	if (braid_mssfix_apply(&t->mss, buf + ov, len))
		t->st.mss_clamped++;
	r = braid_dp_seal(t->sp, buf + ov, len, buf, BUF_SIZE, &out_len);
	if (r) {
		braid_err("encrypt failed: %s", strerror(-r));
		if (r == -EOVERFLOW && !t->restart_reason) {
			t->restart_reason = "packet-id-exhausted";
			ev_break(t->loop, EVBREAK_ONE);
		}
		return r == -EOVERFLOW ? r : 0;
	}
	t->txaddr[i] = t->ps.path[path].peer;
	t->txpath[i] = path;
	/* all on one socket today; the batch groups by (fd, peer) if that changes */
	braid_txb_add(b, t->ps.path[path].fd, &t->gso, &t->txaddr[i], buf, out_len);
	return 0;
}

/* The slot of txbuf the next datagram is sealed into (the batch's next entry). */
static uint8_t *tx_slot(struct braid_tunnel *t)
{
	return t->txbuf + (size_t)t->txb.n * BUF_SIZE;
}

/* Reads of a vnet TUN: each one split into the packets it stands for. */
static void tun_read_vnet(struct braid_tunnel *t, size_t ov)
{
	for (int n = 0; n < TUN_READS_VNET; n++) {
		struct braid_tun_split sp;
		ssize_t len;
		long seg;

		len = read(t->tun.fd, t->tunrd, BRAID_TUN_SUPER_MAX);
		if (len < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				braid_warn("%s: read error: %s", t->tun.name, strerror(errno));
			return;
		}
		if (braid_tun_split_begin(&sp, t->tunrd, (size_t)len)) {
			t->st.tx_not_ip++;
			continue;
		}
		for (;;) {
			uint8_t *buf;

			if (t->txb.n >= BATCH) {
				tx_flush(t);
				if (t->txb.n) {	/* the socket is full: the rest of this read is lost */
					t->st.link_tx_errors++;
					return;
				}
			}
			buf = tx_slot(t);
			seg = braid_tun_split_next(&sp, buf + ov, BUF_SIZE - ov);
			if (seg <= 0) {
				if (seg < 0)
					t->st.tx_not_ip++;	/* a segment over the buffer */
				break;
			}
			if (tx_packet(t, buf, ov, (size_t)seg) == -EOVERFLOW)
				return;
		}
	}
}

void tunnel_tun_read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_tunnel *t = w->data;
	size_t ov = braid_dc_overhead(t->dc);

	(void)loop, (void)revents;
	if (t->mpd) {
		braid_dp_tun_readable(t->mpd, t->tun.fd);
		return;
	}
	if (t->txb.n)
		return;
	if (t->tunrd) {
		tun_read_vnet(t, ov);
		tx_flush(t);
		return;
	}
	while (t->txb.n < BATCH) {
		uint8_t *buf = tx_slot(t);
		ssize_t len;

		len = read(t->tun.fd, buf + ov, BUF_SIZE - ov);
		if (len < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				braid_warn("%s: read error: %s", t->tun.name, strerror(errno));
			break;
		}
		if (tx_packet(t, buf, ov, (size_t)len) == -EOVERFLOW)
			break;
	}
	tx_flush(t);
}

/* A payload the daemon generates itself (ping), sent at once on the peer path. */
void tunnel_send_control_payload(struct braid_tunnel *t, const uint8_t *pl, size_t len)
{
	int path = braid_pathset_select(&t->ps, pl, len);

	if (path < 0 || t->txb.n)
		return;
	t->xmit_path = path;
	braid_dp_send(t->sp, pl, len);	/* sealed, then sp_xmit */
}

/* ---- RX ---- */

/* Counts what the TUN coalescer wrote (or lost). */
static void tun_count(struct braid_tunnel *t, int err, unsigned int n, uint64_t bytes)
{
	if (err) {
		t->st.tun_write_errors += n;
		braid_dbg("%s: write error: %s", t->tun.name, strerror(-err));
		return;
	}
	t->st.tun_write_pkts += n;
	t->st.tun_write_bytes += bytes;
}

/* Write what the TUN coalescer holds (one write: a GSO super-packet or one packet). */
static void tun_gro_flush(struct braid_tunnel *t)
{
	unsigned int n;
	uint64_t bytes;
	int r = braid_tun_gro_write(t->tungro, t->tun.fd, &n, &bytes);

	tun_count(t, r, n, bytes);
}

/* One IP packet for the TUN: into the coalescer (vnet), else written at once. */
static void tun_write(struct braid_tunnel *t, const uint8_t *ip, size_t len)
{
	unsigned int n;
	uint64_t bytes;
	int r, werr;

	if (t->tungro) {
		r = braid_tun_gro_put(t->tungro, t->tun.fd, ip, len, &n, &bytes, &werr);
		tun_count(t, werr, n, bytes);
		if (r < 0)
			t->st.tun_write_errors++;
		return;
	}
	if (write(t->tun.fd, ip, len) < 0) {
		t->st.tun_write_errors++;
		braid_dbg("%s: write error: %s", t->tun.name, strerror(errno));
		return;
	}
	tun_count(t, 0, 1, len);
}

static void rx_payload(struct braid_tunnel *t, uint8_t *plain, size_t plen)
{
	struct braid_payload pl;
	uint8_t *ip;

	braid_payload_classify(BRAID_COMP_NONE, plain, plen, &pl);
	switch (pl.kind) {
	case BRAID_PAYLOAD_IPV4:
	case BRAID_PAYLOAD_IPV6:
		ip = plain + (pl.data - plain);
		if (braid_mssfix_apply(&t->mss, ip, pl.len))
			t->st.mss_clamped++;
		tun_write(t, ip, pl.len);
		break;
	case BRAID_PAYLOAD_PING:
		t->st.pings_rx++;
		break;
	case BRAID_PAYLOAD_OCC:
		if (pl.occ_type == BRAID_OCC_EXIT) {
			braid_info("peer sent an exit notification (remote-exit)");
			if (!t->restart_reason) {
				t->restart_reason = "remote-exit";
				ev_break(t->loop, EVBREAK_ONE);
			}
		} else {
			braid_dbg("OCC message type %d ignored", pl.occ_type);
		}
		break;
	default:
		t->st.rx_dropped_payload++;
		braid_dbg("authenticated payload dropped: %s", braid_payload_kind_str(pl.kind));
		break;
	}
}

/* ---- the single-path data path's callbacks (backend_sp.c) ---- */

static int sp_xmit(void *user, const uint8_t *pkt, size_t len)
{
	struct braid_tunnel *t = user;
	struct braid_path *p = &t->ps.path[t->xmit_path];

	if (sendto(p->fd, pkt, len, 0, &p->peer.sa, braid_sockaddr_len(&p->peer)) < 0) {
		t->st.link_tx_errors++;
		return -errno;
	}
	braid_pathset_tx_done(&t->ps, t->xmit_path, len);
	t->st.link_tx_pkts++;
	t->st.link_tx_bytes += len;
	t->last_tx = ev_now(t->loop);
	return 0;
}

/* Authenticated: only now may the peer address be learned or moved. */
static int sp_rx_auth(void *user, const union braid_sockaddr *from, size_t len)
{
	struct braid_tunnel *t = user;
	union braid_sockaddr old;
	char a[128], b[128];
	bool had;

	if (braid_pathset_rx_confirm(&t->ps, t->rx_path, from, len, &old, &had)) {
		if (had)
			braid_info("peer float: %s -> %s", braid_sockaddr_str(&old, a, sizeof(a)),
				   braid_sockaddr_str(from, b, sizeof(b)));
		tunnel_update_mssfix(t);
	}
	if (!t->connected) {
		t->connected = true;
		braid_info("Peer Connection Initiated with %s", braid_sockaddr_str(from, a, sizeof(a)));
		braid_info("state: CONNECTED");
	}
	t->last_rx = ev_now(t->loop);
	return 0;
}

static void sp_rx_drop(void *user, int err, const uint8_t *pkt, size_t len,
		       const union braid_sockaddr *from)
{
	struct braid_tunnel *t = user;
	char a[128];

	if (err == -EBADMSG) {
		t->st.rx_auth_failures++;
		t->auth_since_log++;
		if (ratelimit(&t->last_auth_log, ev_now(t->loop))) {
			braid_warn("authentication failed: packet from %s dropped (wrong key or "
				   "corrupted; %llu since the last report, %llu in total)",
				   braid_sockaddr_str(from, a, sizeof(a)),
				   (unsigned long long)t->auth_since_log,
				   (unsigned long long)t->st.rx_auth_failures);
			t->auth_since_log = 0;
		}
		return;
	}
	if (err == -EALREADY || err == -ESTALE) {
		t->st.rx_replays++;
		braid_reject_replay(&t->rej, "", braid_sockaddr_str(from, a, sizeof(a)), pkt, len,
				    t->o->mute_replay_warnings, (int64_t)(ev_now(t->loop) * 1000));
		return;
	}
	t->st.rx_malformed++;
	braid_dbg("packet from %s dropped: %s", braid_sockaddr_str(from, a, sizeof(a)),
		  strerror(-err));
}

static void sp_deliver(void *user, uint8_t *payload, size_t len)
{
	rx_payload(user, payload, len);
}

int tunnel_sp_open(struct braid_tunnel *t)
{
	const struct braid_dp_role role = {
		.deliver = sp_deliver, .xmit = sp_xmit, .rx_auth = sp_rx_auth,
		.rx_drop = sp_rx_drop, .user = t,
	};
	const struct braid_dp_config cfg = { .o = t->o, .dc = t->dc, .mss = &t->mss,
					     .shared_fd = -1 };

	braid_dp_close(t->sp);
	t->sp = NULL;
	return braid_dp_open(&braid_dp_sp_ops, &t->sp, &cfg, &role);
}

static void rx_one(struct braid_tunnel *t, const uint8_t *pkt, size_t len,
		   const union braid_sockaddr *from)
{
	char a[128];
	int path;

	t->st.link_rx_pkts++;
	t->st.link_rx_bytes += len;
	path = braid_pathset_rx_lookup(&t->ps, t->fd, from);
	if (path < 0) {
		t->st.rx_wrong_peer++;
		braid_dbg("packet from %s dropped: not our peer (no 'float')",
			  braid_sockaddr_str(from, a, sizeof(a)));
		return;
	}
	t->rx_path = path;
	braid_dp_input(t->sp, pkt, len, from);
}

void tunnel_sock_read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_tunnel *t = w->data;
	int vlen = t->gro ? RX_BATCH_GRO : BATCH;
	const struct braid_rxmm rx = {
		.msg = t->rxmsg, .iov = t->rxiov, .buf = t->rxbuf,
		.bs = t->gro ? RX_BUF_GRO : BUF_SIZE, .addr = t->rxaddr,
		.ctl = t->gro ? t->rxctl : NULL, .ctl_len = sizeof(t->rxctl[0]),
	};

	(void)loop, (void)revents;
	for (int round = 0; round < RX_ROUNDS; round++) {
		int n = braid_sock_recvmmsg(t->fd, &rx, (unsigned int)vlen);

		if (n < 0) {
			braid_dbg("UDP receive error: %s", strerror(-n));
			break;
		}
		for (int i = 0; i < n; i++) {
			struct braid_sock_dgrams d;
			const uint8_t *p;
			size_t len;

			if (braid_sock_dgrams_begin(&d, &rx, (unsigned int)i, t->gro)) {
				t->st.link_rx_pkts++;
				t->st.rx_malformed++;
				continue;
			}
			/* an empty datagram too: counted as malformed, as before GRO */
			while (braid_sock_dgrams_next(&d, &p, &len))
				rx_one(t, p, len, &t->rxaddr[i]);
		}
		if (t->tungro)
			tun_gro_flush(t);
		if (n < vlen)
			break;
	}
	if (t->tungro)
		tun_gro_flush(t);
}

/* ---- multipath hooks ---- */

void tunnel_mp_deliver(void *user, uint8_t *payload, size_t len)
{
	rx_payload(user, payload, len);
}

int tunnel_mp_rx_auth(void *user, const union braid_sockaddr *from, size_t len)
{
	struct braid_tunnel *t = user;
	char a[128];

	(void)len;
	if (!t->connected && from) {
		t->connected = true;
		braid_info("Peer Connection Initiated with %s", braid_sockaddr_str(from, a, sizeof(a)));
		braid_info("state: CONNECTED");
	}
	return 0;
}

void tunnel_mp_activity(void *user, bool rx)
{
	struct braid_tunnel *t = user;

	if (rx)
		t->last_rx = ev_now(t->loop);
	else
		t->last_tx = ev_now(t->loop);
}
