// SPDX-License-Identifier: GPL-2.0-only
/*
 * tunnel_mgmt.c - the static-key tunnel's management interface callbacks
 * (see tunnel_mgmt.h).
 */
#include "p2p/tunnel_mgmt.h"

#include <arpa/inet.h>
#include <errno.h>
#include <string.h>
#include <time.h>

#include "control/mgmt.h"
#include "control/mgmt_cfg.h"
#include "p2p/tunnel_int.h"
#include "session/script.h"
#include "util/log.h"

#define UPDOWN_ENV_MAX 160

static int op_status(void *user, int version, FILE *f)
{
	const struct braid_tunnel *t = user;
	const struct braid_tunnel_stats *s = &t->st;
	char when[32];
	time_t now = time(NULL);
	struct tm tm;

	(void)version;	/* one format, as stock's point-to-point mode */
	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	fprintf(f, "OpenVPN STATISTICS\nUpdated,%s\nTUN/TAP read bytes,%llu\nTUN/TAP write bytes,%llu\n"
		   "TCP/UDP read bytes,%llu\nTCP/UDP write bytes,%llu\nAuth read bytes,%llu\n",
		when, (unsigned long long)s->tun_read_bytes, (unsigned long long)s->tun_write_bytes,
		(unsigned long long)s->link_rx_bytes, (unsigned long long)s->link_tx_bytes,
		(unsigned long long)s->link_rx_bytes);
	return 0;
}

static void op_bytecount(void *user, braid_mgmt_bytes_fn emit, void *ctx)
{
	const struct braid_tunnel *t = user;

	emit(ctx, -1, t->st.link_rx_bytes, t->st.link_tx_bytes);
}

static void op_load_stats(void *user, unsigned *n, uint64_t *in, uint64_t *out)
{
	const struct braid_tunnel *t = user;

	*n = 0;
	*in = t->st.link_rx_bytes;
	*out = t->st.link_tx_bytes;
}

/* single-path mode: the current peer as the one path, once a packet authenticated */
static int op_braid_single(void *user, struct braid_mgmt_client *out)
{
	const struct braid_tunnel *t = user;
	const struct braid_path *p = &t->ps.path[0];

	if (t->mpd || !t->connected || !t->ps.n)
		return -ENOENT;
	memset(out, 0, sizeof(*out));
	for (unsigned i = 0; i < t->ps.n && i < BRAID_PATHSET_MAX; i++)
		if (t->ps.path[i].has_peer && t->ps.path[i].rx_packets) {
			p = &t->ps.path[i];
			break;
		}
	if (p->has_peer)
		braid_sockaddr_str(&p->peer, out->real, sizeof(out->real));
	out->rx_bytes = t->st.link_rx_bytes;
	out->tx_bytes = t->st.link_tx_bytes;
	return 0;
}

/* the braid commands: the multipath data path (NULL in single-path mode) */
static struct braid_dp *op_braid_dp(void *user)
{
	const struct braid_tunnel *t = user;

	return t->mpd;
}

/* management-up-down: >UPDOWN:UP / DOWN with the up/down script's environment but script_type
 * and signal (stock's block). */
static void updown(struct braid_mgmt *m, const struct braid_tunnel *t, bool up)
{
	struct braid_script_env env = { 0 };
	const char *v[UPDOWN_ENV_MAX];
	size_t n = 0;

	if (!braid_mgmt_up_down_on(m))
		return;
	if (!braid_script_env_p2p(t->o, up, t->tun.name, &env))
		for (size_t i = 0; i < env.n_own && n < UPDOWN_ENV_MAX; i++)
			if (strncmp(env.v[i], "script_type=", 12) && strncmp(env.v[i], "signal=", 7))
				v[n++] = env.v[i];
	braid_mgmt_up_down(m, up ? "UP" : "DOWN", v, n);
	braid_script_env_free(&env);
}

int braid_tunnel_mgmt_open(struct braid_tunnel *t, struct braid_mgmt **out)
{
	const struct braid_options *o = t->o;
	struct braid_mgmt_cfg cfg;
	struct braid_mgmt_ops ops = {
		.user = t,
		.status = op_status,
		.bytecount = op_bytecount,
		.load_stats = op_load_stats,
		.braid_dp = op_braid_dp,
		.braid_single = op_braid_single,
	};
	char t4[INET_ADDRSTRLEN] = "";
	struct braid_mgmt_state s = { .tun4 = t4 };
	int r;

	braid_mgmt_cfg_from_options(&cfg, o);
	/* no hold, password query or client-auth in the static-key mode (no effect: warned below) */
	cfg.hold = cfg.query_passwords = cfg.client_auth = false;
	*out = NULL;
	if (!o->mgmt_addr && !o->control_socket)	/* control-socket: braidctl's own listener */
		return 0;
	if (o->mgmt_hold || o->mgmt_query_passwords || o->mgmt_client_auth)
		braid_warn("management-hold/-query-passwords/-client-auth have no effect in "
			   "point-to-point mode: the tunnel starts at once and asks for nothing");
	r = braid_mgmt_new(out, t->loop, &cfg, &ops);
	if (r)
		return r;
	if (o->has_ifconfig)
		inet_ntop(AF_INET, &o->ifc_local, t4, sizeof(t4));
	s.name = "CONNECTING";
	s.tun4 = "";
	braid_mgmt_set_state(*out, &s);
	s.name = "ASSIGN_IP";
	s.tun4 = t4;
	braid_mgmt_set_state(*out, &s);
	updown(*out, t, true);	/* after the device and its addresses, before CONNECTED, as stock */
	s.name = "CONNECTED";
	s.desc = "SUCCESS";
	braid_mgmt_set_state(*out, &s);
	return 0;
}

void braid_tunnel_mgmt_close(const struct braid_tunnel *t, struct braid_mgmt *m)
{
	struct braid_mgmt_state s = { .name = "EXITING", .desc = "SIGTERM" };

	if (!m)
		return;
	updown(m, t, false);	/* before EXITING, as stock */
	braid_mgmt_set_state(m, &s);
	braid_mgmt_free(m);
}
