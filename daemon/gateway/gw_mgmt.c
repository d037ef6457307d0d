// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_mgmt.c - the gateway's management interface callbacks (see gw_mgmt.h).
 */
#include "gateway/gw_mgmt.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "control/mgmt.h"
#include "control/mgmt_cfg.h"
#include "control/mgmt_cmd.h"
#include "ctl/km2.h"
#include "ctl/session.h"
#include "gateway/gw_client.h"
#include "gateway/gateway_mp.h"
#include "gateway/gw_script.h"
#include "gateway/gw_table.h"
#include "gateway/gw_timers.h"
#include "gateway/gw_types.h"
#include "gateway/gw_shared.h"
#include "os/sock.h"
#include "util/log.h"

static int op_status(void *user, int version, FILE *f)
{
	struct braid_gateway *g = user;
	char *buf = NULL;
	size_t len = 0;
	FILE *mf = open_memstream(&buf, &len);
	int r;

	if (!mf)
		return -ENOMEM;
	if (!version)	/* stock: `status` alone prints the configured status-version */
		version = g->o->status_version > 0 ? g->o->status_version : 1;
	r = braid_gw_status_print(g, mf, version, braid_mgmt_title());
	if (fclose(mf) && !r)
		r = -ENOMEM;
	if (!r) {
		/* the interface adds END itself */
		if (len >= 4 && !strcmp(buf + len - 4, "END\n"))
			len -= 4;
		fwrite(buf, 1, len, f);
	}
	free(buf);
	return r;
}

static void op_bytecount(void *user, braid_mgmt_bytes_fn emit, void *ctx)
{
	struct braid_gateway *g = user;

	for (uint32_t i = 0; i < g->max_clients; i++) {
		struct gw_client *c = g->by_pid[i];

		if (c && !c->dead && c->st == C_ACTIVE)
			emit(ctx, (long)c->cid, c->rx_bytes, c->tx_bytes);
	}
}

static void op_load_stats(void *user, unsigned *n, uint64_t *in, uint64_t *out)
{
	struct braid_gateway *g = user;

	/* as stock: the process's link byte totals, the clients gone included */
	struct braid_gateway_stats sum;
	uint64_t rj[BRAID_REJ__COUNT];

	braid_gw_workers_sum(g, &sum, rj);	/* every worker's clients gone */
	*n = 0;
	*in = sum.gone_rx_bytes;
	*out = sum.gone_tx_bytes;
	for (uint32_t i = 0; i < g->max_clients; i++) {
		struct gw_client *c = g->by_pid[i];

		if (!c || c->dead)
			continue;
		if (c->st == C_ACTIVE)
			(*n)++;
		*in += c->rx_bytes;
		*out += c->tx_bytes;
	}
}

static bool matches(const struct gw_client *c, enum braid_mgmt_kill how, const char *arg)
{
	char ipport[INET6_ADDRSTRLEN + 8];

	switch (how) {
	case BRAID_MGMT_KILL_CN:
		return !strcmp(braid_gw_cname(c), arg);
	case BRAID_MGMT_KILL_ADDR:
		snprintf(ipport, sizeof(ipport), "%s:%s", c->ip, c->port);
		return !strcmp(ipport, arg) || !strcmp(c->real, arg);
	case BRAID_MGMT_KILL_CID:
		return strtoul(arg, NULL, 10) == c->cid;
	}
	return false;
}

/* As stock's kill: the client is told to reconnect (or MSG), then dropped. */
static int op_kill(void *user, enum braid_mgmt_kill how, const char *arg, const char *msg,
		   unsigned *n)
{
	struct braid_gateway *g = user;

	*n = 0;
	for (uint32_t i = 0; i < g->max_clients; i++) {
		struct gw_client *c = g->by_pid[i];

		if (!c || c->dead || !matches(c, how, arg))
			continue;
		if (c->st == C_ACTIVE && !braid_ctls_send_text(c->ctl, msg ? msg : "RESTART"))
			braid_gw_ctl_run(c);
		braid_gw_client_kill(c, "killed by the management interface");
		(*n)++;
	}
	return *n ? 0 : -ENOENT;
}

/* `braid clients`, `braid client-paths`: the active clients, with their multipath data paths */
static int op_braid_clients(void *user, struct braid_mgmt_client *out, int max)
{
	struct braid_gateway *g = user;
	int n = 0;

	for (uint32_t i = 0; i < g->max_clients; i++) {
		struct gw_client *c = g->by_pid[i];

		if (!c || c->dead || c->st != C_ACTIVE)
			continue;
		if (n < max) {
			struct braid_mgmt_client *o = &out[n];

			memset(o, 0, sizeof(*o));
			o->cid = c->cid;
			snprintf(o->cn, sizeof(o->cn), "%s", braid_gw_cname(c));
			snprintf(o->real, sizeof(o->real), "%s", c->real);
			o->rx_bytes = c->rx_bytes;
			o->tx_bytes = c->tx_bytes;
			o->dp = braid_gw_mp_dp(c);
		}
		n++;
	}
	return n;
}

static int op_client_auth(void *user, unsigned long cid, unsigned kid, bool ok, const char *reason,
			  const char *client_reason, const char *config)
{
	struct braid_gateway *g = user;

	for (uint32_t i = 0; i < g->max_clients; i++) {
		struct gw_client *c = g->by_pid[i];

		if (!c || c->dead || c->cid != cid || !c->mgmt_wait || c->mgmt_kid != kid)
			continue;
		braid_gw_mgmt_answer(c, ok, reason, client_reason, config);
		return 0;
	}
	return -ENOENT;
}

/* `hold release`: the gateway starts serving (the socket it stopped in gw_mgmt_hold). */
static void op_hold_release(void *user)
{
	struct braid_gateway *g = user;

	if (!g->mg_held)
		return;
	g->mg_held = false;
	braid_info("management-hold: released: serving");
	braid_gw_sock_all(g, true);	/* every worker's socket */
	braid_gw_updown_notify(g, true);
}

bool gw_mgmt_hold(struct braid_gateway *g)
{
	if (!g->mg || !braid_mgmt_hold(g->mg, 0)) {
		if (g->o->mgmt_hold)	/* the other workers wait for it (gw_workers.c) */
			braid_gw_sock_all(g, true);
		return false;
	}
	g->mg_held = true;
	braid_gw_sock_all(g, false);
	braid_info("management-hold: waiting for 'hold release' before serving");
	return true;
}

/*
 * client-pending-auth: as stock's send_auth_pending_messages, AUTH_PENDING (with ",timeout N"
 * when the client's IV_PROTO says it understands it) and INFO_PRE,EXTRA go to the client; a
 * client waiting for client-auth gets the time (at most max(reneg-sec/2, hand-window)).
 */
static int op_pending_auth(void *user, unsigned long cid, unsigned kid, const char *extra,
			   unsigned timeout)
{
	struct braid_gateway *g = user;
	const struct braid_options *o = g->o;

	for (uint32_t i = 0; i < g->max_clients; i++) {
		struct gw_client *c = g->by_pid[i];
		unsigned max = (unsigned)(o->hand_window > 0 ? o->hand_window : 60);
		uint32_t proto = 0;
		char msg[1280];
		int n;

		if (!c || c->dead || c->cid != cid || c->mgmt_kid != kid || !c->ctl)
			continue;
		if (o->reneg_sec > 0 && (unsigned)o->reneg_sec / 2 > max)
			max = (unsigned)o->reneg_sec / 2;
		if (timeout > max)
			timeout = max;
		braid_peer_info_iv_proto(braid_ctls_peer_info(c->ctl), &proto);
		if (proto & BRAID_IV_PROTO_AUTH_PENDING_KW)
			snprintf(msg, sizeof(msg), "AUTH_PENDING,timeout %u", timeout);
		else
			snprintf(msg, sizeof(msg), "AUTH_PENDING");
		n = snprintf(NULL, 0, "INFO_PRE,%s", extra);
		if (n < 0 || (size_t)n >= sizeof(msg))
			return -EMSGSIZE;	/* stock: "Extra parameter might be too long" */
		if (braid_ctls_send_text(c->ctl, msg))
			return -EIO;
		snprintf(msg, sizeof(msg), "INFO_PRE,%s", extra);
		if (braid_ctls_send_text(c->ctl, msg))
			return -EIO;
		braid_gw_ctl_run(c);
		if (c->mgmt_wait)
			c->mgmt_deadline_ms = braid_gw_now_ms() + (int64_t)timeout * 1000;
		braid_info("%s/%s: client-pending-auth: AUTH_PENDING (%u s) sent", braid_gw_cname(c),
			   c->real, timeout);
		return 0;
	}
	return -ENOENT;
}

/*
 * `workers N`: the commands below walk every worker's clients, with the other workers held
 * (braid_gw_lock_all) for the length of the command.
 */
static void lk_bytecount(void *user, braid_mgmt_bytes_fn emit, void *ctx)
{
	braid_gw_lock_all(user);
	op_bytecount(user, emit, ctx);
	braid_gw_unlock_all(user);
}

static void lk_load_stats(void *user, unsigned *n, uint64_t *in, uint64_t *out)
{
	braid_gw_lock_all(user);
	op_load_stats(user, n, in, out);
	braid_gw_unlock_all(user);
}

static int lk_kill(void *user, enum braid_mgmt_kill how, const char *arg, const char *msg,
		   unsigned *n)
{
	int r;

	braid_gw_lock_all(user);
	r = op_kill(user, how, arg, msg, n);
	braid_gw_unlock_all(user);
	return r;
}

static int lk_braid_clients(void *user, struct braid_mgmt_client *out, int max)
{
	/* the rows point at the clients' data paths, used (and changed by `braid set`) after we return */
	braid_gw_hold_iteration(user);
	return op_braid_clients(user, out, max);
}

static int lk_client_auth(void *user, unsigned long cid, unsigned kid, bool ok, const char *reason,
			  const char *client_reason, const char *config)
{
	int r;

	braid_gw_lock_all(user);
	r = op_client_auth(user, cid, kid, ok, reason, client_reason, config);
	braid_gw_unlock_all(user);
	return r;
}

static int lk_pending_auth(void *user, unsigned long cid, unsigned kid, const char *extra,
			   unsigned timeout)
{
	int r;

	braid_gw_lock_all(user);
	r = op_pending_auth(user, cid, kid, extra, timeout);
	braid_gw_unlock_all(user);
	return r;
}

static void server_state(struct braid_gateway *g, const char *name, const char *desc)
{
	char t4[INET_ADDRSTRLEN] = "", lip[INET6_ADDRSTRLEN] = "", lport[8] = "";
	struct braid_mgmt_state s = { .name = name, .desc = desc, .tun4 = t4, .lip = lip,
				      .lport = lport };
	union braid_sockaddr la;
	socklen_t ll = sizeof(la);
	bool up = !strcmp(name, "CONNECTED");

	if ((up || !strcmp(name, "ASSIGN_IP")) && g->has_v4)
		braid_gw_v4str(g->gw4, t4, sizeof(t4));
	memset(&la, 0, sizeof(la));
	if (up && !getsockname(g->fd, &la.sa, &ll)) {
		if (la.sa.sa_family == AF_INET) {
			inet_ntop(AF_INET, &la.in.sin_addr, lip, sizeof(lip));
			snprintf(lport, sizeof(lport), "%u", ntohs(la.in.sin_port));
		} else if (la.sa.sa_family == AF_INET6) {
			inet_ntop(AF_INET6, &la.in6.sin6_addr, lip, sizeof(lip));
			snprintf(lport, sizeof(lport), "%u", ntohs(la.in6.sin6_port));
		}
	}
	braid_mgmt_set_state(g->mg, &s);
}

int gw_mgmt_open(struct braid_gateway *g)
{
	const struct braid_options *o = g->o;
	struct braid_mgmt_cfg cfg;
	struct braid_mgmt_ops ops = {
		.user = g,
		.gateway = true,
		.status = op_status,
		.bytecount = lk_bytecount,
		.load_stats = lk_load_stats,
		.kill = lk_kill,
		.client_auth = lk_client_auth,
		.braid_clients = lk_braid_clients,
		.pending_auth = lk_pending_auth,
		.hold_release = op_hold_release,
	};
	int r;

	braid_mgmt_cfg_from_options(&cfg, o);
	if (!o->mgmt_addr && !o->control_socket)	/* control-socket: braidctl's own listener */
		return 0;
	if (o->mgmt_client_auth && o->auth_user_pass_verify)
		braid_warn("management-client-auth: the management client decides; "
			   "auth-user-pass-verify is not run");
	r = braid_mgmt_new(&g->mg, g->loop, &cfg, &ops);
	if (r)
		return r;
	braid_gw_share_mg(g);	/* `workers N`: the others' clients' events come through worker 0 */
	server_state(g, "CONNECTING", NULL);
	server_state(g, "ASSIGN_IP", NULL);
	server_state(g, "CONNECTED", "SUCCESS");
	return 0;
}

void gw_mgmt_close(struct braid_gateway *g)
{
	struct braid_mgmt *m = g ? g->mg : NULL;

	if (!m)
		return;
	server_state(g, "EXITING", "SIGTERM");
	g->mg = NULL;
	braid_gw_share_mg(g);	/* the other workers let go of it first */
	braid_mgmt_free(m);
}
