// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_ctlsock.c - the gateway's control surface (gw_ctlsock.h).
 *
 * A client is named by its common name (every client with it) or by its
 * client ID (the status file's Client ID; a name of digits matches either).
 * Clients being removed are not listed.
 */
#include "gateway/gw_ctlsock.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gateway/gw_client.h"	/* first: session.h before dc.h */
#include "control/control.h"
#include "control/metrics_snap.h"
#include "control/status.h"
#include "gateway/gateway_mp.h"
#include "util/log.h"

#define U(x) ((unsigned long long)(x))
#define MATCH_MAX 64

/* A multipath client's engine, or NULL. */
static struct braid_dp *engine(const struct gw_client *c)
{
	return braid_gw_mp_dp(c);
}

static const char *state_name(int s)
{
	switch (s) {
	case C_HANDSHAKE: return "handshake";
	case C_AUTH: return "auth";
	case C_ACTIVE: return "active";
	case C_DYING: return "dying";
	}
	return "?";
}

/* The clients that name matches, at most max into out; how many matched in all. */
static unsigned find(const struct braid_gateway *g, const char *name, struct gw_client **out,
		     unsigned max)
{
	bool digits = name[0] && strspn(name, "0123456789") == strlen(name) && strlen(name) < 18;
	unsigned long id = digits ? strtoul(name, NULL, 10) : 0;
	unsigned n = 0;

	for (uint32_t i = 0; i < g->max_clients; i++) {
		struct gw_client *c = g->by_pid[i];

		if (!c || c->dead)
			continue;
		if ((digits && c->cid == id) || !strcmp(braid_gw_cname(c), name)) {
			if (n < max)
				out[n] = c;
			n++;
		}
	}
	return n;
}

/* Exactly one client, or -ENOENT / -EINVAL with the reason. */
static int find_one(const struct braid_gateway *g, const char *cmd, const char *name,
		    struct gw_client **c, char *err, size_t errlen)
{
	unsigned n = find(g, name, c, 1);

	if (n == 1)
		return 0;
	if (!n) {
		snprintf(err, errlen, "%s: no client '%.64s'", cmd, name);
		return -ENOENT;
	}
	snprintf(err, errlen, "%s: %u clients are '%.64s': name one by its ID", cmd, n, name);
	return -EINVAL;
}

/* One row for a stock client: its real address and byte counters. */
static void stock_path(FILE *f, const struct gw_client *c)
{
	char r[80];

	braid_sockaddr_str(&c->addr, r, sizeof(r));
	fputs("[{\"index\":0,\"local\":\"\",\"remote\":", f);
	braid_status_json_str(f, r);
	fprintf(f, ",\"learned\":false,\"state\":\"%s\",\"backup\":false,\"cap_mbit\":0,"
		"\"tx_bytes\":%llu,\"rx_bytes\":%llu}]", c->st == C_ACTIVE ? "active" : "probing",
		U(c->tx_bytes), U(c->rx_bytes));
}

static void client_paths(FILE *f, const struct gw_client *c)
{
	const struct braid_dp *m = engine(c);

	if (m)
		braid_status_paths_json(f, m);
	else
		stock_path(f, c);
}

static void client_json(FILE *f, const struct gw_client *c)
{
	const struct braid_dp *m = engine(c);
	char v4[INET_ADDRSTRLEN] = "", v6[INET6_ADDRSTRLEN] = "";

	if (c->has_v4)
		braid_gw_v4str(c->v4, v4, sizeof(v4));
	if (c->has_v6)
		inet_ntop(AF_INET6, &c->v6, v6, sizeof(v6));
	fprintf(f, "{\"id\":%lu,\"peer_id\":%u,\"cn\":", c->cid, c->pid);
	braid_status_json_str(f, braid_gw_cname(c));
	fputs(",\"username\":", f);
	braid_status_json_str(f, c->user);
	fputs(",\"real\":", f);
	braid_status_json_str(f, c->real);
	fputs(",\"virtual\":", f);
	braid_status_json_str(f, v4);
	fputs(",\"virtual6\":", f);
	braid_status_json_str(f, v6);
	fprintf(f, ",\"state\":\"%s\",\"proto\":\"%s\",\"kind\":\"%s\",\"paths\":%d,"
		"\"failovers\":%llu,\"rx_bytes\":%llu,\"tx_bytes\":%llu,\"since\":%lld,\"cipher\":",
		state_name(c->st), c->tcp ? "tcp" : "udp", m ? "braid-mp" : "stock",
		braid_gw_mp_paths(c), U(braid_met_failovers(m)), U(c->rx_bytes),
		U(c->tx_bytes), (long long)c->since);
	braid_status_json_str(f, c->st == C_ACTIVE ? c->push.cipher : "");
	fputc('}', f);
}

static void clients_array(FILE *f, const struct braid_gateway *g)
{
	bool first = true;

	fputc('[', f);
	for (uint32_t i = 0; i < g->max_clients; i++) {
		const struct gw_client *c = g->by_pid[i];

		if (!c || c->dead)
			continue;
		if (!first)
			fputc(',', f);
		first = false;
		client_json(f, c);
	}
	fputc(']', f);
}

static void op_status(void *user, FILE *f)
{
	const struct braid_gateway *g = user;
	const struct braid_gateway_stats *s = &g->st;
	double start, uptime;

	if (braid_met_process_times(&start, &uptime))
		uptime = 0;
	fprintf(f, "{\"version\":1,\"time\":%lld,\"role\":\"gateway\",\"uptime_s\":%.3f,"
		"\"proto\":\"%s\","
		"\"gateway\":{\"clients\":%lu,\"max_clients\":%u,\"sessions_created\":%llu,"
		"\"clients_removed\":%llu,\"cookie_replies\":%llu,\"cookie_rejected\":%llu,"
		"\"auth_failed\":%llu,\"max_clients_refused\":%llu,\"connect_freq_refused\":%llu,"
		"\"floats\":%llu,\"float_refused\":%llu,\"bad_source\":%llu,"
		"\"data_unknown_peer\":%llu,\"data_auth_failed\":%llu,\"tun_no_route\":%llu,"
		"\"c2c_forwarded\":%llu,\"tun_read_pkts\":%llu,\"tun_write_pkts\":%llu,"
		"\"link_rx_pkts\":%llu,\"link_tx_pkts\":%llu},\"clients\":",
		(long long)time(NULL), uptime, g->tcp ? "tcp" : "udp", s->clients, g->max_clients,
		U(s->sessions_created), U(s->clients_removed), U(s->cookie_replies),
		U(s->cookie_rejected), U(s->auth_failed), U(s->max_clients_refused),
		U(s->connect_freq_refused), U(s->floats), U(s->float_refused), U(s->bad_source),
		U(s->data_unknown_peer), U(s->data_auth_failed), U(s->tun_no_route),
		U(s->c2c_forwarded), U(s->tun_read_pkts), U(s->tun_write_pkts),
		U(s->link_rx_pkts), U(s->link_tx_pkts));
	clients_array(f, g);
	fputs("}\n", f);
}

static int op_clients(void *user, FILE *f, char *err, size_t errlen)
{
	(void)err, (void)errlen;
	fputs("{\"clients\":", f);
	clients_array(f, user);
	fputs("}\n", f);
	return 0;
}

static int op_paths(void *user, const char *client, FILE *f, char *err, size_t errlen)
{
	const struct braid_gateway *g = user;
	struct gw_client *c;
	bool first = true;
	int r;

	if (client) {
		r = find_one(g, "paths", client, &c, err, errlen);
		if (r)
			return r;
		fprintf(f, "{\"id\":%lu,\"cn\":", c->cid);
		braid_status_json_str(f, braid_gw_cname(c));
		fputs(",\"paths\":", f);
		client_paths(f, c);
		fputs("}\n", f);
		return 0;
	}
	fputs("{\"clients\":[", f);
	for (uint32_t i = 0; i < g->max_clients; i++) {
		c = g->by_pid[i];
		if (!c || c->dead)
			continue;
		fprintf(f, "%s{\"id\":%lu,\"cn\":", first ? "" : ",", c->cid);
		braid_status_json_str(f, braid_gw_cname(c));
		fputs(",\"paths\":", f);
		client_paths(f, c);
		fputc('}', f);
		first = false;
	}
	fputs("]}\n", f);
	return 0;
}

static int op_kill(void *user, const char *client, unsigned *killed, char *err, size_t errlen)
{
	struct braid_gateway *g = user;
	struct gw_client *c[MATCH_MAX];
	unsigned n = find(g, client, c, MATCH_MAX);

	if (!n) {
		snprintf(err, errlen, "kill: no client '%.64s'", client);
		return -ENOENT;
	}
	if (n > MATCH_MAX)
		n = MATCH_MAX;
	for (unsigned i = 0; i < n; i++) {
		/* like OpenVPN's management `kill`: tell the client to reconnect, then drop it */
		if (c[i]->st == C_ACTIVE && !braid_ctls_send_text(c[i]->ctl, "RESTART"))
			braid_gw_ctl_run(c[i]);
		braid_gw_client_kill(c[i], "killed by the control socket");
	}
	*killed = n;
	return 0;
}

static int client_engine(struct braid_gateway *g, const char *client, struct braid_dp **m,
			 char *prefix, size_t plen, char *err, size_t errlen)
{
	struct gw_client *c;
	int r = find_one(g, "set client", client, &c, err, errlen);

	if (r)
		return r;
	*m = engine(c);
	if (!*m) {
		snprintf(err, errlen, "set client: '%.64s' is not a multipath client", client);
		return -EOPNOTSUPP;
	}
	snprintf(prefix, plen, "control: client %s", braid_gw_cname(c));
	return 0;
}

static int op_client_set_sched(void *user, const char *client, const char *spec, char *err,
			       size_t errlen)
{
	struct braid_dp *m;
	char prefix[128];
	int r = client_engine(user, client, &m, prefix, sizeof(prefix), err, errlen);

	return r ? r : braid_surface_set_sched(m, prefix, spec, err, errlen);
}

static int op_client_set_path(void *user, const char *client, const char *path,
			      enum braid_ctl_path_op op, uint64_t cap, char *err, size_t errlen)
{
	struct braid_dp *m;
	char prefix[128];
	int r = client_engine(user, client, &m, prefix, sizeof(prefix), err, errlen);

	return r ? r : braid_surface_set_path(m, prefix, path, op, cap, err, errlen);
}

static int op_set_sched(void *user, const char *spec, char *err, size_t errlen)
{
	(void)user, (void)spec;
	snprintf(err, errlen, "set: this is a gateway: name the client (set client CN|ID ...)");
	return -EINVAL;
}

static int op_set_path(void *user, const char *path, enum braid_ctl_path_op op, uint64_t cap,
		       char *err, size_t errlen)
{
	(void)path, (void)op, (void)cap;
	return op_set_sched(user, NULL, err, errlen);
}

int gw_ctlsock_open(struct braid_gateway *g, struct braid_control **out)
{
	struct braid_control_ops ops;

	*out = NULL;
	if (!g->o->control_socket)
		return 0;
	memset(&ops, 0, sizeof(ops));
	ops.status = op_status;
	ops.paths = op_paths;
	ops.clients = op_clients;
	ops.kill = op_kill;
	ops.set_sched = op_set_sched;
	ops.set_path = op_set_path;
	ops.client_set_sched = op_client_set_sched;
	ops.client_set_path = op_client_set_path;
	ops.version = BRAID_VERSION_STR;
	ops.user = g;
	return braid_control_new(out, g->loop, g->o->control_socket, &ops);
}

void gw_ctlsock_close(struct braid_control *ctl)
{
	braid_control_free(ctl);
}
