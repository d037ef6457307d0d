// SPDX-License-Identifier: GPL-2.0-only
/*
 * gateway_mp.c - multipath for the gateway's Braid clients (gateway_mp.h).
 */
#include "gateway/gateway_mp.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/log.h"
#include "dataplane/backend_user.h"
#include "control/status.h"

struct gw_mp {
	struct braid_dp *dp;		/* the client's data path (backend.h) */
	uint64_t tx_seen;		/* st.link_tx_bytes already added to the client's tx_bytes */
	braid_gw_mp_deliver_fn deliver;	/* the data path's payload input */
};

bool braid_gw_mp_offer(struct gw_client *c)
{
	struct braid_gateway *g = c->g;
	const char *pi = braid_ctls_peer_info(c->ctl);
	unsigned v = pi ? braid_peer_info_braid_mp(pi) : 0;
	char *opt;

	if (!g->o->multipath || c->tcp || !v)
		return false;
	if (!c->push.use_peer_id || c->push.framing != BRAID_COMP_NONE) {
		braid_info("%s/%s: IV_BRAID_MP=%u announced, but multipath needs peer-id and no "
			   "compression framing: single path", braid_gw_cname(c), c->real, v);
		return false;
	}
	if (c->push.n_opts >= BRAID_GW_PUSH_MAX_OPTS)
		return false;
	opt = malloc(32);
	if (!opt)
		return false;
	/* version 1 whatever the client announced (>= 1): the versions' common one */
	snprintf(opt, 32, "braid-mp %u %u", BRAID_GW_MP_VERSION, BRAID_GW_MP_WINDOW);
	c->push.opts[c->push.n_opts++] = opt;
	return true;
}

static void mp_activity(void *user, bool rx)
{
	struct gw_client *c = user;
	int64_t now = braid_gw_now_ms();

	if (rx) {
		c->last_rx_ms = now;
		return;
	}
	c->last_tx_ms = now;
	if (c->mp && c->mp->dp) {	/* the status file's bytes sent */
		struct braid_tunnel_stats st;

		braid_dp_stats(c->mp->dp, &st);
		c->tx_bytes += st.link_tx_bytes - c->mp->tx_seen;
		c->mp->tx_seen = st.link_tx_bytes;
	}
}

static void mp_deliver(void *user, uint8_t *payload, size_t len)
{
	struct gw_client *c = user;

	if (c->mp && !c->dead)	/* a killed client keeps its engine until the reap */
		c->mp->deliver(c, payload, len);
}

int braid_gw_mp_start(struct gw_client *c, braid_gw_mp_deliver_fn deliver)
{
	struct braid_gateway *g = c->g;
	const struct braid_dp_role role = {
		.activity = mp_activity, .deliver = mp_deliver, .user = c,
	};
	char name[160];
	const struct braid_dp_config cfg = {
		.loop = g->loop, .o = g->o, .dc = c->dc, .mss = &g->mss, .shared_fd = g->fd,
		.shared_local = g->pktinfo ? &g->rx_local : NULL, .name = name,
	};
	struct gw_mp *mp;
	int r;

	if (c->mp)
		return 0;
	mp = calloc(1, sizeof(*mp));
	if (!mp)
		return -ENOMEM;
	mp->deliver = deliver;
	snprintf(name, sizeof(name), "%s/%s", braid_gw_cname(c), c->real);
	r = braid_dp_open(&braid_dp_user_ops, &mp->dp, &cfg, &role);
	if (r) {
		free(mp);
		return r;
	}
	c->mp = mp;
	braid_info("%s/%s: multipath negotiated (IV_BRAID_MP, braid-mp %u pushed): peer-id %u, "
		   "paths are learned from authenticated packets", braid_gw_cname(c), c->real,
		   BRAID_GW_MP_VERSION, c->pid);
	return 0;
}

void braid_gw_mp_stop(struct gw_client *c)
{
	if (c->mp) {
		braid_dp_close(c->mp->dp);
		free(c->mp);
	}
	c->mp = NULL;
}

void braid_gw_mp_input(struct gw_client *c, const uint8_t *pkt, size_t len,
		       const union braid_sockaddr *from)
{
	if (c->st != C_ACTIVE) {
		c->g->st.data_unknown_peer++;
		return;
	}
	if (c->reauth_key >= 0 && (pkt[0] & BRAID_CTL_KEY_ID_MASK) == c->reauth_key) {
		/* a renegotiated key auth-user-pass-verify has not re-approved yet */
		c->g->st.data_unknown_peer++;
		return;
	}
	c->rx_bytes += len;
	braid_dp_input(c->mp->dp, pkt, len, from);
}

void braid_gw_mp_send(struct gw_client *c, const uint8_t *p, size_t len)
{
	int v = len ? p[0] >> 4 : 0;

	if (v == 4 || v == 6)
		braid_dp_send_ip(c->mp->dp, p, len);
	else
		braid_dp_send(c->mp->dp, p, len);
}

struct braid_mpath *braid_gw_mp_engine(const struct gw_client *c)
{
	return c->mp ? braid_dp_mpath(c->mp->dp) : NULL;
}

int braid_gw_mp_paths(const struct gw_client *c)
{
	struct braid_mpath_path_info p[BRAID_MP_MAX_PATHS];

	return c->mp ? braid_dp_paths(c->mp->dp, p, BRAID_MP_MAX_PATHS) : 1;
}

void braid_gw_mp_log(const struct braid_gateway *g)
{
	for (uint32_t i = 0; i < g->max_clients; i++) {
		const struct gw_client *c = g->by_pid[i];

		if (c && c->mp) {
			struct braid_tunnel_stats st;
			const struct braid_tunnel_stats *t = &st;

			braid_dp_stats(c->mp->dp, &st);
			braid_info("%s/%s: multipath peer-id %u: link rx %llu tx %llu, auth_failures=%llu "
				   "replays=%llu malformed=%llu", braid_gw_cname(c), c->real, c->pid,
				   (unsigned long long)t->link_rx_pkts, (unsigned long long)t->link_tx_pkts,
				   (unsigned long long)t->rx_auth_failures, (unsigned long long)t->rx_replays,
				   (unsigned long long)t->rx_malformed);
			braid_status_log(braid_dp_mpath(c->mp->dp));
		}
	}
}
