// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_ctlsock.c - the TLS client's control surface (client_ctlsock.h).
 *
 * The JSON follows docs/control-protocol.md: the keys of the static-key
 * tunnel's status (version, time, multipath, scheduler, tunnel, paths) plus
 * "role":"client", "state", "remote", "proto" and "cipher". A single-path
 * session has one path row (index 0, its socket's addresses and the link
 * counters).
 */
#include "client/client_ctlsock.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "client/client_int.h"
#include "client/client_mp.h"
#include "control/control.h"
#include "control/metrics_snap.h"
#include "control/status.h"
#include "os/sock.h"

#define U(x) ((unsigned long long)(x))

/* The current session's multipath data path, or NULL. */
static struct braid_dp *engine(const struct braid_client *c)
{
	return client_mp_dp(c);
}

static const char *state_name(enum cstate s)
{
	switch (s) {
	case CS_IDLE: return "waiting";
	case CS_TCP_CONNECTING: return "connecting";
	case CS_TLS: return "tls";
	case CS_PUSH: return "push";
	case CS_UP: return "up";
	}
	return "?";
}

/* The single path: the session socket's local and remote address, the link counters. */
static void single_path(FILE *f, const struct braid_client *c)
{
	const struct client_stats *s = &c->stt;
	union braid_sockaddr la;
	socklen_t ll = sizeof(la);
	char l[80] = "", r[80] = "";
	int fd = c->tcp ? c->tl.fd : c->ufd;

	memset(&la, 0, sizeof(la));
	if (fd >= 0 && !getsockname(fd, &la.sa, &ll))
		braid_sockaddr_str(&la, l, sizeof(l));
	if (c->st != CS_IDLE)
		braid_sockaddr_str(&c->remote, r, sizeof(r));
	fputs("[{\"index\":0,\"local\":", f);
	braid_status_json_str(f, l);
	fputs(",\"remote\":", f);
	braid_status_json_str(f, r);
	fprintf(f, ",\"learned\":false,\"state\":\"%s\",\"backup\":false,\"cap_mbit\":0,"
		"\"tx_pkts\":%llu,\"tx_bytes\":%llu,\"rx_pkts\":%llu,\"rx_bytes\":%llu}]",
		c->st == CS_UP ? "active" : "probing", U(s->link_tx_pkts), U(s->link_tx_bytes),
		U(s->link_rx_pkts), U(s->link_rx_bytes));
}

static void paths_array(FILE *f, const struct braid_client *c)
{
	const struct braid_dp *m = engine(c);

	if (m)
		braid_status_paths_json(f, m);
	else
		single_path(f, c);
}

static void op_status(void *user, FILE *f)
{
	const struct braid_client *c = user;
	const struct braid_dp *m = engine(c);
	struct client_stats all;
	const struct client_stats *s = &all;
	char r[80] = "";
	double start, uptime;

	client_mp_counters(c, &all);	/* with the multipath data path's */
	if (c->st != CS_IDLE)
		braid_sockaddr_str(&c->remote, r, sizeof(r));
	fprintf(f, "{\"version\":1,\"time\":%lld,\"role\":\"client\",\"state\":\"%s\",\"remote\":",
		(long long)time(NULL), state_name(c->st));
	braid_status_json_str(f, r);
	fprintf(f, ",\"proto\":\"%s\",\"cipher\":", c->tcp ? "tcp" : "udp");
	braid_status_json_str(f, c->st == CS_UP ? c->cipher : "");
	/* uptime_s, failovers: the metrics' braid_uptime_seconds, braid_session_failovers_total */
	if (braid_met_process_times(&start, &uptime))
		uptime = 0;
	fprintf(f, ",\"uptime_s\":%.3f,\"failovers\":%llu,\"multipath\":%s,", uptime,
		U(braid_met_failovers(m)), m ? "true" : "false");
	if (m) {
		fputs("\"scheduler\":", f);
		braid_status_json_str(f, client_mp_sched_name(c));
		fputc(',', f);
	}
	fprintf(f,
		"\"tunnel\":{\"tun_read_pkts\":%llu,\"tun_read_bytes\":%llu,\"tun_write_pkts\":%llu,"
		"\"tun_write_bytes\":%llu,\"link_tx_pkts\":%llu,\"link_tx_bytes\":%llu,"
		"\"link_rx_pkts\":%llu,\"link_rx_bytes\":%llu,\"auth_failures\":%llu,"
		"\"replays\":%llu,\"malformed\":%llu,\"pings_tx\":%llu,\"pings_rx\":%llu,"
		"\"restarts\":%llu,\"renegotiations\":%llu}",
		U(s->tun_read_pkts), U(s->tun_read_bytes), U(s->tun_write_pkts),
		U(s->tun_write_bytes), U(s->link_tx_pkts), U(s->link_tx_bytes),
		U(s->link_rx_pkts), U(s->link_rx_bytes), U(s->rx_auth_failures),
		U(s->rx_replays), U(s->rx_malformed), U(s->pings_tx), U(s->pings_rx),
		U(s->restarts), U(s->renegotiations));
	fputs(",\"paths\":", f);
	paths_array(f, c);
	fputs("}\n", f);
}

static int op_paths(void *user, const char *client, FILE *f, char *err, size_t errlen)
{
	if (client) {
		snprintf(err, errlen, "paths: no clients here (not a gateway)");
		return -EOPNOTSUPP;
	}
	fputs("{\"paths\":", f);
	paths_array(f, user);
	fputs("}\n", f);
	return 0;
}

static int op_set_sched(void *user, const char *spec, char *err, size_t errlen)
{
	return braid_surface_set_sched(engine(user), "control", spec, err, errlen);
}

static int op_set_path(void *user, const char *path, enum braid_ctl_path_op op, uint64_t cap,
		       char *err, size_t errlen)
{
	return braid_surface_set_path(engine(user), "control", path, op, cap, err, errlen);
}

int client_ctlsock_open(struct braid_client *c, struct braid_control **out)
{
	struct braid_control_ops ops;

	*out = NULL;
	if (!c->o->control_socket)
		return 0;
	memset(&ops, 0, sizeof(ops));
	ops.status = op_status;
	ops.paths = op_paths;
	ops.set_sched = op_set_sched;
	ops.set_path = op_set_path;
	ops.version = BRAID_VERSION_STR;
	ops.user = c;
	return braid_control_new(out, c->loop, c->o->control_socket, &ops);
}

void client_ctlsock_close(struct braid_control *ctl)
{
	braid_control_free(ctl);
}
