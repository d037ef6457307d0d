// SPDX-License-Identifier: GPL-2.0-only
/*
 * client.c - the TLS client (see client.h): set-up and tear-down, the event
 * loop with its tick (keepalive, timeouts, PUSH_REQUEST repeats), signals and
 * explicit-exit-notify; the top of the client's files (their order is in
 * client_int.h).
 *
 *   client_setup.c     tls-auth/tls-crypt key, auth-user-pass, TLS context
 *   client_peerinfo.c  data-ciphers, peer-info (IV_*), OCC options string
 *   client_connect.c   remote list, socket and connect, restart policy
 *   client_ctl.c       control session pump, server messages and events
 *   client_push.c      applying a PUSH_REPLY: keys, TUN, `up`, routes
 *   client_io.c        socket and TUN reads, data channel out
 *   client_link.c      sending on the socket or TCP link, closing it
 *   client_payload.c   a decrypted payload: TUN, ping, OCC EXIT
 *   client_mp.c        the negotiated multipath data plane
 *   client_status.c    `status FILE` and the stats log line
 *   client_state.c     clocks, restart and exit requests
 */
#include "client/client.h"

#include <errno.h>
#include <ev.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "client/client_connect.h"
#include "client/client_ctl.h"
#include "client/client_mp.h"
#include "client/client_int.h"
#include "client/client_io.h"
#include "client/client_mgmt.h"
#include "client/client_push.h"
#include "client/client_peerinfo.h"
#include "client/client_setup.h"
#include "client/client_mptcp.h"
#include "client/client_netwatch.h"
#include "client/client_state.h"
#include "config/config.h"
#include "client/client_status.h"
#include "ctl/session.h"
#include "ctl/tls.h"
#include "dc/dc.h"
#include "dc/payload.h"
#include "os/tun_super.h"
#include "util/log.h"
#include "os/tcplink.h"
#include "os/tun.h"
#include "dataplane/dco_dev.h"
#include "dataplane/dco_select.h"

#define TICK_S 0.25
#define PUSH_REQUEST_INTERVAL 5.0
#define EXIT_NOTIFY_WAIT 1.0

/* ---- timers and signals ---- */

static void send_occ_exit(struct braid_client *c);

static void tick_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	struct braid_client *c = w->data;
	const struct braid_options *o = c->o;
	ev_tstamp now = ev_now(loop);
	int hw = o->hand_window > 0 ? o->hand_window : 60;

	(void)revents;
	braid_reject_tick(&c->rej, client_now_ms());
	if (c->exit_deadline && now >= c->exit_deadline) {
		client_request_exit(c, 0);
		return;
	}
	if (c->occ_exit_next && now >= c->occ_exit_next) {
		send_occ_exit(c);
		c->occ_exit_next = now + 1.0;
	}
	switch (c->st) {
	case CS_TCP_CONNECTING: {
		int spt = o->server_poll_timeout > 0 ? o->server_poll_timeout : 120;

		if (now - c->connect_start >= spt) {
			braid_warn("TCP connect timed out after %d s (server-poll-timeout)", spt);
			client_request_restart(c, "server-poll-timeout", true);
		}
		break;
	}
	case CS_TLS:
		if (c->stt.link_rx_pkts == c->rx_at_start && o->server_poll_timeout > 0 &&
		    now - c->connect_start >= o->server_poll_timeout && o->server_poll_timeout < hw) {
			braid_warn("no answer from the server within %d s (server-poll-timeout)",
				   o->server_poll_timeout);
			client_request_restart(c, "server-poll-timeout", true);
		}
		break;
	case CS_PUSH:
		client_mgmt_push_wait(c);
		if (now - c->t_keys >= hw && now >= c->pending_until) {
			braid_err("no PUSH_REPLY within hand-window (%d s)", hw);
			client_request_restart(c, "no-push-reply", true);
		} else if (now - c->last_push_req >= PUSH_REQUEST_INTERVAL) {
			if (!braid_ctls_send_text(c->s, "PUSH_REQUEST"))
				braid_info("PUSH_REQUEST sent again (no reply yet)");
			c->last_push_req = now;
			client_pump(c);
		}
		break;
	case CS_UP:
		if (c->ping > 0 && now - c->last_tx >= c->ping)
			client_send_ping(c);
		if (o->ping_exit > 0 && now - c->last_rx >= o->ping_exit) {
			braid_info("Inactivity timeout (--ping-exit), exiting");
			client_request_exit(c, 0);
		} else if (c->ping_restart > 0 && now - c->last_rx >= c->ping_restart) {
			braid_info("Inactivity timeout (--ping-restart), restarting");
			client_request_restart(c, "ping-restart", false);
		}
		if (c->dc && c->s) {
			struct braid_dc_key_stats ks;
			int kid = braid_dc_primary_key_id(c->dc);

			if (kid >= 0 && !braid_dc_key_stats(c->dc, (unsigned)kid, &ks))
				braid_ctls_data_counters(c->s, ks.tx_bytes + ks.rx_bytes,
							 ks.tx_packets + ks.rx_packets);
			if (braid_dc_needs_renegotiation(c->dc))
				braid_ctls_renegotiate(c->s, client_now_ms());
			client_pump(c);
		}
		break;
	default:
		break;
	}
}

static void send_occ_exit(struct braid_client *c)
{
	uint8_t occ[BRAID_OCC_MAGIC_LEN + 4];
	size_t len;

	if (!braid_payload_build_occ_exit(c->framing, occ, sizeof(occ), &len))
		client_send_payload(c, occ, len);
}

/*
 * explicit-exit-notify N: with cc-exit the reliable control message EXIT, then 1 s for it to go out;
 * else (UDP) an OCC EXIT data packet once a second for N seconds, as OpenVPN's exit timer does.
 */
static void exit_notify(struct braid_client *c)
{
	int n = c->have_push && c->pushed.explicit_exit_notify >= 0 ?
			c->pushed.explicit_exit_notify : c->o->explicit_exit_notify;

	if (c->st != CS_UP || n <= 0 || c->exit_notify_sent)
		return;
	c->exit_notify_sent = true;
	if (c->pushed.cc_exit && c->s) {
		if (!braid_ctls_send_text(c->s, "EXIT")) {
			braid_info("SIGTERM: sending exit notification to the server (control "
				   "message EXIT)");
			client_pump(c);
		}
		c->exit_deadline = ev_now(c->loop) + EXIT_NOTIFY_WAIT;
	} else if (!c->tcp) {
		braid_info("SIGTERM: sending exit notification to the server (OCC EXIT, %d s)", n);
		send_occ_exit(c);
		c->occ_exit_next = ev_now(c->loop) + 1.0;
		c->exit_deadline = ev_now(c->loop) + n;
	}
}

static void signal_cb(struct ev_loop *loop, ev_signal *w, int revents)
{
	struct braid_client *c = w->data;

	(void)loop, (void)revents;
	switch (w->signum) {
	case SIGTERM:
	case SIGINT:
		braid_info("%s[hard,] received, process exiting",
			   w->signum == SIGTERM ? "SIGTERM" : "SIGINT");
		exit_notify(c);
		if (!c->exit_deadline || c->exit_req)
			client_request_exit(c, 0);
		return;	/* else the tick ends the process after the notification went out */
	case SIGHUP:
		if (braid_run_can_reload(c->o)) {
			braid_info("SIGHUP[hard,] received, process restarting");
			braid_info("state: RECONNECTING (SIGHUP)");
			client_request_exit(c, BRAID_RUN_RELOAD);	/* main.c reads the config again */
			return;
		}
		braid_info("SIGHUP: privileges were dropped, the configuration cannot be applied "
			   "again; restarting the session instead (as SIGUSR1)");
		/* fall through */
	case SIGUSR1:
		client_request_restart(c, w->signum == SIGHUP ? "SIGHUP" : "SIGUSR1", false);
		return;
	case SIGUSR2:
		c->stats_req = true;
		ev_break(c->loop, EVBREAK_ONE);
		return;
	}
}

int braid_client_run(struct braid_client *c)
{
	client_start_connect(c);
	for (;;) {
		if (!c->exit_req && !c->restart_reason)
			ev_run(c->loop, 0);
		if (c->stats_req) {
			c->stats_req = false;
			client_log_stats(c, "stats");
			client_mp_log(c);
			client_write_status(c);
		}
		if (c->exit_req)
			break;
		if (c->restart_reason)
			client_do_restart(c);
		if (c->exit_req)
			break;
	}
	client_updown(c, false);	/* >UPDOWN:DOWN before EXITING, as stock */
	if (c->exit_code == BRAID_RUN_RELOAD)	/* SIGHUP: the next role takes the interface over */
		client_mgmt_reload(c);
	else
		client_mgmt_state(c, "EXITING", c->exit_notify_sent ? "exit-with-notification" :
				  c->exit_code ? "exit-with-error" : "SIGTERM");
	client_log_stats(c, "final stats");
	client_mp_log(c);
	client_write_status(c);
	return c->exit_code;
}

/* the TUN, or the braid_dco device of the kernel data plane */
static void client_tun_close(struct braid_client *c)
{
	if (c->dco)
		braid_dco_dev_close(&c->tun, c->o);
	else
		braid_tun_close(&c->tun, c->o);
}

int braid_client_new(struct braid_client **out, struct braid_options *o)
{
	static const int signums[SIG_N] = { SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2 };
	struct braid_client *c;
	int r;

	if (!o->n_remotes) {
		braid_err("TLS client mode needs at least one 'remote'");
		return -EINVAL;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->o = o;
	c->ufd = -1;
	c->nl_fd = -1;
	c->tun.fd = -1;
	braid_tcplink_init(&c->tl);
	c->tun_mtu = o->tun_mtu ? o->tun_mtu : 1500;
	c->next_pause = -1;
	c->pkt = malloc(BUF_SIZE);
	c->plain = malloc(BUF_SIZE);
	c->framed = malloc(BUF_SIZE);
	c->rxbuf = malloc(CLIENT_RXBUF_BYTES);
	c->txbuf = malloc(CLIENT_TXBUF_BYTES);
	if (!c->pkt || !c->plain || !c->framed || !c->rxbuf || !c->txbuf) {
		r = -ENOMEM;
		goto err_free;
	}
	client_remote_order(c);
	r = client_load_wrap_key(c);
	if (r)
		goto err_free;
	r = client_load_user_pass(c);
	if (r)
		goto err_key;
	r = client_make_tls_ctx(c);
	if (r)
		goto err_key;
	c->dco = !strcmp(braid_dco_backend(), "dco");	/* before the peer-info (IV_BRAID_MP) */
	r = client_build_peer_info(c);
	if (r)
		goto err_tls;
	r = c->dco ? braid_dco_dev_open(&c->tun, o) : braid_tun_open_vnet(&c->tun, o);
	if (r)
		goto err_tls;
	c->tun_open = true;
	if (c->tun.vnet) {	/* TUN offloads: super-packets split on read, segments coalesced on write */
		braid_info("%s: offloads on (vnet): TCP super-packets split on read, segments coalesced on write",
			   c->tun.name);
		c->tunrd = malloc(BRAID_TUN_SUPER_MAX);
		c->tungro = calloc(1, sizeof(*c->tungro));
		if (!c->tunrd || !c->tungro) {
			r = -ENOMEM;
			goto err_tun;
		}
	}
	c->loop = ev_default_loop(EVFLAG_AUTO);
	if (!c->loop) {
		braid_err("cannot initialise the event loop");
		r = -ENOMEM;
		goto err_tun;
	}
	ev_io_init(&c->tun_r, client_tun_read_cb, c->tun.fd, EV_READ);
	ev_io_init(&c->sock_r, client_sock_read_cb, -1, EV_READ);
	ev_io_init(&c->sock_w, client_sock_write_cb, -1, EV_WRITE);
	ev_timer_init(&c->ctl_t, client_ctl_timer_cb, 1., 0.);
	ev_timer_init(&c->tick, tick_cb, TICK_S, TICK_S);
	ev_timer_init(&c->retry_t, client_retry_cb, 1., 0.);
	c->tun_r.data = c->sock_r.data = c->sock_w.data = c;
	c->ctl_t.data = c->tick.data = c->retry_t.data = c;
	ev_io_start(c->loop, &c->tun_r);
	ev_timer_start(c->loop, &c->tick);
	if (o->status_path) {
		double iv = o->status_interval > 0 ? o->status_interval : 60;

		ev_timer_init(&c->status_t, client_status_cb, iv, iv);
		c->status_t.data = c;
		ev_timer_start(c->loop, &c->status_t);
	}
	if (o->status_json_path) {
		double iv = o->status_json_interval > 0 ? o->status_json_interval : 10;

		ev_timer_init(&c->status_json_t, client_status_json_cb, iv, iv);
		c->status_json_t.data = c;
		ev_timer_start(c->loop, &c->status_json_t);
	}
	client_netwatch_start(c);
	client_mptcp_start(c);
	for (int i = 0; i < SIG_N; i++) {
		ev_signal_init(&c->sig[i], signal_cb, signums[i]);
		c->sig[i].data = c;
		ev_signal_start(c->loop, &c->sig[i]);
	}
	r = client_mgmt_open(c);
	if (r)
		goto err_loop;
	braid_info("TLS client: %u remote(s)%s, %s, data-ciphers %s", o->n_remotes,
		   o->remote_random ? " (remote-random)" : "",
		   c->wrap == BRAID_CTLS_WRAP_CRYPT ? "tls-crypt" :
		   c->wrap == BRAID_CTLS_WRAP_AUTH ? "tls-auth" : "no tls-auth/tls-crypt",
		   client_data_ciphers(o));
	*out = c;
	return 0;

err_loop:
	braid_client_free(c);	/* the loop and its watchers are set up: the full tear-down */
	return r;
err_tun:
	client_tun_close(c);
err_tls:
	braid_tls_ctx_free(c->ssl);
err_key:
	braid_key2_wipe(&c->wrap_key);
	if (c->pass) {
		sodium_memzero(c->pass, strlen(c->pass));
		free(c->pass);
	}
	free(c->user);
err_free:
	free(c->tungro);
	free(c->tunrd);
	free(c->txbuf);
	free(c->rxbuf);
	free(c->framed);
	free(c->plain);
	free(c->pkt);
	free(c);
	return r;
}

void braid_client_free(struct braid_client *c)
{
	if (!c)
		return;
	if (c->loop) {
		client_teardown_session(c);
		client_netwatch_stop(c);
		client_mptcp_stop(c);
		braid_dns_close(&c->dns);
		ev_io_stop(c->loop, &c->tun_r);
		ev_timer_stop(c->loop, &c->tick);
		ev_timer_stop(c->loop, &c->retry_t);
		if (c->o->status_path)
			ev_timer_stop(c->loop, &c->status_t);
		if (c->o->status_json_path)
			ev_timer_stop(c->loop, &c->status_json_t);
		for (int i = 0; i < SIG_N; i++)
			ev_signal_stop(c->loop, &c->sig[i]);
		client_mgmt_close(c);
		ev_loop_destroy(c->loop);
	}
	if (c->tun_open)
		client_tun_close(c);
	braid_tls_ctx_free(c->ssl);
	braid_key2_wipe(&c->wrap_key);
	client_free_secret(&c->pass);
	client_free_secret(&c->token);
	free(c->user);
	sodium_memzero(c->plain, BUF_SIZE);
	sodium_memzero(c->framed, BUF_SIZE);
	sodium_memzero(c->pkt, BUF_SIZE);
	sodium_memzero(c->rxbuf, CLIENT_RXBUF_BYTES);
	sodium_memzero(c->txbuf, CLIENT_TXBUF_BYTES);
	if (c->tunrd)
		sodium_memzero(c->tunrd, BRAID_TUN_SUPER_MAX);
	if (c->tungro)
		sodium_memzero(c->tungro, sizeof(*c->tungro));
	if (c->superbuf)
		sodium_memzero(c->superbuf, BRAID_TCPSUPER_MAX);
	free(c->superbuf);
	free(c->tungro);
	free(c->tunrd);
	free(c->txbuf);
	free(c->rxbuf);
	free(c->framed);
	free(c->plain);
	free(c->pkt);
	free(c);
}
