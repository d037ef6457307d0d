// SPDX-License-Identifier: GPL-2.0-only
/*
 * tunnel.c - the point-to-point data plane on libev (see tunnel.h).
 */
#include "p2p/tunnel.h"

#include <errno.h>
#include <ev.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "control/control.h"
#include "control/ctlops.h"
#include "dc/dc.h"
#include "dc/payload.h"
#include "dc/static_key.h"
#include "util/log.h"
#include "session/reject.h"
#include "control/statline.h"
#include "dataplane/mpath.h"
#include "dataplane/mssfix.h"
#include "dataplane/pathset.h"
#include "os/sock.h"
#include "control/status.h"
#include "os/tun.h"

#define BATCH 32
#define BUF_SIZE (BRAID_OPT_TUN_MTU_MAX + 256)
#define TICK_S 0.25
#define RX_ROUNDS 8		/* recvmmsg calls per wakeup, so the TUN side gets its turn */

enum { SIG_TERM, SIG_INT, SIG_HUP, SIG_USR1, SIG_USR2, SIG_N };

struct braid_tunnel {
	struct ev_loop *loop;
	struct braid_options *o;
	struct braid_tun tun;
	bool tun_open;
	int fd;
	int family;
	struct braid_pathset ps;
	struct braid_dc *dc;
	struct braid_key2 key;		/* kept for restarts (persist-key); wiped on free */
	struct braid_mssfix mss;
	struct braid_mpath *mpd;	/* multipath data plane, or NULL (single path) */
	ev_timer status_t;
	struct braid_control *ctl;	/* control socket, or NULL */
	struct braid_ctlops ctlops;

	ev_io tun_r, sock_r, sock_w;
	ev_timer tick;
	ev_signal sig[SIG_N];

	/* set by the signal/timer callbacks, acted on by braid_tunnel_run() */
	bool exit_req, stats_req;
	const char *restart_reason;
	int exit_code;

	ev_tstamp last_tx, last_rx;
	bool connected;			/* an authenticated packet arrived this session */
	unsigned int remote_idx;
	bool has_remote;

	struct braid_tunnel_stats st;

	/* TX batch: filled from the TUN, drained by sendmmsg (kept while the socket is full) */
	uint8_t *txbuf;
	struct mmsghdr txmsg[BATCH];
	struct iovec txiov[BATCH];
	union braid_sockaddr txaddr[BATCH];
	int txpath[BATCH];
	unsigned int tx_n, tx_sent;

	/* RX batch */
	uint8_t *rxbuf;
	struct mmsghdr rxmsg[BATCH];
	struct iovec rxiov[BATCH];
	union braid_sockaddr rxaddr[BATCH];
	uint8_t *plain;

	ev_tstamp last_auth_log, last_txerr_log;
	uint64_t auth_since_log;
	struct braid_reject rej;	/* replays: stock's line, rate-limited */
};

static int64_t mono_sec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec;
}

static int make_dc(struct braid_tunnel *t)
{
	struct braid_options *o = t->o;
	struct braid_dc_config cfg = {
		.peer_id = o->peer_id,
		.replay_window = o->replay_window,
		.replay_time = o->has_replay_time ? o->replay_time : 0,
		.backend = BRAID_AEAD_BACKEND_AUTO,
	};
	struct braid_dc *dc;
	int r;

	r = braid_dc_new(&dc, &cfg);
	if (r) {
		braid_err("cannot create the data channel: %s", strerror(-r));
		return r;
	}
	r = braid_dc_key_install(dc, 0, o->cipher, &t->key, o->key_direction);
	if (r) {
		braid_err("cannot install the static key (cipher %s): %s", o->cipher, strerror(-r));
		braid_dc_free(dc);
		return r;
	}
	braid_dc_free(t->dc);
	t->dc = dc;
	return 0;
}

static int load_key(struct braid_tunnel *t)
{
	struct braid_opt_source *s = &t->o->secret;
	char err[512];
	int r;

	if (s->inline_text)
		r = braid_static_key_parse(s->inline_text, s->inline_len, &t->key, err, sizeof(err));
	else
		r = braid_static_key_load(s->path, &t->key, err, sizeof(err));
	if (r) {
		braid_err("option 'secret': %s%s", s->inline_text ? "inline <secret>: " : "", err);
		return r;
	}
	/* the inline copy in the options is no longer needed */
	if (s->inline_text)
		sodium_memzero(s->inline_text, s->inline_len);
	return 0;
}

static uint16_t remote_port(const struct braid_options *o, unsigned int i)
{
	return o->remotes[i].port ? o->remotes[i].port : o->rport;
}

/* Resolve remote i into *out in the socket's family. */
static int resolve_remote(struct braid_tunnel *t, unsigned int i, int family,
			  union braid_sockaddr *out)
{
	const struct braid_options *o = t->o;
	char err[300];
	int r;

	r = braid_sock_resolve(o->remotes[i].host, remote_port(o, i), family, false, out, err,
			       sizeof(err));
	if (r) {
		braid_err("remote: %s", err);
		return r;
	}
	return 0;
}

static int open_socket(struct braid_tunnel *t, union braid_sockaddr *remote)
{
	const struct braid_options *o = t->o;
	union braid_sockaddr bind_addr;
	bool do_bind = !o->nobind;
	int fam = o->family, r;
	char err[300], a[128];

	if (o->n_remotes) {
		r = resolve_remote(t, 0, fam, remote);
		if (r)
			return r;
		if (fam == AF_UNSPEC)
			fam = remote->sa.sa_family;
		t->has_remote = true;
	}
	if (o->local) {
		r = braid_sock_resolve(o->local, o->nobind ? 0 : o->lport, fam, true, &bind_addr,
				       err, sizeof(err));
		if (r) {
			braid_err("local: %s", err);
			return r;
		}
		if (fam == AF_UNSPEC)
			fam = bind_addr.sa.sa_family;
		do_bind = true;
	} else if (do_bind) {
		memset(&bind_addr, 0, sizeof(bind_addr));
		if (fam == AF_UNSPEC)
			fam = AF_INET6;	/* dual stack */
		bind_addr.sa.sa_family = (sa_family_t)fam;
		if (fam == AF_INET)
			bind_addr.in.sin_port = htons(o->lport);
		else
			bind_addr.in6.sin6_port = htons(o->lport);
	} else if (fam == AF_UNSPEC) {
		fam = AF_INET6;
	}
	r = braid_sock_open_udp(fam, do_bind ? &bind_addr : NULL, o->family == AF_INET6, &t->fd);
	if (r == -EAFNOSUPPORT && fam == AF_INET6 && o->family == AF_UNSPEC && !o->local) {
		fam = AF_INET;	/* no IPv6 on this host */
		if (do_bind) {
			memset(&bind_addr, 0, sizeof(bind_addr));
			bind_addr.in.sin_family = AF_INET;
			bind_addr.in.sin_port = htons(o->lport);
		}
		r = braid_sock_open_udp(fam, do_bind ? &bind_addr : NULL, false, &t->fd);
	}
	if (r) {
		braid_err("cannot open UDP socket%s%s: %s", do_bind ? " on " : "",
			  do_bind ? braid_sockaddr_str(&bind_addr, a, sizeof(a)) : "", strerror(-r));
		return r;
	}
	t->family = fam;
	if (t->has_remote && braid_sockaddr_to_family(remote, fam)) {
		braid_err("remote %s is not reachable from an %s socket",
			  braid_sockaddr_str(remote, a, sizeof(a)), fam == AF_INET ? "IPv4" : "IPv6");
		close(t->fd);
		t->fd = -1;
		return -EAFNOSUPPORT;
	}
	if (do_bind)
		braid_info("UDP%s link local (bound): %s", fam == AF_INET ? "v4" : "v6",
			   braid_sockaddr_str(&bind_addr, a, sizeof(a)));
	else
		braid_info("UDP%s link local: (not bound)", fam == AF_INET ? "v4" : "v6");
	if (t->has_remote)
		braid_info("UDP%s link remote: %s", fam == AF_INET ? "v4" : "v6",
			   braid_sockaddr_str(remote, a, sizeof(a)));
	return 0;
}

static bool ratelimit(ev_tstamp *last, ev_tstamp now)
{
	if (now - *last < 1.0)
		return false;
	*last = now;
	return true;
}

static void update_mssfix(struct braid_tunnel *t)
{
	const struct braid_path *p = &t->ps.path[0];
	int outer = 40;

	if (t->mpd)
		outer = braid_mpath_outer_hdr(t->mpd);
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

static void sock_write_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	(void)loop, (void)revents;
	tx_flush(w->data);
}

static void tun_read_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	struct braid_tunnel *t = w->data;
	size_t ov = braid_dc_overhead(t->dc);
	unsigned int n = 0;

	(void)loop, (void)revents;
	if (t->mpd) {
		braid_mpath_tun_readable(t->mpd, t->tun.fd);
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
		r = braid_dc_encrypt(t->dc, buf + ov, (size_t)len, buf, BUF_SIZE, &out_len, NULL);
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
static void send_control_payload(struct braid_tunnel *t, const uint8_t *pl, size_t len)
{
	uint8_t pkt[128];
	size_t out_len;
	int path = braid_pathset_select(&t->ps, pl, len);
	struct braid_path *p;

	if (path < 0 || t->tx_n)
		return;
	if (braid_dc_encrypt(t->dc, pl, len, pkt, sizeof(pkt), &out_len, NULL))
		return;
	p = &t->ps.path[path];
	if (sendto(p->fd, pkt, out_len, 0, &p->peer.sa, braid_sockaddr_len(&p->peer)) < 0) {
		t->st.link_tx_errors++;
		return;
	}
	braid_pathset_tx_done(&t->ps, path, out_len);
	t->st.link_tx_pkts++;
	t->st.link_tx_bytes += out_len;
	t->last_tx = ev_now(t->loop);
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

static void rx_one(struct braid_tunnel *t, const uint8_t *pkt, size_t len,
		   const union braid_sockaddr *from)
{
	union braid_sockaddr old;
	size_t plen;
	bool had;
	char a[128], b[128];
	int path, r;

	t->st.link_rx_pkts++;
	t->st.link_rx_bytes += len;
	path = braid_pathset_rx_lookup(&t->ps, t->fd, from);
	if (path < 0) {
		t->st.rx_wrong_peer++;
		braid_dbg("packet from %s dropped: not our peer (no 'float')",
			  braid_sockaddr_str(from, a, sizeof(a)));
		return;
	}
	r = braid_dc_decrypt(t->dc, pkt, len, mono_sec(), t->plain, BUF_SIZE, &plen, NULL);
	if (r == -EBADMSG) {
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
	if (r == -EALREADY || r == -ESTALE) {
		t->st.rx_replays++;
		braid_reject_replay(&t->rej, "", braid_sockaddr_str(from, a, sizeof(a)), pkt, len,
				    t->o->mute_replay_warnings, (int64_t)(ev_now(t->loop) * 1000));
		return;
	}
	if (r) {
		t->st.rx_malformed++;
		braid_dbg("packet from %s dropped: %s", braid_sockaddr_str(from, a, sizeof(a)),
			  strerror(-r));
		return;
	}
	/* authenticated from here on: only now may the peer address be learned or moved */
	if (braid_pathset_rx_confirm(&t->ps, path, from, len, &old, &had)) {
		if (had)
			braid_info("peer float: %s -> %s", braid_sockaddr_str(&old, a, sizeof(a)),
				   braid_sockaddr_str(from, b, sizeof(b)));
		update_mssfix(t);
	}
	if (!t->connected) {
		t->connected = true;
		braid_info("Peer Connection Initiated with %s", braid_sockaddr_str(from, a, sizeof(a)));
	}
	t->last_rx = ev_now(t->loop);
	rx_payload(t, t->plain, plen);
}

/* ---- multipath hooks ---- */

static void mp_deliver(void *user, uint8_t *payload, size_t len)
{
	rx_payload(user, payload, len);
}

static void mp_rx_auth(void *user, const union braid_sockaddr *from)
{
	struct braid_tunnel *t = user;
	char a[128];

	if (!t->connected) {
		t->connected = true;
		braid_info("Peer Connection Initiated with %s", braid_sockaddr_str(from, a, sizeof(a)));
	}
	t->last_rx = ev_now(t->loop);
}

static void mp_tx(void *user)
{
	struct braid_tunnel *t = user;

	t->last_tx = ev_now(t->loop);
}

static void status_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct braid_tunnel *t = w->data;
	int r;

	(void)loop, (void)revents;
	r = braid_status_write(t->o->status_path, &t->st, t->mpd);
	if (r)
		braid_warn("status: cannot write '%s': %s", t->o->status_path, strerror(-r));
}

static void sock_read_cb(struct ev_loop *loop, ev_io *w, int revents)
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

/* ---- timers and signals ---- */

static void tick_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct braid_tunnel *t = w->data;
	const struct braid_options *o = t->o;
	ev_tstamp now = ev_now(loop);

	(void)revents;
	bool has_peer = t->mpd ? braid_mpath_has_peer(t->mpd) : t->ps.path[0].has_peer;

	if (o->ping && has_peer && now - t->last_tx >= o->ping) {
		uint8_t ping[BRAID_PING_LEN + 2];
		size_t len;

		if (!braid_payload_build_ping(BRAID_COMP_NONE, ping, sizeof(ping), &len)) {
			if (t->mpd)
				braid_mpath_send_payload(t->mpd, ping, len);
			else
				send_control_payload(t, ping, len);
			t->st.pings_tx++;
		}
	}
	/* nothing to time out while we wait for a first peer */
	if (!t->has_remote && !has_peer)
		return;
	if (o->ping_exit && now - t->last_rx >= o->ping_exit) {
		braid_info("Inactivity timeout (--ping-exit), exiting");
		t->exit_req = true;
		t->exit_code = 0;
		ev_break(loop, EVBREAK_ONE);
	} else if (o->ping_restart && now - t->last_rx >= o->ping_restart && !t->restart_reason) {
		braid_info("Inactivity timeout (--ping-restart), restarting");
		t->restart_reason = "ping-restart";
		ev_break(loop, EVBREAK_ONE);
	}
}

static void signal_cb(struct ev_loop *loop, ev_signal *w, int revents)
{
	struct braid_tunnel *t = w->data;

	(void)revents;
	switch (w->signum) {
	case SIGTERM:
	case SIGINT:
		braid_info("%s[hard,] received, process exiting",
			   w->signum == SIGTERM ? "SIGTERM" : "SIGINT");
		t->exit_req = true;
		t->exit_code = 0;
		break;
	case SIGHUP:
	case SIGUSR1:
		if (!t->restart_reason)
			t->restart_reason = w->signum == SIGHUP ? "SIGHUP" : "SIGUSR1";
		break;
	case SIGUSR2:
		t->stats_req = true;
		break;
	}
	ev_break(loop, EVBREAK_ONE);
}

static void log_stats(const struct braid_tunnel *t, const char *what)
{
	const struct braid_tunnel_stats *s = &t->st;
	const uint64_t v[] = { BRAID_STATLINE_TRAFFIC(s), s->rx_wrong_peer, s->tx_no_peer,
			       s->pings_tx, s->pings_rx, s->mss_clamped, s->restarts };

	braid_statline_log(what, "wrong_peer no_peer pings_tx pings_rx mss_clamped restarts", v,
			   sizeof(v) / sizeof(v[0]));
}

static void restart(struct braid_tunnel *t)
{
	union braid_sockaddr remote;
	const char *why = t->restart_reason;
	char a[128];

	t->restart_reason = NULL;
	t->st.restarts++;
	braid_info("SIGUSR1[soft,%s] received, process restarting", why);
	/* fresh data-channel state: the peer restarts its packet-ids from 1 too */
	if (make_dc(t)) {
		t->exit_req = true;
		t->exit_code = 1;
		return;
	}
	t->tx_n = t->tx_sent = 0;
	if (ev_is_active(&t->sock_w)) {
		ev_io_stop(t->loop, &t->sock_w);
		ev_io_start(t->loop, &t->tun_r);
	}
	if (t->mpd) {
		if (braid_mpath_restart(t->mpd, t->dc)) {
			t->exit_req = true;
			t->exit_code = 1;
			return;
		}
	} else if (t->has_remote) {
		t->remote_idx = (t->remote_idx + 1) % t->o->n_remotes;
		if (resolve_remote(t, t->remote_idx, t->family, &remote) ||
		    braid_sockaddr_to_family(&remote, t->family)) {
			braid_warn("remote %s unusable; keeping the previous address",
				   t->o->remotes[t->remote_idx].host);
			remote = t->ps.path[0].peer;
		}
		braid_pathset_reset(&t->ps, &remote);
		braid_info("UDP link remote: %s", braid_sockaddr_str(&remote, a, sizeof(a)));
	} else {
		braid_pathset_reset(&t->ps, NULL);
	}
	update_mssfix(t);
	t->connected = false;
	ev_now_update(t->loop);
	t->last_rx = t->last_tx = ev_now(t->loop);
	braid_info("Initialization Sequence Completed");
}

int braid_tunnel_run(struct braid_tunnel *t)
{
	for (;;) {
		ev_run(t->loop, 0);
		if (t->stats_req) {
			t->stats_req = false;
			log_stats(t, "stats");
			braid_status_log(t->mpd);
			if (t->o->status_path)
				status_cb(t->loop, &t->status_t, 0);
		}
		if (t->exit_req)
			break;
		if (t->restart_reason)
			restart(t);
		if (t->exit_req)
			break;
	}
	log_stats(t, "final stats");
	braid_status_log(t->mpd);
	if (t->o->status_path)
		status_cb(t->loop, &t->status_t, 0);
	return t->exit_code;
}

void braid_tunnel_stats(const struct braid_tunnel *t, struct braid_tunnel_stats *st)
{
	*st = t->st;
	st->rx_wrong_peer = t->ps.rx_wrong_peer;
}

int braid_tunnel_new(struct braid_tunnel **out, struct braid_options *o)
{
	static const int signums[SIG_N] = { SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2 };
	union braid_sockaddr remote;
	struct braid_tunnel *t;
	int r;

	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->o = o;
	t->fd = -1;
	t->tun.fd = -1;
	t->txbuf = malloc((size_t)BATCH * BUF_SIZE);
	t->rxbuf = malloc((size_t)BATCH * BUF_SIZE);
	t->plain = malloc(BUF_SIZE);
	if (!t->txbuf || !t->rxbuf || !t->plain) {
		r = -ENOMEM;
		goto err_free;
	}
	r = load_key(t);
	if (r)
		goto err_free;
	r = make_dc(t);
	if (r)
		goto err_key;
	braid_info("static key loaded; data channel %s, key-direction %d, peer-id %u", o->cipher,
		   o->key_direction, o->peer_id);
	if (!o->multipath) {
		r = open_socket(t, &remote);
		if (r)
			goto err_dc;
		braid_pathset_init(&t->ps, t->fd, t->has_remote ? &remote : NULL, o->float_ok);
	} else {
		braid_pathset_init(&t->ps, -1, NULL, false);
		t->has_remote = o->n_remotes > 0;
		for (unsigned int i = 0; i < o->n_mp_paths; i++)
			if (o->mp_paths[i].remote)
				t->has_remote = true;
	}
	/* multipath: IFF_VNET_HDR so the data plane reads TCP super-packets and
	 * writes coalesced ones (braid_mpath_attach_tun) */
	r = o->multipath ? braid_tun_open_vnet(&t->tun, o) : braid_tun_open(&t->tun, o);
	if (r)
		goto err_sock;
	t->tun_open = true;
	r = braid_tun_configure(&t->tun, o);
	if (r)
		goto err_tun;
	update_mssfix(t);

	t->loop = ev_default_loop(EVFLAG_AUTO);
	if (!t->loop) {
		braid_err("cannot initialise the event loop");
		r = -ENOMEM;
		goto err_tun;
	}
	if (o->multipath) {
		const struct braid_mpath_hooks hooks = {
			.deliver = mp_deliver, .rx_auth = mp_rx_auth, .tx = mp_tx, .user = t,
		};

		r = braid_mpath_new(&t->mpd, t->loop, o, t->dc, &t->mss, &t->st, &hooks);
		if (r)
			goto err_loop;
		r = braid_mpath_attach_tun(t->mpd, t->tun.fd, t->tun.vnet);
		if (r) {
			braid_mpath_free(t->mpd);
			t->mpd = NULL;
			goto err_loop;
		}
		update_mssfix(t);
	}
	ev_io_init(&t->tun_r, tun_read_cb, t->tun.fd, EV_READ);
	ev_io_init(&t->sock_r, sock_read_cb, t->fd, EV_READ);
	ev_io_init(&t->sock_w, sock_write_cb, t->fd, EV_WRITE);
	ev_timer_init(&t->tick, tick_cb, TICK_S, TICK_S);
	t->tun_r.data = t->sock_r.data = t->sock_w.data = t->tick.data = t;
	ev_io_start(t->loop, &t->tun_r);
	if (!t->mpd)
		ev_io_start(t->loop, &t->sock_r);
	ev_timer_start(t->loop, &t->tick);
	ev_timer_init(&t->status_t, status_cb, o->status_interval, o->status_interval);
	t->status_t.data = t;
	if (o->status_path) {
		ev_timer_start(t->loop, &t->status_t);
		status_cb(t->loop, &t->status_t, 0);
	}
	if (o->control_socket) {
		struct braid_control_ops ops;

		t->ctlops.st = &t->st;
		t->ctlops.m = t->mpd;
		braid_ctlops_init(&ops, &t->ctlops, BRAID_VERSION_STR);
		r = braid_control_new(&t->ctl, t->loop, o->control_socket, &ops);
		if (r)
			goto err_ctl;
	}
	for (int i = 0; i < SIG_N; i++) {
		ev_signal_init(&t->sig[i], signal_cb, signums[i]);
		t->sig[i].data = t;
		ev_signal_start(t->loop, &t->sig[i]);
	}
	ev_now_update(t->loop);
	t->last_rx = t->last_tx = ev_now(t->loop);
	braid_info("Initialization Sequence Completed");
	*out = t;
	return 0;

err_ctl:
	ev_timer_stop(t->loop, &t->status_t);
	ev_timer_stop(t->loop, &t->tick);
	ev_io_stop(t->loop, &t->tun_r);
	ev_io_stop(t->loop, &t->sock_r);
	braid_mpath_free(t->mpd);
	t->mpd = NULL;
err_loop:
	ev_loop_destroy(t->loop);
	t->loop = NULL;
err_tun:
	braid_tun_close(&t->tun, o);
err_sock:
	if (t->fd >= 0)
		close(t->fd);
err_dc:
	braid_dc_free(t->dc);
err_key:
	braid_key2_wipe(&t->key);
err_free:
	free(t->plain);
	free(t->rxbuf);
	free(t->txbuf);
	free(t);
	return r;
}

void braid_tunnel_free(struct braid_tunnel *t)
{
	if (!t)
		return;
	if (t->loop) {
		ev_io_stop(t->loop, &t->tun_r);
		ev_io_stop(t->loop, &t->sock_r);
		ev_io_stop(t->loop, &t->sock_w);
		ev_timer_stop(t->loop, &t->tick);
		ev_timer_stop(t->loop, &t->status_t);
		braid_control_free(t->ctl);
		t->ctl = NULL;
		braid_mpath_free(t->mpd);
		t->mpd = NULL;
		for (int i = 0; i < SIG_N; i++)
			ev_signal_stop(t->loop, &t->sig[i]);
		ev_loop_destroy(t->loop);
	}
	if (t->tun_open)
		braid_tun_close(&t->tun, t->o);
	if (t->fd >= 0)
		close(t->fd);
	braid_dc_free(t->dc);
	braid_key2_wipe(&t->key);
	/* packet buffers held plaintext */
	sodium_memzero(t->txbuf, (size_t)BATCH * BUF_SIZE);
	sodium_memzero(t->rxbuf, (size_t)BATCH * BUF_SIZE);
	sodium_memzero(t->plain, BUF_SIZE);
	free(t->plain);
	free(t->rxbuf);
	free(t->txbuf);
	free(t);
}
