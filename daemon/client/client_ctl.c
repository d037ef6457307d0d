// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_ctl.c - the TLS client's control session (client_ctl.h): starting
 * it, pumping its packets and events, and what the server says on it:
 * KEYS_READY (PUSH_REQUEST, renegotiated keys), PUSH_REPLY, AUTH_FAILED
 * (incl. TEMP and auth-token), AUTH_PENDING, RESTART, HALT, EXIT, INFO,
 * lame-duck expiry and TLS errors (tls-exit).
 */
#include "client/client_ctl.h"
#include "client/client_tcpsuper.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "client/client_link.h"
#include "client/client_mp.h"
#include "client/client_sp.h"
#include "client/client_mgmt.h"
#include "client/client_peerinfo.h"
#include "client/client_push.h"
#include "client/client_setup.h"
#include "client/client_state.h"
#include "ctl/session.h"
#include "dc/dc.h"
#include "util/log.h"
#include "session/push.h"
#include "os/sock.h"

#define CTL_BUF 2048

/* ---- control session ---- */

static void handle_event(struct braid_client *c, struct braid_ctls_event *ev);

void client_pump(struct braid_client *c)
{
	struct braid_ctls_event *ev;
	uint8_t buf[CTL_BUF];
	int64_t dl;
	size_t len;

	if (!c->s)
		return;
	ev = malloc(sizeof(*ev));
	if (!ev)
		return;
	for (int guard = 0; guard < 64 && c->s; guard++) {
		bool any = false;

		while (c->s && braid_ctls_output(c->s, client_now_ms(), buf, sizeof(buf), &len) == 0 && len) {
			client_link_send(c, buf, len);
			any = true;
		}
		while (c->s && braid_ctls_next_event(c->s, ev) == 0) {
			handle_event(c, ev);
			any = true;
		}
		if (!any)
			break;
	}
	if (c->st == CS_TLS && c->stt.link_rx_pkts != c->rx_at_start)
		client_mgmt_auth_seen(c);	/* the server answered */
	free(ev);
	ev_timer_stop(c->loop, &c->ctl_t);
	if (!c->s)
		return;
	dl = braid_ctls_deadline(c->s);
	if (dl != BRAID_CTLS_NEVER) {
		double d = (double)(dl - client_now_ms()) / 1000.0;

		ev_timer_set(&c->ctl_t, d > 0.001 ? d : 0.001, 0.);
		ev_timer_start(c->loop, &c->ctl_t);
	}
}

void client_ctl_timer_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop, (void)revents;
	client_pump(w->data);
}

int client_new_session(struct braid_client *c)
{
	const struct braid_options *o = c->o;
	struct braid_ctls_config cfg = {
		.server = false,
		.ssl_ctx = c->ssl,
		.wrap = c->wrap,
		.wrap_key = c->wrap != BRAID_CTLS_WRAP_NONE ? &c->wrap_key : NULL,
		.key_direction = c->wrap_dir,
		.auth_digest = o->auth_digest[0] ? o->auth_digest : NULL,
		.tcp = c->tcp,
		.hand_window_s = o->hand_window > 0 ? (unsigned)o->hand_window : 60,
		.tls_timeout_s = o->tls_timeout > 0 ? (unsigned)o->tls_timeout : 2,
		.reneg_sec = o->reneg_sec > 0 ? (unsigned)o->reneg_sec : UINT32_MAX,
		.tran_window_s = o->tran_window > 0 ? (unsigned)o->tran_window : 60,
		.reneg_bytes = o->reneg_bytes,
		.reneg_pkts = o->reneg_pkts,
		.replay_window = 64,
		.replay_time = 15,
		.options_string = c->occ,
		.username = c->user,
		.password = c->token ? c->token : c->pass,
	};
	char err[256];
	int r;

	client_build_occ(c, c->tcp, c->remote.sa.sa_family);
	cfg.options_string = c->occ;
	cfg.peer_info = client_tcpsuper_peer_info(c);
	r = braid_ctls_new(&c->s, &cfg, client_now_ms(), err, sizeof(err));
	if (r) {
		braid_err("cannot start the control session: %s", err);
		return r;
	}
	c->st = CS_TLS;
	client_mgmt_state(c, "WAIT", NULL);
	c->pending_until = 0;
	c->rx_at_start = c->stt.link_rx_pkts;
	c->ctl_ok_at_start = c->ctl_ok;
	c->connect_start = ev_now(c->loop);
	c->last_rx = c->last_tx = ev_now(c->loop);
	client_pump(c);
	return 0;
}

/* ---- messages and events from the server ---- */

static void handle_text(struct braid_client *c, const char *msg)
{
	struct braid_ctl_msg m;
	char err[256];
	int r;

	braid_ctl_msg_parse(msg, &m);
	switch (m.kind) {
	case BRAID_MSG_PUSH_REPLY:
		if (c->st == CS_UP) {
			braid_dbg("PUSH_REPLY after the configuration: ignored");
			return;
		}
		if (c->st != CS_PUSH) {
			braid_warn("PUSH_REPLY before the keys are ready: ignored");
			return;
		}
		r = braid_push_accumulate(&c->pl, msg, err, sizeof(err));
		if (r < 0) {
			braid_err("bad PUSH_REPLY: %s", err);
			client_request_restart(c, "bad-push", false);
			return;
		}
		if (r == 0) {
			braid_info("PUSH: received part %u of a continued reply", c->pl.parts);
			return;
		}
		braid_info("PUSH: received control message with %u option(s) in %u part(s)",
			   c->pl.n, c->pl.parts);
		client_process_push(c);
		break;
	case BRAID_MSG_AUTH_FAILED:
		braid_err("AUTH: Received control message: %s", msg);
		client_mgmt_auth_failed(c);
		if (c->token) {
			/* the token expired or was refused: the next attempt uses the password */
			client_free_secret(&c->token);
			braid_info("auth-token refused: retrying with the password");
			client_request_restart(c, "auth-token-refused", false);
		} else if (m.temp) {
			if (m.backoff >= 0)
				c->next_pause = m.backoff;
			client_request_restart(c, "auth-temp-failure (server temporary reject)",
					       m.advance != 0);
		} else if (c->o->auth_retry == BRAID_AUTH_RETRY_NONE) {
			braid_err("authentication failed (auth-retry none): exiting");
			client_request_exit(c, 1);
		} else {
			client_request_restart(c, "auth-failure", false);
		}
		break;
	case BRAID_MSG_AUTH_PENDING:
		if (m.timeout > 0)
			c->pending_until = ev_now(c->loop) + m.timeout;
		braid_info("authentication pending at the server (%s)%s", msg,
			   m.timeout > 0 ? ": waiting for the reply up to that timeout" : "");
		break;
	case BRAID_MSG_RESTART:
		braid_info("server sent RESTART (%s): restarting", msg);
		client_request_restart(c, "server-pushed-connection-reset", m.next_remote);
		break;
	case BRAID_MSG_HALT:
		braid_info("server sent HALT (%s): exiting", msg);
		client_request_exit(c, 0);
		break;
	case BRAID_MSG_EXIT:
		braid_info("server sent EXIT (cc-exit): restarting");
		client_request_restart(c, "remote-exit", true);
		break;
	case BRAID_MSG_INFO:
		braid_info("control message from the server: %s", msg);
		break;
	default:
		braid_warn("unknown control message from the server ignored: '%.64s'", msg);
		break;
	}
}

static void handle_event(struct braid_client *c, struct braid_ctls_event *ev)
{
	char a[128];
	int r;

	switch (ev->type) {
	case BRAID_CTLS_EV_KEYS_READY:
		if (c->st == CS_TLS) {
			braid_info("Peer Connection Initiated with %s (key_id %u)",
				   braid_sockaddr_str(&c->remote, a, sizeof(a)), ev->key_id);
			c->st = CS_PUSH;
			c->t_keys = ev_now(c->loop);
			client_tcpsuper_keys_ready(c);
			braid_push_list_clear(&c->pl);
			r = braid_ctls_send_text(c->s, "PUSH_REQUEST");
			if (r)
				braid_warn("cannot send PUSH_REQUEST: %s", strerror(-r));
			c->last_push_req = ev_now(c->loop);
		} else if (c->st == CS_UP && c->dc) {
			struct braid_key2 k2;

			r = braid_ctls_derive(c->s, ev->key_id,
					      c->use_ekm ? BRAID_CTLS_KDF_EKM : BRAID_CTLS_KDF_PRF, &k2);
			if (!r)
				r = braid_dc_key_install(c->dc, ev->key_id, c->cipher, &k2,
							 BRAID_KEY_DIR_NORMAL);
			braid_key2_wipe(&k2);
			if (r && r != -EEXIST) {
				braid_err("renegotiation: cannot install key_id %u: %s", ev->key_id,
					  strerror(-r));
				client_request_restart(c, "key-install", false);
				return;
			}
			r = client_dco_key(c, c->mp ? client_mp_dp(c) : c->sp, ev->key_id);
			if (r) {
				client_request_restart(c, "key-install", false);
				return;
			}
			c->stt.renegotiations++;
			braid_info("renegotiation complete: data channel now on key_id %u (the "
				   "previous key kept as lame duck)", ev->key_id);
		}
		break;
	case BRAID_CTLS_EV_TEXT:
		handle_text(c, ev->text);
		break;
	case BRAID_CTLS_EV_KEY_EXPIRED:
		if (c->mp ? client_mp_dp(c) : c->sp)
			braid_dp_key_remove(c->mp ? client_mp_dp(c) : c->sp, (int)ev->key_id);
		if (c->dc && braid_dc_key_remove(c->dc, ev->key_id) == 0) {
			c->stt.keys_removed++;
			braid_info("lame-duck key_id %u removed (transition window over)",
				   ev->key_id);
		}
		break;
	case BRAID_CTLS_EV_SOFT_RESET:
		braid_info("renegotiation started: key_id %u", ev->key_id);
		break;
	case BRAID_CTLS_EV_ERROR:
		if (ev->fatal) {
			if (c->st == CS_TLS && c->stt.link_rx_pkts == c->rx_at_start)
				braid_err("TLS Error: %s; no packet came back from the server: check its "
					  "address and port, and the tls-auth/tls-crypt key and "
					  "key-direction", ev->text);
			else if (c->st == CS_TLS && c->ctl_ok_at_start == c->ctl_ok)
				braid_err("TLS Error: %s; every packet from the server was dropped: "
					  "wrong tls-auth/tls-crypt key or key-direction?", ev->text);
			else
				braid_err("TLS Error: %s", ev->text);
			if (c->o->tls_exit) {
				braid_err("exiting on a TLS error (tls-exit)");
				client_request_exit(c, 1);
				return;
			}
			client_request_restart(c, "tls-error", c->st != CS_UP);
		} else {
			braid_warn("control channel: %s", ev->text);
		}
		break;
	default:
		break;
	}
}
