// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_connect.c - the TLS client's connection policy (client_connect.h):
 * the remote list (remote-random), resolving and connecting the current
 * remote (local/lport/nobind, UDP or TCP), tearing a connection down, and the
 * restart pause (connect-retry with backoff, connect-retry-max, the server's
 * AUTH_FAILED,TEMP backoff) before the next remote.
 */
#include "client/client_connect.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <sodium.h>

#include "client/client_ctl.h"
#include "client/client_link.h"
#include "client/client_mgmt.h"
#include "client/client_mp.h"
#include "client/client_push.h"
#include "client/client_sp.h"
#include "client/client_state.h"
#include "ctl/session.h"
#include "dc/dc.h"
#include "os/sdnotify.h"
#include "os/sock.h"
#include "os/tcplink.h"
#include "client/client_mptcp.h"
#include "session/push.h"
#include "util/log.h"

/* ---- connection management ---- */

int client_open_session_socket(struct braid_client *c)
{
	const struct braid_options *o = c->o;
	const struct braid_opt_remote *rm = &o->remotes[c->order[c->cur]];
	uint16_t port = rm->port ? rm->port : (o->rport ? o->rport : BRAID_OPT_DEFAULT_PORT);
	const char *host = c->mg_mod ? c->mg_host : rm->host;	/* management `remote MOD` */
	int family = rm->family != AF_UNSPEC ? rm->family : o->family;
	union braid_sockaddr local, *lp = NULL;
	char err[300], a[128];
	int r;

	if (c->mg_mod)
		port = c->mg_port;
	c->tcp = rm->proto == BRAID_PROTO_TCP_CLIENT;
	r = braid_sock_resolve(host, port, family, false, &c->remote, err, sizeof(err));
	if (r) {
		braid_err("remote %s: %s", host, err);
		return r;
	}
	/*
	 * As OpenVPN: `local` binds (to lport unless nobind); otherwise a UDP client binds the wildcard
	 * address on lport (1194) unless nobind, and a TCP client does not bind.
	 */
	if (o->local) {
		r = braid_sock_resolve(o->local, rm->nobind ? 0 : o->lport, c->remote.sa.sa_family,
				       true, &local, err, sizeof(err));
		if (r) {
			braid_err("local: %s", err);
			return r;
		}
		lp = &local;
	} else if (!c->tcp && !rm->nobind) {
		memset(&local, 0, sizeof(local));
		local.sa.sa_family = c->remote.sa.sa_family;
		if (local.sa.sa_family == AF_INET)
			local.in.sin_port = htons(o->lport);
		else
			local.in6.sin6_port = htons(o->lport);
		lp = &local;
	}
	if (c->tcp) {
		struct braid_tcplink_opts topts;

		client_mptcp_opts(c, &topts);
		braid_tcplink_init(&c->tl);
		r = braid_tcplink_connect(&c->tl, &c->remote, lp, &topts);
		if (r) {
			braid_err("TCP connect to %s: %s",
				  braid_sockaddr_str(&c->remote, a, sizeof(a)), strerror(-r));
			return r;
		}
		braid_info("Attempting to establish TCP connection with %s",
			   braid_sockaddr_str(&c->remote, a, sizeof(a)));
		c->st = CS_TCP_CONNECTING;
		client_mgmt_state(c, "TCP_CONNECT", NULL);
		c->connect_start = ev_now(c->loop);
		ev_io_set(&c->sock_r, c->tl.fd, EV_READ);
		ev_io_set(&c->sock_w, c->tl.fd, EV_WRITE);
		ev_io_start(c->loop, &c->sock_w);
		return 0;
	}
	r = braid_sock_open_udp(c->remote.sa.sa_family, lp, false, &c->ufd);
	if (r) {
		braid_err("cannot open a UDP socket%s%s: %s", lp ? " on " : "",
			  lp ? braid_sockaddr_str(lp, a, sizeof(a)) : "", strerror(-r));
		return r;
	}
	if (lp)
		braid_info("UDP link local (bound): %s", braid_sockaddr_str(lp, a, sizeof(a)));
	if (connect(c->ufd, &c->remote.sa, braid_sockaddr_len(&c->remote)) < 0) {
		r = -errno;
		braid_err("UDP connect to %s: %s", braid_sockaddr_str(&c->remote, a, sizeof(a)),
			  strerror(-r));
		close(c->ufd);
		c->ufd = -1;
		return r;
	}
	braid_info("UDP link remote: %s", braid_sockaddr_str(&c->remote, a, sizeof(a)));
	/* the multipath data plane's offloads: UDP GSO sends, GRO receives (client_io.c) */
	c->txb.n = 0;
	c->gso = braid_sock_gso_ok(c->ufd);
	c->gro = braid_sock_set_gro(c->ufd) == 0;
	braid_dbg("UDP GSO %s, GRO %s", c->gso ? "on" : "off", c->gro ? "on" : "off");
	ev_io_set(&c->sock_r, c->ufd, EV_READ);
	ev_io_set(&c->sock_w, c->ufd, EV_WRITE);
	ev_io_start(c->loop, &c->sock_r);
	if (client_new_session(c))
		client_request_exit(c, 1);	/* a configuration problem: retrying cannot help */
	return 0;
}

void client_start_connect(struct braid_client *c)
{
	int r;

	if (!client_mgmt_gate(c))
		return;	/* management hold or password query: the retry timer starts it */
	r = client_open_session_socket(c);

	if (r && !c->exit_req)
		client_request_restart(c, "connection-failed", true);
}

void client_retry_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop, (void)revents;
	client_start_connect(w->data);
}

void client_teardown_session(struct braid_client *c)
{
	ev_timer_stop(c->loop, &c->ctl_t);
	client_mp_stop(c);	/* before the data channel it uses */
	client_sp_close(c);
	braid_dc_free(c->dc);
	c->dc = NULL;
	client_teardown_net(c);	/* its `down` script and >UPDOWN:DOWN name the server: c->s still there */
	braid_ctls_free(c->s);
	c->s = NULL;
	braid_push_list_clear(&c->pl);
	braid_pushed_free(&c->pushed);
	c->have_push = false;
	client_close_link(c);
	if (c->tun_open && !ev_is_active(&c->tun_r))
		ev_io_start(c->loop, &c->tun_r);
	c->st = CS_IDLE;
}

void client_do_restart(struct braid_client *c)
{
	const struct braid_options *o = c->o;
	const char *why = c->restart_reason;
	bool was_up = c->st == CS_UP;
	double delay;

	c->restart_reason = NULL;
	c->stt.restarts++;
	braid_info("SIGUSR1[soft,%s] received, process restarting", why);
	client_mgmt_state(c, "RECONNECTING", why);
	braid_info("state: RECONNECTING (%s)", why);
	if (!strcmp(why, "SIGHUP"))
		braid_sd_reloading("restarting (SIGHUP)");
	else
		braid_sd_status("restarting (%s)", why);
	client_teardown_session(c);
	if (c->advance || !was_up) {
		c->failures++;
		c->cur = (c->cur + 1) % o->n_remotes;
	}
	if (o->connect_retry_max > 0 && c->failures >= (unsigned)o->connect_retry_max *
							  o->n_remotes) {
		braid_err("All connections have been connect-retry-max (%d) times unsuccessful, "
			  "exiting", o->connect_retry_max);
		c->exit_req = true;
		c->exit_code = 1;
		return;
	}
	/*
	 * OpenVPN's socket_restart_pause: connect-retry seconds; after 5 unsuccessful rounds over the
	 * remote list the pause doubles with each further round, up to the connect-retry maximum.
	 */
	delay = o->connect_retry > 0 ? o->connect_retry : 1;
	if (c->failures) {
		int backoff = (int)(c->failures / o->n_remotes) - 4;
		int max = o->connect_retry_max_backoff > 0 ? o->connect_retry_max_backoff : 300;

		if (backoff > 0)
			delay = delay * (double)(1u << (backoff < 15 ? backoff : 15));
		if (delay > max)
			delay = max;
	}
	if (c->next_pause >= 0) {
		delay = c->next_pause;	/* the server asked for this backoff */
		c->next_pause = -1;
	}
	braid_info("Restart pause, %.0f second(s); then remote %s", delay,
		   o->remotes[c->order[c->cur]].host);
	c->mg_hold_wait = (int)delay;	/* what >HOLD: shows, as stock */
	ev_timer_set(&c->retry_t, delay, 0.);
	ev_timer_start(c->loop, &c->retry_t);
}

/* The order of the remote list: as configured, or shuffled once with remote-random. */
void client_remote_order(struct braid_client *c)
{
	const struct braid_options *o = c->o;

	for (unsigned int i = 0; i < o->n_remotes; i++)
		c->order[i] = i;
	if (o->remote_random) {
		char list[BRAID_OPT_MAX_REMOTES * 4] = "";
		size_t off = 0;

		for (unsigned int i = o->n_remotes - 1; i > 0; i--) {
			unsigned int j = randombytes_uniform(i + 1), t = c->order[i];

			c->order[i] = c->order[j];
			c->order[j] = t;
		}
		for (unsigned int i = 0; i < o->n_remotes; i++)
			off += (size_t)snprintf(list + off, sizeof(list) - off, " %u", c->order[i] + 1);
		braid_info("remote-random: remotes in the order%s", list);
	}
}
