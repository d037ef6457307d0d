// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_mp.c - the TLS client's multipath (client_mp.h).
 *
 * The control channel stays on the client's session socket (c->ufd); the
 * data channel moves to mpath.c's sockets, one per `mp-path LOCAL` (or one
 * wildcard socket without them), each with one configured path to the
 * server address the session connected to, or, for a path whose local
 * address is of the other family (an IPv6 path next to an IPv4 session), to
 * the first `remote` of the path's family (the gateway's other address). The
 * gateway learns each path from an authenticated DATA_V2 packet (peer-id)
 * and validates it.
 */
#include "client/client_mp.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "client/client_payload.h"
#include "client/client_sp.h"
#include "util/log.h"
#include "dataplane/backend_kmod.h"
#include "dataplane/backend_mptcp.h"
#include "dataplane/backend_user.h"
#include "control/status.h"

struct client_mp {
	struct braid_dp *dp;		/* the session's data path (backend.h) */
	struct braid_options o;		/* the client's options, remotes = the server address */
	char host[INET6_ADDRSTRLEN];
	char other[INET6_ADDRSTRLEN];	/* the server's address of the other family, or "" */
};

bool client_mp_accept(struct braid_client *c, struct braid_dc_config *dcc)
{
	const struct braid_pushed *p = &c->pushed;
	unsigned max = braid_mp_version_max();

	if (!p->braid_mp)
		return false;	/* none, or unreadable (push.c logged it): single path */
	if (c->tcp || c->o->mp_refuse) {
		/* a gateway pushes it only when we announced IV_BRAID_MP over UDP */
		braid_warn("pushed 'braid-mp' ignored (%s): single path",
			   c->tcp ? "TCP transport" : "multipath off");
		return false;
	}
	if (c->dco && !c->o->n_mp_paths) {
		/* the kernel's paths are the mp-path sockets: none configured, the session's one path */
		braid_info("pushed 'braid-mp' not used: the kernel data plane needs 'mp-path' lines for "
			   "several paths: single path");
		return false;
	}
	if (p->braid_mp < BRAID_MP_VERSION_MIN || p->braid_mp > max) {
		/* a conforming gateway offers the highest version both speak (§2.1) */
		braid_warn("pushed 'braid-mp %u': a multipath protocol version this braidd does not "
			   "speak (%u..%u): single path", p->braid_mp, BRAID_MP_VERSION_MIN, max);
		return false;
	}
	if (c->framing != BRAID_COMP_NONE) {
		braid_warn("pushed 'braid-mp' ignored: compression framing is on: single path");
		return false;
	}
	braid_info("multipath protocol version %u offered and accepted (this braidd speaks %u..%u)",
		   p->braid_mp, BRAID_MP_VERSION_MIN, max);
	dcc->replay_window = p->braid_mp_window;
	return true;
}

static void mp_deliver(void *user, uint8_t *payload, size_t len)
{
	client_rx_payload(user, payload, len);
}

static void mp_activity(void *user, bool rx)
{
	struct braid_client *c = user;

	if (rx)
		c->last_rx = ev_now(c->loop);
	else
		c->last_tx = ev_now(c->loop);
}

/* The family of a numeric address; AF_UNSPEC for anything else (an interface name). */
static int addr_family(const char *s)
{
	unsigned char b[16];

	return inet_pton(AF_INET, s, b) == 1 ? AF_INET : inet_pton(AF_INET6, s, b) == 1 ? AF_INET6 :
									     AF_UNSPEC;
}

/* The first `remote` of family fam (the same gateway's other address), as text; false if none. */
static bool other_remote(struct client_mp *mp, const struct braid_client *c, int fam, uint16_t *port)
{
	char err[256];

	for (unsigned int k = 0; k < c->o->n_remotes; k++) {
		const struct braid_opt_remote *r = &c->o->remotes[k];
		union braid_sockaddr a;

		*port = r->port ? r->port : c->o->rport;
		if (braid_sock_resolve(r->host, *port, fam, false, &a, err, sizeof(err)) ||
		    a.sa.sa_family != fam)
			continue;
		inet_ntop(fam, fam == AF_INET ? (const void *)&a.in.sin_addr :
						(const void *)&a.in6.sin6_addr, mp->other, sizeof(mp->other));
		return true;
	}
	return false;
}

/*
 * Mixed families: an `mp-path` whose local address is not of the session's
 * family goes to the server's address of its family (from the `remote`
 * lines), or is left out with an error line (it could never reach the server).
 */
static void mp_paths_family(struct client_mp *mp, const struct braid_client *c)
{
	int sfam = c->remote.sa.sa_family;
	unsigned int n = 0;
	uint16_t port = 0;

	for (unsigned int i = 0; i < mp->o.n_mp_paths; i++) {
		struct braid_opt_mp_path *p = &mp->o.mp_paths[i];
		int fam = addr_family(p->local);

		if (fam != AF_UNSPEC && fam != sfam && !p->remote) {
			if (!mp->other[0] && !other_remote(mp, c, fam, &port)) {
				braid_err("mp-path %s: the session runs over %s and no 'remote' has an %s "
					  "address of the server: path not used", p->local,
					  sfam == AF_INET ? "IPv4" : "IPv6", fam == AF_INET ? "IPv4" : "IPv6");
				continue;
			}
			p->remote = mp->other;	/* not freed through the copy (see mp_options) */
			p->port = port;
			braid_info("mp-path %s: %s path to the server's address %s port %u", p->local,
				   fam == AF_INET ? "IPv4" : "IPv6", mp->other, port);
		}
		mp->o.mp_paths[n++] = *p;
	}
	mp->o.n_mp_paths = n;
}

/* The data path's options: the client's, with the server address as the one remote. */
static void mp_options(struct client_mp *mp, const struct braid_client *c)
{
	const union braid_sockaddr *ra = &c->remote;
	uint16_t port;

	if (ra->sa.sa_family == AF_INET) {
		inet_ntop(AF_INET, &ra->in.sin_addr, mp->host, sizeof(mp->host));
		port = ntohs(ra->in.sin_port);
	} else {
		inet_ntop(AF_INET6, &ra->in6.sin6_addr, mp->host, sizeof(mp->host));
		port = ntohs(ra->in6.sin6_port);
	}
	/* a shallow copy: the strings stay the client's (never freed through it) */
	mp->o = *c->o;
	mp->o.multipath = 1;
	memset(mp->o.remotes, 0, sizeof(mp->o.remotes));
	mp->o.remotes[0].host = mp->host;
	mp->o.remotes[0].port = port;
	mp->o.n_remotes = 1;
	mp->o.rport = port;
	mp->o.nobind = true;	/* path sockets on ephemeral ports; c->ufd keeps the control channel */
	mp->o.family = ra->sa.sa_family;
	mp->o.tun_mtu = c->tun_mtu;
	mp_paths_family(mp, c);
}

/*
 * redirect-gateway: pin each path's way to the server with a host route via
 * the path's next hop (push_apply.c), undone with the session's routes.
 */
static void mp_path_routes(struct client_mp *mp, struct braid_client *c)
{
	for (unsigned int i = 0; i < mp->o.n_mp_paths; i++) {
		const struct braid_opt_mp_path *p = &mp->o.mp_paths[i];
		union braid_sockaddr srv = c->remote;
		char err[256];

		if (p->remote && braid_sock_resolve(p->remote, p->port, AF_UNSPEC, false, &srv, err,
						    sizeof(err)))
			continue;
		braid_push_apply_path_route(&c->pnet, c->tun.nl, &c->pushed, &srv, p->local, 1 + i);
	}
}

int client_mp_start(struct braid_client *c)
{
	const struct braid_dp_role role = {
		.deliver = mp_deliver, .activity = mp_activity, .user = c,
	};
	struct braid_dp_config cfg = {
		.loop = c->loop, .dc = c->dc, .mss = &c->mss, .shared_fd = -1,
	};
	struct client_mp *mp;
	int r;

	if (c->mp)
		return 0;
	mp = calloc(1, sizeof(*mp));
	if (!mp)
		return -ENOMEM;
	mp_options(mp, c);
	cfg.o = &mp->o;
	if (c->dco) {
		/* the device has one peer: the single path's goes, the paths carry the session */
		client_sp_close(c);
		r = client_dco_open(c, &mp->dp, &cfg, &role);
	} else {
		if (c->tun.vnet) {	/* a vnet TUN: the engine reads (splits) and writes (coalesces) it */
			cfg.tun_attach = true;
			cfg.tun_fd = c->tun.fd;
			cfg.tun_vnet = true;
		}
		r = braid_dp_open(&braid_dp_user_ops, &mp->dp, &cfg, &role);
	}
	if (r) {
		free(mp);
		return r;
	}
	c->mp = mp;
	mp_path_routes(mp, c);
	braid_info("multipath negotiated with the server (braid-mp %u, replay window %u): %u path "
		   "socket(s) to %s", c->pushed.braid_mp, c->pushed.braid_mp_window,
		   c->o->n_mp_paths ? c->o->n_mp_paths : 1, c->mp->host);
	return 0;
}

void client_mp_stop(struct braid_client *c)
{
	if (c->mp) {
		client_mp_counters(c, &c->stt);	/* the session's counters outlive its data path */
		braid_dp_close(c->mp->dp);
		free(c->mp);
	}
	c->mp = NULL;
}

int client_mp_send_payload(struct braid_client *c, const uint8_t *pl, size_t len)
{
	return braid_dp_send(c->mp->dp, pl, len);
}

void client_mp_tun_readable(struct braid_client *c)
{
	braid_dp_tun_readable(c->mp->dp, c->tun.fd);
}

void client_mp_counters(const struct braid_client *c, struct client_stats *out)
{
	struct braid_tunnel_stats st = { 0 };

	*out = c->stt;
	if (!c->mp && !braid_dp_is_kmod(c->sp))
		return;
	/* the data path (or the kernel) reads and writes the TUN and its own sockets itself */
	braid_dp_stats(c->mp ? c->mp->dp : c->sp, &st);
	out->tun_read_pkts += st.tun_read_pkts;
	out->tun_read_bytes += st.tun_read_bytes;
	out->tun_write_pkts += st.tun_write_pkts;
	out->tun_write_bytes += st.tun_write_bytes;
	out->link_tx_pkts += st.link_tx_pkts;
	out->link_tx_bytes += st.link_tx_bytes;
	out->link_rx_pkts += st.link_rx_pkts;
	out->link_rx_bytes += st.link_rx_bytes;
	out->rx_auth_failures += st.rx_auth_failures;
	out->rx_replays += st.rx_replays;
	out->rx_malformed += st.rx_malformed;
}

void client_mp_status(const struct braid_client *c, FILE *f)
{
	struct braid_mpath_path_info p[BRAID_MP_MAX_PATHS];
	struct braid_dp *dp = client_mp_dp(c);
	bool kmod_single = false;
	int n;

	if (!dp && braid_dp_is_kmod(c->sp)) {
		dp = c->sp;	/* the kernel's single path: its counters */
		kmod_single = true;
	}
	if (!dp)
		return;
	n = braid_dp_paths(dp, p, BRAID_MP_MAX_PATHS);
	/* the multipath engine's, or the MPTCP transport's (its subflows are the paths) */
	if (!kmod_single)
		fprintf(f, "Braid multipath,on,%d paths,%s\n", n, braid_dp_sched_name(dp));
	if (braid_dp_is_kmod(dp)) {
		struct braid_dp_kmod_ctl k;

		braid_dp_kmod_ctl_stats(dp, &k);
		/* docs/braidd.md "Kernel data plane": the module's key slots and control counters */
		fprintf(f, "Braid dco,%s,%d,%d,%llu,%llu,%llu,%llu,%llu\n", c->tun.name,
			k.primary_key_id, k.secondary_key_id, (unsigned long long)k.ctl_tx,
			(unsigned long long)k.ctl_rx, (unsigned long long)k.challenges,
			(unsigned long long)k.probes, (unsigned long long)k.nl_errors);
		/* the module's cost counters (module-wide; zero while cost_stats is off) */
		if (k.cost.present)
			fprintf(f, "Braid dco cost,%s,%llu,%llu,%llu,%llu,%llu,%llu\n",
				k.cost.enabled ? "on" : "off",
				(unsigned long long)k.cost.encrypt_packets,
				(unsigned long long)k.cost.encrypt_ns,
				(unsigned long long)k.cost.decrypt_packets,
				(unsigned long long)k.cost.decrypt_ns,
				(unsigned long long)k.cost.sched_packets,
				(unsigned long long)k.cost.sched_ns);
	}
	for (int i = 0; i < n; i++) {
		char rtt[24] = "-", last[24] = "-";

		if (p[i].rtt_fresh)
			snprintf(rtt, sizeof(rtt), "%.1f", p[i].mp.srtt_us / 1e3);
		if (p[i].last_rx_ms >= 0)
			snprintf(last, sizeof(last), "%.1f", p[i].last_rx_ms / 1e3);
		/* totals, then the last interval (docs/braidd.md "Status fields") */
		fprintf(f, "Braid path,%d,%s,%s,%s,%llu,%llu,%llu,%llu,%.3f,%.3f,%.1f,%s,%s\n",
			p[i].index, p[i].local, p[i].remote, braid_mp_state_name(p[i].mp.state),
			(unsigned long long)p[i].wire_tx_pkts, (unsigned long long)p[i].wire_tx_bytes,
			(unsigned long long)p[i].wire_rx_pkts, (unsigned long long)p[i].wire_rx_bytes,
			p[i].iv_tx_bps / 1e6, p[i].iv_rx_bps / 1e6, p[i].iv_share_pm / 10.0, rtt, last);
	}
}

struct braid_dp *client_mp_dp(const struct braid_client *c)
{
	if (!c->mp && braid_dp_is_mptcp(c->sp))
		return c->sp;	/* the MPTCP transport: its paths are the subflows */
	return c->mp ? c->mp->dp : NULL;
}

const char *client_mp_sched_name(const struct braid_client *c)
{
	const struct braid_dp *dp = client_mp_dp(c);

	return dp ? braid_dp_sched_name(dp) : "";
}

void client_mp_log(const struct braid_client *c)
{
	if (c->mp)
		braid_status_log(c->mp->dp);
}

void client_mp_reload_attrs(struct braid_client *c)
{
	if (!c->mp)
		return;
	/* shallow, as mp_options: the strings stay c->o's (a reload retires, never frees, them) */
	memcpy(c->mp->o.mp_attrs, c->o->mp_attrs, sizeof(c->mp->o.mp_attrs));
	c->mp->o.n_mp_attrs = c->o->n_mp_attrs;
}
