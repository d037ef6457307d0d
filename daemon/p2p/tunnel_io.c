// SPDX-License-Identifier: GPL-2.0-only
/*
 * tunnel_io.c - the I/O of a point-to-point tunnel: single path, TUN reads
 * encrypted and sent by sendmmsg (with back-pressure), recvmmsg, peer check,
 * decryption, peer learning/float and delivery to the TUN (IP, ping, OCC
 * exit); with multipath, the role callbacks of its data path (dataplane/backend.h).
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

static void tx_flush(struct braid_tunnel *t)
{
	while (t->tx_sent < t->tx_n) {
		int r = sendmmsg(t->fd, t->txmsg + t->tx_sent, t->tx_n - t->tx_sent, 0);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == ENOBUFS) {
				/* back-pressure: stop reading the TUN until the socket drains */
				ev_io_stop(t->loop, &t->tun_r);
				ev_io_start(t->loop, &t->sock_w);
				return;
			}
			t->st.link_tx_errors++;
			if (ratelimit(&t->last_txerr_log, ev_now(t->loop)))
				braid_warn("UDP send error: %s (packet dropped)", strerror(errno));
			t->tx_sent++;
			continue;
		}
		for (unsigned int i = t->tx_sent; i < t->tx_sent + (unsigned int)r; i++) {
			braid_pathset_tx_done(&t->ps, t->txpath[i], t->txiov[i].iov_len);
			t->st.link_tx_pkts++;
			t->st.link_tx_bytes += t->txiov[i].iov_len;
		}
		t->tx_sent += (unsigned int)r;
		t->last_tx = ev_now(t->loop);
	}
	t->tx_n = t->tx_sent = 0;
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

void tunnel_tun_read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_tunnel *t = w->data;
	size_t ov = braid_dc_overhead(t->dc);
	unsigned int n = 0;

	(void)loop, (void)revents;
	if (t->mpd) {
		braid_dp_tun_readable(t->mpd, t->tun.fd);
		return;
	}
	if (t->tx_n)
		return;
	while (n < BATCH) {
		uint8_t *buf = t->txbuf + (size_t)n * BUF_SIZE;
		size_t out_len;
		ssize_t len;
		int path, r;

		len = read(t->tun.fd, buf + ov, BUF_SIZE - ov);
		if (len < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				braid_warn("%s: read error: %s", t->tun.name, strerror(errno));
			break;
		}
		t->st.tun_read_pkts++;
		t->st.tun_read_bytes += (uint64_t)len;
		if (len < 1 || ((buf[ov] >> 4) != 4 && (buf[ov] >> 4) != 6)) {
			t->st.tx_not_ip++;
			continue;
		}
		path = braid_pathset_select(&t->ps, buf + ov, (size_t)len);
		if (path < 0) {
			t->st.tx_no_peer++;
			braid_dbg("%s: packet dropped: no peer address known yet", t->tun.name);
			continue;
		}
		if (braid_mssfix_apply(&t->mss, buf + ov, (size_t)len))
			t->st.mss_clamped++;
		r = braid_dp_seal(t->sp, buf + ov, (size_t)len, buf, BUF_SIZE, &out_len);
		if (r) {
			braid_err("encrypt failed: %s", strerror(-r));
			if (r == -EOVERFLOW && !t->restart_reason) {
				t->restart_reason = "packet-id-exhausted";
				ev_break(t->loop, EVBREAK_ONE);
			}
			break;
		}
		t->txiov[n].iov_base = buf;
		t->txiov[n].iov_len = out_len;
		t->txaddr[n] = t->ps.path[path].peer;
		t->txpath[n] = path;
		memset(&t->txmsg[n], 0, sizeof(t->txmsg[n]));
		t->txmsg[n].msg_hdr.msg_iov = &t->txiov[n];
		t->txmsg[n].msg_hdr.msg_iovlen = 1;
		t->txmsg[n].msg_hdr.msg_name = &t->txaddr[n];
		t->txmsg[n].msg_hdr.msg_namelen = braid_sockaddr_len(&t->txaddr[n]);
		n++;
	}
	/* all on one socket today; with several sockets the batch is split per fd */
	t->tx_n = n;
	t->tx_sent = 0;
	tx_flush(t);
}

/* A payload the daemon generates itself (ping), sent at once on the peer path. */
void tunnel_send_control_payload(struct braid_tunnel *t, const uint8_t *pl, size_t len)
{
	int path = braid_pathset_select(&t->ps, pl, len);

	if (path < 0 || t->tx_n)
		return;
	t->xmit_path = path;
	braid_dp_send(t->sp, pl, len);	/* sealed, then sp_xmit */
}

/* ---- RX ---- */

static void rx_payload(struct braid_tunnel *t, uint8_t *plain, size_t plen)
{
	struct braid_payload pl;
	uint8_t *ip;
	ssize_t w;

	braid_payload_classify(BRAID_COMP_NONE, plain, plen, &pl);
	switch (pl.kind) {
	case BRAID_PAYLOAD_IPV4:
	case BRAID_PAYLOAD_IPV6:
		ip = plain + (pl.data - plain);
		if (braid_mssfix_apply(&t->mss, ip, pl.len))
			t->st.mss_clamped++;
		w = write(t->tun.fd, ip, pl.len);
		if (w < 0) {
			t->st.tun_write_errors++;
			braid_dbg("%s: write error: %s", t->tun.name, strerror(errno));
			return;
		}
		t->st.tun_write_pkts++;
		t->st.tun_write_bytes += pl.len;
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

	(void)loop, (void)revents;
	for (int round = 0; round < RX_ROUNDS; round++) {
		int n;

		for (int i = 0; i < BATCH; i++) {
			t->rxiov[i].iov_base = t->rxbuf + (size_t)i * BUF_SIZE;
			t->rxiov[i].iov_len = BUF_SIZE;
			memset(&t->rxmsg[i], 0, sizeof(t->rxmsg[i]));
			t->rxmsg[i].msg_hdr.msg_iov = &t->rxiov[i];
			t->rxmsg[i].msg_hdr.msg_iovlen = 1;
			t->rxmsg[i].msg_hdr.msg_name = &t->rxaddr[i];
			t->rxmsg[i].msg_hdr.msg_namelen = sizeof(t->rxaddr[i]);
		}
		n = recvmmsg(t->fd, t->rxmsg, BATCH, MSG_DONTWAIT, NULL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN)
				braid_dbg("UDP receive error: %s", strerror(errno));
			return;
		}
		for (int i = 0; i < n; i++) {
			if (t->rxmsg[i].msg_hdr.msg_flags & MSG_TRUNC) {
				t->st.link_rx_pkts++;
				t->st.rx_malformed++;
				continue;
			}
			rx_one(t, t->rxbuf + (size_t)i * BUF_SIZE, t->rxmsg[i].msg_len, &t->rxaddr[i]);
		}
		if (n < BATCH)
			return;
	}
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
