// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_mgmt.c - the TLS client on the management interface (see
 * client_mgmt.h).
 */
#include "client/client_mgmt.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <sodium.h>

#include "client/client_mp.h"
#include "client/client_setup.h"
#include "client/client_status.h"
#include "control/mgmt.h"
#include "control/mgmt_cfg.h"
#include "control/mgmt_line.h"
#include "ctl/session.h"
#include "util/log.h"

static int op_status(void *user, int version, FILE *f)
{
	(void)version;	/* a client has one format, whatever the version (as stock) */
	client_status_print(user, f);
	return 0;
}

static void link_bytes(const struct braid_client *c, uint64_t *in, uint64_t *out)
{
	struct client_stats all;

	client_mp_counters(c, &all);	/* with the multipath data path's */
	*in = all.link_rx_bytes;
	*out = all.link_tx_bytes;
}

static void op_bytecount(void *user, braid_mgmt_bytes_fn emit, void *ctx)
{
	uint64_t in, out;

	link_bytes(user, &in, &out);
	emit(ctx, -1, in, out);
}

static void op_load_stats(void *user, unsigned *n, uint64_t *in, uint64_t *out)
{
	*n = 0;
	link_bytes(user, in, out);
}

/* Start the connection the gate held back: from the retry timer, at once. */
static void kick(struct braid_client *c)
{
	if (c->st != CS_IDLE || ev_is_active(&c->retry_t))
		return;
	ev_timer_set(&c->retry_t, 0., 0.);
	ev_timer_start(c->loop, &c->retry_t);
}

static void op_hold_release(void *user)
{
	struct braid_client *c = user;

	c->mg_released = true;
	kick(c);
}

static void op_credentials(void *user, const char *type, const char *username,
			   const char *password)
{
	struct braid_client *c = user;

	(void)type;
	client_free_secret(&c->pass);
	free(c->user);
	c->user = strdup(username);
	c->pass = strdup(password);
	if (!c->user || !c->pass) {
		client_free_secret(&c->pass);
		free(c->user);
		c->user = NULL;
		return;
	}
	c->mg_creds = true;
	kick(c);
}

/* `braid paths` and the other braid commands: the multipath data path, while there is one */
static struct braid_dp *op_braid_dp(void *user)
{
	return client_mp_dp(user);
}

/* a single-path session: its one path for `braid paths` */
static int op_braid_single(void *user, struct braid_mgmt_client *out)
{
	struct braid_client *c = user;

	if (c->st != CS_UP || client_mp_dp(c))
		return -ENOENT;
	memset(out, 0, sizeof(*out));
	braid_sockaddr_str(&c->remote, out->real, sizeof(out->real));
	link_bytes(c, &out->rx_bytes, &out->tx_bytes);
	return 0;
}

/* stock's proto2ascii of a connection entry: udp, udp4, udp6, tcp-client, tcp4-client, ... */
static const char *entry_proto(const struct braid_options *o, const struct braid_opt_remote *rm)
{
	int family = rm->family != AF_UNSPEC ? rm->family : o->family;
	bool tcp = rm->proto == BRAID_PROTO_TCP_CLIENT;

	if (family == AF_INET)
		return tcp ? "tcp4-client" : "udp4";
	if (family == AF_INET6)
		return tcp ? "tcp6-client" : "udp6";
	return tcp ? "tcp-client" : "udp";
}

static unsigned entry_port(const struct braid_options *o, const struct braid_opt_remote *rm)
{
	return rm->port ? rm->port : (o->rport ? (unsigned)o->rport : BRAID_OPT_DEFAULT_PORT);
}

/* remote-entry-get: the configured list, in its order (as stock, not remote-random's) */
static int op_remote_entry(void *user, unsigned i, char *buf, size_t len)
{
	struct braid_client *c = user;
	const struct braid_options *o = c->o;

	if (!c->mg_remote_served)
		return -EAGAIN;
	if (i >= o->n_remotes)
		return -ENOENT;
	snprintf(buf, len, "%s,%u,%s,enabled", o->remotes[i].host, entry_port(o, &o->remotes[i]),
		 entry_proto(o, &o->remotes[i]));
	return 0;
}

/* >REMOTE: for the remote this attempt would use */
static void query_remote(struct braid_client *c)
{
	const struct braid_options *o = c->o;
	const struct braid_opt_remote *rm = &o->remotes[c->order[c->cur]];
	char port[8];

	c->mg_mod = false;
	snprintf(port, sizeof(port), "%u", entry_port(o, rm));
	braid_mgmt_query_remote(c->mg, rm->host, port, entry_proto(o, rm));
}

static void op_remote(void *user, enum braid_mgmt_remote what, const char *host, const char *port)
{
	struct braid_client *c = user;
	unsigned long p;
	char *end;

	switch (what) {
	case BRAID_MGMT_REMOTE_SKIP:
		/* the next remote, asked at once (stock's next_connection_entry) */
		c->cur = (c->cur + 1) % c->o->n_remotes;
		query_remote(c);
		return;
	case BRAID_MGMT_REMOTE_MOD:
		p = strtoul(port, &end, 10);
		if (*end || !p || p > 65535) {
			braid_warn("management: remote MOD %s %s: not a port; the configured remote "
				   "is used", host, port);
			break;
		}
		snprintf(c->mg_host, sizeof(c->mg_host), "%s", host);
		c->mg_port = (uint16_t)p;
		c->mg_mod = true;
		braid_info("management: remote modified to %s:%lu for this attempt", host, p);
		break;
	case BRAID_MGMT_REMOTE_ACCEPT:
		break;
	}
	c->mg_remote_ok = true;
	kick(c);
}

/* cr-response: the answer goes to the server as the control message CR_RESPONSE,B64 */
static int op_cr_response(void *user, const char *b64)
{
	struct braid_client *c = user;
	char msg[BRAID_CR_RESPONSE_MAX + 16];
	int r;

	if (!c->s || c->st < CS_PUSH)
		return -ENOTCONN;
	snprintf(msg, sizeof(msg), "CR_RESPONSE,%s", b64);
	r = braid_ctls_send_text(c->s, msg);
	sodium_memzero(msg, sizeof(msg));
	if (r)
		braid_warn("cr-response: cannot send CR_RESPONSE: %s", strerror(-r));
	else
		braid_info("SENT CONTROL [server]: 'CR_RESPONSE,[...]'");	/* the answer is a secret */
	return r;
}

int client_mgmt_open(struct braid_client *c)
{
	const struct braid_options *o = c->o;
	struct braid_mgmt_cfg cfg;
	struct braid_mgmt_ops ops = {
		.user = c,
		.status = op_status,
		.bytecount = op_bytecount,
		.load_stats = op_load_stats,
		.hold_release = op_hold_release,
		.credentials = op_credentials,
		.braid_dp = op_braid_dp,
		.braid_single = op_braid_single,
		.remote_entry = op_remote_entry,
		.remote = op_remote,
		.cr_response = op_cr_response,
	};
	int r;

	braid_mgmt_cfg_from_options(&cfg, o);
	if (!o->mgmt_addr && !o->control_socket)	/* control-socket: braidctl's own listener */
		return 0;
	r = braid_mgmt_new(&c->mg, c->loop, &cfg, &ops);
	if (r)
		return r;
	if (!braid_mgmt_state_name(c->mg)[0]) {	/* not after a reload (RECONNECTING,SIGHUP) */
		c->mg_first = true;
		client_mgmt_state(c, "CONNECTING", NULL);
	}
	if (o->mgmt_query_passwords && o->has_auth_user_pass && !c->user) {
		char *u, *p;

		braid_mgmt_take_credentials(c->mg, &u, &p);	/* kept by a reload, as stock */
		if (u && p) {
			c->user = u;
			c->pass = p;
			c->mg_creds = true;
		} else {
			free(u);
			client_free_secret(&p);
		}
	}
	return 0;
}

void client_mgmt_close(struct braid_client *c)
{
	braid_mgmt_free(c->mg);
	c->mg = NULL;
}

static bool need_password(struct braid_client *c)
{
	if (!braid_mgmt_query_passwords(c->mg) || !c->o->has_auth_user_pass || c->user)
		return false;
	braid_mgmt_need_password(c->mg, "Auth");
	return true;
}

bool client_mgmt_gate(struct braid_client *c)
{
	if (!c->mg)
		return true;
	if (!c->mg_released && braid_mgmt_hold(c->mg, c->mg_hold_wait))
		return false;
	/*
	 * As stock: at the process start the password is asked before the remote (main() queries it
	 * when the interface opens); on a restart the remote comes first (next_connection_entry),
	 * the password after it.
	 */
	if (c->mg_first && need_password(c))
		return false;
	c->mg_remote_served = true;	/* stock serves remote-entry-* from here on */
	if (braid_mgmt_query_remote_on(c->mg) && !c->mg_remote_ok) {
		query_remote(c);	/* management-query-remote: asked before every attempt */
		return false;
	}
	if (!c->mg_first && need_password(c))
		return false;
	c->mg_first = false;
	c->mg_released = false;	/* the next attempt holds again while the hold flag is on */
	c->mg_remote_ok = false;
	return true;
}

void client_mgmt_state(struct braid_client *c, const char *name, const char *desc)
{
	struct braid_mgmt_state s = { .name = name, .desc = desc };
	char t4[INET_ADDRSTRLEN] = "", t6[INET6_ADDRSTRLEN] = "", rip[INET6_ADDRSTRLEN] = "",
	     rport[8] = "", lip[INET6_ADDRSTRLEN] = "", lport[8] = "";
	bool up = !strcmp(name, "CONNECTED"), addr = up || !strcmp(name, "ASSIGN_IP");

	if (!c->mg)
		return;
	if (!strcmp(name, "WAIT") || !strcmp(name, "AUTH"))
		c->mg_auth_seen = !strcmp(name, "AUTH");
	if (!strcmp(name, "WAIT"))
		c->mg_get_config = false;
	if (!strcmp(name, "RECONNECTING") && c->mg_creds) {
		/* as stock: credentials from a management query are asked again after a restart */
		client_free_secret(&c->pass);
		free(c->user);
		c->user = NULL;
		c->mg_creds = false;
	}
	if (addr && c->pnet.addr4)
		inet_ntop(AF_INET, &c->pnet.a4, t4, sizeof(t4));
	if (addr && c->pnet.addr6)
		inet_ntop(AF_INET6, &c->pnet.a6, t6, sizeof(t6));
	if (up && c->remote.sa.sa_family == AF_INET) {
		inet_ntop(AF_INET, &c->remote.in.sin_addr, rip, sizeof(rip));
		snprintf(rport, sizeof(rport), "%u", ntohs(c->remote.in.sin_port));
	} else if (up && c->remote.sa.sa_family == AF_INET6) {
		inet_ntop(AF_INET6, &c->remote.in6.sin6_addr, rip, sizeof(rip));
		snprintf(rport, sizeof(rport), "%u", ntohs(c->remote.in6.sin6_port));
	}
	if (up && c->tcp) {	/* stock shows the local end of a TCP connection only */
		union braid_sockaddr la;
		socklen_t ll = sizeof(la);

		memset(&la, 0, sizeof(la));
		if (!getsockname(c->tl.fd, &la.sa, &ll) && la.sa.sa_family == AF_INET) {
			inet_ntop(AF_INET, &la.in.sin_addr, lip, sizeof(lip));
			snprintf(lport, sizeof(lport), "%u", ntohs(la.in.sin_port));
		} else if (la.sa.sa_family == AF_INET6) {
			inet_ntop(AF_INET6, &la.in6.sin6_addr, lip, sizeof(lip));
			snprintf(lport, sizeof(lport), "%u", ntohs(la.in6.sin6_port));
		}
	}
	s.lip = lip;
	s.lport = lport;
	s.tun4 = t4;
	s.rip = rip;
	s.rport = rport;
	s.tun6 = t6[0] ? t6 : NULL;
	braid_mgmt_set_state(c->mg, &s);
}

void client_mgmt_reload(struct braid_client *c)
{
	if (!c->mg)
		return;
	if (c->mg_creds)	/* before RECONNECTING forgets them */
		braid_mgmt_stash_credentials(c->mg, c->user, c->pass);
	client_mgmt_state(c, "RECONNECTING", "SIGHUP");
}

void client_mgmt_auth_seen(struct braid_client *c)
{
	if (c->mg && !c->mg_auth_seen)
		client_mgmt_state(c, "AUTH", NULL);
}

void client_mgmt_push_wait(struct braid_client *c)
{
	/* stock looks for an established session once a second: a push that came sooner skips it */
	if (c->mg && !c->mg_get_config && c->st == CS_PUSH && ev_now(c->loop) - c->t_keys >= 1.0) {
		c->mg_get_config = true;
		client_mgmt_state(c, "GET_CONFIG", NULL);
	}
}

void client_mgmt_auth_failed(struct braid_client *c)
{
	if (!c->mg || !c->mg_creds)
		return;
	braid_mgmt_auth_failed(c->mg, "Auth");
	client_free_secret(&c->pass);
	free(c->user);
	c->user = NULL;
	c->mg_creds = false;
}
