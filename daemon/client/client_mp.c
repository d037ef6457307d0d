// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_mp.c - the TLS client's multipath (client_mp.h).
 *
 * The control channel stays on the client's session socket (c->ufd); the
 * data channel moves to mpath.c's sockets, one per `mp-path LOCAL` (or one
 * wildcard socket without them), each with one configured path to the
 * server address the session connected to. The gateway learns each path
 * from an authenticated DATA_V2 packet (peer-id) and validates it.
 */
#include "client/client_mp.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "client/client_payload.h"
#include "util/log.h"
#include "dataplane/mpath.h"
#include "dataplane/mpsession.h"
#include "control/status.h"

struct client_mp {
	struct braid_mpsession s;	/* first: the engine and its stats */
	struct braid_options o;		/* the client's options, remotes = the server address */
	char host[INET6_ADDRSTRLEN];
};

bool client_mp_accept(struct braid_client *c, struct braid_dc_config *dcc)
{
	const struct braid_pushed *p = &c->pushed;

	if (!p->braid_mp)
		return false;
	if (c->tcp || c->o->mp_refuse) {
		/* a gateway pushes it only when we announced IV_BRAID_MP over UDP */
		braid_warn("pushed 'braid-mp' ignored (%s): single path",
			   c->tcp ? "TCP transport" : "multipath off");
		return false;
	}
	if (p->braid_mp != 1) {
		braid_warn("pushed 'braid-mp %u': unknown version (this braidd speaks 1): single path",
			   p->braid_mp);
		return false;
	}
	if (c->framing != BRAID_COMP_NONE) {
		braid_warn("pushed 'braid-mp' ignored: compression framing is on: single path");
		return false;
	}
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

static int mp_open(struct braid_mpsession *s, const struct braid_mpath_hooks *h)
{
	struct client_mp *mp = (struct client_mp *)s;	/* s is its first member */
	struct braid_client *c = s->role.user;
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
	return braid_mpath_new(&s->m, c->loop, &mp->o, c->dc, &c->mss, &s->st, h);
}

int client_mp_start(struct braid_client *c)
{
	const struct braid_mpsession_role role = {
		.deliver = mp_deliver, .activity = mp_activity, .user = c,
	};
	void *mp;
	int r;

	if (c->mp)
		return 0;
	r = braid_mpsession_start(&mp, sizeof(struct client_mp), &role, mp_open);
	if (r)
		return r;
	c->mp = mp;
	braid_info("multipath negotiated with the server (braid-mp %u, replay window %u): %u path "
		   "socket(s) to %s", c->pushed.braid_mp, c->pushed.braid_mp_window,
		   c->o->n_mp_paths ? c->o->n_mp_paths : 1, c->mp->host);
	return 0;
}

void client_mp_stop(struct braid_client *c)
{
	if (c->mp)
		braid_mpsession_free(&c->mp->s);
	c->mp = NULL;
}

int client_mp_send_payload(struct braid_client *c, const uint8_t *pl, size_t len)
{
	return braid_mpath_send_payload(c->mp->s.m, pl, len);
}

void client_mp_tun_readable(struct braid_client *c)
{
	braid_mpath_tun_readable(c->mp->s.m, c->tun.fd);
}

void client_mp_link_bytes(const struct braid_client *c, uint64_t *rx, uint64_t *tx)
{
	*rx = c->mp ? c->mp->s.st.link_rx_bytes : 0;
	*tx = c->mp ? c->mp->s.st.link_tx_bytes : 0;
}

void client_mp_status(const struct braid_client *c, FILE *f)
{
	struct braid_mpath_path_info p[BRAID_MP_MAX_PATHS];
	int n;

	if (!c->mp)
		return;
	n = braid_mpath_paths(c->mp->s.m, p, BRAID_MP_MAX_PATHS);
	fprintf(f, "Braid multipath,on,%d paths,%s\n", n, braid_mpath_sched_name(c->mp->s.m));
	for (int i = 0; i < n; i++)
		fprintf(f, "Braid path,%d,%s,%s,%s,%llu,%llu,%llu,%llu\n", p[i].index, p[i].local,
			p[i].remote, braid_mp_state_name(p[i].mp.state),
			(unsigned long long)p[i].wire_tx_pkts, (unsigned long long)p[i].wire_tx_bytes,
			(unsigned long long)p[i].wire_rx_pkts, (unsigned long long)p[i].wire_rx_bytes);
}

void client_mp_log(const struct braid_client *c)
{
	if (c->mp)
		braid_status_log(c->mp->s.m);
}
