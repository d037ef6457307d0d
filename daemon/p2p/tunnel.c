// SPDX-License-Identifier: GPL-2.0-only
/*
 * tunnel.c - the point-to-point data plane on libev (see tunnel.h): set-up
 * (static key, data channel, UDP socket, TUN, multipath data plane,
 * signals), the run loop, session restarts, statistics and
 * teardown. The I/O is in tunnel_io.c, the keepalive timer and the signal
 * callbacks in tunnel_keepalive.c.
 */
#include "p2p/tunnel.h"

#include <errno.h>
#include <ev.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <sodium.h>

#include "config/config.h"
#include "dc/dc.h"
#include "dc/static_key.h"
#include "session/script.h"
#include "util/log.h"
#include "control/statline.h"
#include "dataplane/backend_user.h"
#include "dataplane/pathset.h"
#include "os/sdnotify.h"
#include "os/sock.h"
#include "control/status.h"
#include "os/tun.h"
#include "p2p/tunnel_int.h"
#include "p2p/tunnel_io.h"
#include "p2p/tunnel_keepalive.h"

static int make_dc(struct braid_tunnel *t)
{
	struct braid_options *o = t->o;
	struct braid_dc_config cfg = {
		.peer_id = o->peer_id,
		.replay_window = o->replay_window,
		.replay_time = o->has_replay_time ? o->replay_time : 0,
		.backend = BRAID_AEAD_BACKEND_AUTO,
		.long_form = true,	/* the time lets a restarted peer's new packet-ids through */
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
	braid_dp_close(t->sp);	/* before the data channel it uses */
	t->sp = NULL;
	braid_dc_free(t->dc);
	t->dc = dc;
	if (!o->multipath) {
		r = tunnel_sp_open(t);
		if (r) {
			braid_err("cannot open the data path: %s", strerror(-r));
			return r;
		}
	}
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

static void status_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct braid_tunnel *t = w->data;
	int r;

	(void)loop, (void)revents;
	/* `status FILE` and `status-json FILE`: the same JSON in this mode */
	for (int i = 0; i < 2; i++) {
		const char *path = i ? t->o->status_json_path : t->o->status_path;

		r = path ? braid_status_write(path, &t->st, t->mpd, t->connected) : 0;
		if (r)
			braid_warn("status: cannot write '%s': %s", path, strerror(-r));
	}
}

/* ---- run loop and restart ---- */

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
	braid_info("state: RECONNECTING (%s)", why);
	if (!strcmp(why, "SIGHUP"))
		braid_sd_reloading("restarting (SIGHUP)");
	else
		braid_sd_status("restarting (%s)", why);
	/* fresh data-channel state: the peer restarts its packet-ids from 1 too */
	if (make_dc(t)) {
		t->exit_req = true;
		t->exit_code = 1;
		return;
	}
	t->txb.n = 0;
	if (ev_is_active(&t->sock_w)) {
		ev_io_stop(t->loop, &t->sock_w);
		ev_io_start(t->loop, &t->tun_r);
	}
	if (t->mpd) {
		if (braid_dp_restart(t->mpd, t->dc)) {
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
	tunnel_update_mssfix(t);
	t->connected = false;
	ev_now_update(t->loop);
	t->last_rx = t->last_tx = ev_now(t->loop);
	braid_info("Initialization Sequence Completed");
	braid_sd_ready(t->loop, "Initialization Sequence Completed");
}

int braid_tunnel_run(struct braid_tunnel *t)
{
	for (;;) {
		ev_run(t->loop, 0);
		if (t->stats_req) {
			t->stats_req = false;
			log_stats(t, "stats");
			braid_status_log(t->mpd);
			if (t->o->status_path || t->o->status_json_path)
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
	if (t->o->status_path || t->o->status_json_path)
		status_cb(t->loop, &t->status_t, 0);
	return t->reload_req ? BRAID_RUN_RELOAD : t->exit_code;
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
	int r, iv;

	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->o = o;
	t->fd = -1;
	t->tun.fd = -1;
	t->txbuf = malloc(TXBUF_BYTES);
	t->rxbuf = malloc(RXBUF_BYTES);
	if (!t->txbuf || !t->rxbuf) {
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
		/* the offloads of the multipath data plane: UDP GSO sends, GRO receives */
		t->gso = braid_sock_gso_ok(t->fd);
		t->gro = braid_sock_set_gro(t->fd) == 0;
		braid_info("UDP GSO %s, GRO %s", t->gso ? "on" : "off", t->gro ? "on" : "off");
	} else {
		braid_pathset_init(&t->ps, -1, NULL, false);
		t->has_remote = o->n_remotes > 0;
		for (unsigned int i = 0; i < o->n_mp_paths; i++)
			if (o->mp_paths[i].remote)
				t->has_remote = true;
	}
	/* IFF_VNET_HDR so the data path reads TCP super-packets and writes
	 * coalesced ones (multipath: cfg.tun_attach; single path: tunnel_io.c) */
	r = braid_tun_open_vnet(&t->tun, o);
	if (r)
		goto err_sock;
	t->tun_open = true;
	if (t->tun.vnet && !o->multipath) {
		t->tunrd = malloc(BRAID_TUN_SUPER_MAX);
		t->tungro = calloc(1, sizeof(*t->tungro));
		if (!t->tunrd || !t->tungro) {
			r = -ENOMEM;
			goto err_tun;
		}
	}
	r = braid_tun_configure(&t->tun, o);
	if (!r)
		r = braid_script_run_p2p(o, true, t->tun.name);	/* `up`, as stock: after ifconfig */
	if (r)
		goto err_tun;
	tunnel_update_mssfix(t);

	t->loop = ev_default_loop(EVFLAG_AUTO);
	if (!t->loop) {
		braid_err("cannot initialise the event loop");
		r = -ENOMEM;
		goto err_tun;
	}
	if (o->multipath) {
		const struct braid_dp_role role = {
			.deliver = tunnel_mp_deliver, .rx_auth = tunnel_mp_rx_auth,
			.activity = tunnel_mp_activity, .user = t,
		};
		const struct braid_dp_config cfg = {
			.loop = t->loop, .o = o, .dc = t->dc, .mss = &t->mss, .shared_fd = -1,
			.st = &t->st, .tun_attach = true, .tun_fd = t->tun.fd,
			.tun_vnet = t->tun.vnet,
		};

		r = braid_dp_open(&braid_dp_user_ops, &t->mpd, &cfg, &role);
		if (r)
			goto err_loop;
		tunnel_update_mssfix(t);
	}
	ev_io_init(&t->tun_r, tunnel_tun_read_cb, t->tun.fd, EV_READ);
	ev_io_init(&t->sock_r, tunnel_sock_read_cb, t->fd, EV_READ);
	ev_io_init(&t->sock_w, tunnel_sock_write_cb, t->fd, EV_WRITE);
	ev_timer_init(&t->tick, tunnel_tick_cb, TICK_S, TICK_S);
	t->tun_r.data = t->sock_r.data = t->sock_w.data = t->tick.data = t;
	ev_io_start(t->loop, &t->tun_r);
	if (!t->mpd)
		ev_io_start(t->loop, &t->sock_r);
	ev_timer_start(t->loop, &t->tick);
	/* both files at the shorter interval of the two */
	iv = o->status_path ? o->status_interval : o->status_json_interval;
	if (o->status_path && o->status_json_path && o->status_json_interval < iv)
		iv = o->status_json_interval;
	ev_timer_init(&t->status_t, status_cb, iv, iv);
	t->status_t.data = t;
	if (o->status_path || o->status_json_path) {
		ev_timer_start(t->loop, &t->status_t);
		status_cb(t->loop, &t->status_t, 0);
	}
	for (int i = 0; i < SIG_N; i++) {
		ev_signal_init(&t->sig[i], tunnel_signal_cb, signums[i]);
		t->sig[i].data = t;
		ev_signal_start(t->loop, &t->sig[i]);
	}
	ev_now_update(t->loop);
	t->last_rx = t->last_tx = ev_now(t->loop);
	braid_info("Initialization Sequence Completed");
	braid_sd_ready(t->loop, "Initialization Sequence Completed");
	*out = t;
	return 0;

err_loop:
	ev_loop_destroy(t->loop);
	t->loop = NULL;
err_tun:
	braid_tun_close(&t->tun, o);
err_sock:
	if (t->fd >= 0)
		close(t->fd);
err_dc:
	braid_dp_close(t->sp);
	braid_dc_free(t->dc);
err_key:
	braid_key2_wipe(&t->key);
err_free:
	free(t->tungro);
	free(t->tunrd);
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
		braid_dp_close(t->mpd);
		t->mpd = NULL;
		for (int i = 0; i < SIG_N; i++)
			ev_signal_stop(t->loop, &t->sig[i]);
		ev_loop_destroy(t->loop);
	}
	if (t->tun_open) {
		braid_tun_close(&t->tun, t->o);
		braid_script_run_p2p(t->o, false, t->tun.name);	/* `down` after the device, as stock */
	}
	if (t->fd >= 0)
		close(t->fd);
	braid_dp_close(t->sp);
	braid_dc_free(t->dc);
	braid_key2_wipe(&t->key);
	/* packet buffers held plaintext */
	sodium_memzero(t->txbuf, TXBUF_BYTES);
	sodium_memzero(t->rxbuf, RXBUF_BYTES);
	if (t->tunrd)
		sodium_memzero(t->tunrd, BRAID_TUN_SUPER_MAX);
	if (t->tungro)
		sodium_memzero(t->tungro, sizeof(*t->tungro));
	free(t->tungro);
	free(t->tunrd);
	free(t->rxbuf);
	free(t->txbuf);
	free(t);
}
