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
#include "dataplane/backend_mptcp.h"
#include "dataplane/backend_user.h"
#include "control/status.h"
#include "gateway/gw_cluster.h"

struct gw_mp {
	struct braid_dp *dp;		/* the client's data path (backend.h) */
	uint64_t tx_seen;		/* st.link_tx_bytes already added to the client's tx_bytes */
	uint64_t tx_pkts_seen;		/* st.link_tx_pkts already added to the gateway's link_tx_pkts */
	braid_gw_mp_deliver_fn deliver;	/* the data path's payload input */
	int64_t start_ms;		/* engine created */
	bool confirmed;			/* a path validated: the client runs multipath */
};

bool braid_gw_mp_offer(struct gw_client *c)
{
	struct braid_gateway *g = c->g;
	const char *pi = braid_ctls_peer_info(c->ctl);
	unsigned v = pi ? braid_peer_info_braid_mp(pi) : 0, max = braid_mp_version_max(), common;
	const char *knob = braid_mp_version_knob();
	char raw[72], *opt;

	if (!g->o->multipath || c->tcp)
		return false;
	if (!v) {
		if (pi && !braid_peer_info_get(pi, BRAID_PEER_INFO_MP, raw, sizeof(raw)))
			braid_warn("%s/%s: IV_BRAID_MP='%s' is not a multipath protocol version (this "
				   "gateway speaks %u..%u): single path", braid_gw_cname(c), c->real,
				   raw, BRAID_MP_VERSION_MIN, max);
		return false;
	}
	if (!c->push.use_peer_id || c->push.framing != BRAID_COMP_NONE) {
		braid_info("%s/%s: IV_BRAID_MP=%u announced, but multipath needs peer-id and no "
			   "compression framing: single path", braid_gw_cname(c), c->real, v);
		return false;
	}
	if (c->push.n_opts >= BRAID_GW_PUSH_MAX_OPTS)
		return false;
	opt = malloc(96);
	if (!opt)
		return false;
	/* the highest version both speak: every version from the minimum up is spoken */
	common = v < max ? v : max;
	if (knob && knob[0] == '=' && strlen(knob) < 64) {	/* test-only: a non-conforming offer */
		snprintf(opt, 96, "braid-mp %s %u", knob + 1, BRAID_GW_MP_WINDOW);
		braid_warn("%s/%s: %s: offering '%s' (test only)", braid_gw_cname(c), c->real,
			   BRAID_MP_VERSION_ENV, opt);
	} else {
		snprintf(opt, 96, "braid-mp %u %u", common, BRAID_GW_MP_WINDOW);
		braid_info("%s/%s: IV_BRAID_MP=%u announced, this gateway speaks %u..%u: offering "
			   "multipath protocol version %u", braid_gw_cname(c), c->real, v,
			   BRAID_MP_VERSION_MIN, max, common);
	}
	c->push.opts[c->push.n_opts++] = opt;
	return true;
}

/* The engine's datagrams sent into the status file's bytes sent and the gateway's link_tx_pkts
 * (its packets leave through the engine, not gw_link.c; received ones are counted on arrival). */
static void mp_sync_tx(struct gw_client *c)
{
	struct braid_tunnel_stats st;

	if (!c->mp || !c->mp->dp)
		return;
	braid_dp_stats(c->mp->dp, &st);
	c->tx_bytes += st.link_tx_bytes - c->mp->tx_seen;
	c->mp->tx_seen = st.link_tx_bytes;
	c->g->st.link_tx_pkts += st.link_tx_pkts - c->mp->tx_pkts_seen;
	c->mp->tx_pkts_seen = st.link_tx_pkts;
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
	mp_sync_tx(c);
}

static void mp_deliver(void *user, uint8_t *payload, size_t len)
{
	struct gw_client *c = user;

	if (c->mp && !c->dead)	/* a killed client keeps its engine until the reap */
		c->mp->deliver(c, payload, len);
}

/* The version field of the `braid-mp` line braid_gw_mp_offer put in c's push list. */
static const char *offered_version(const struct gw_client *c)
{
	for (unsigned i = c->push.n_opts; i-- > 0;)
		if (!strncmp(c->push.opts[i], "braid-mp ", 9))
			return c->push.opts[i] + 9;
	return "?";
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
	mp->start_ms = braid_gw_now_ms();
	snprintf(name, sizeof(name), "%s/%s", braid_gw_cname(c), c->real);
	r = braid_dp_open(&braid_dp_user_ops, &mp->dp, &cfg, &role);
	if (r) {
		free(mp);
		return r;
	}
	c->mp = mp;
	braid_info("%s/%s: multipath negotiated (IV_BRAID_MP, braid-mp %.*s pushed): peer-id %u, "
		   "paths are learned from authenticated packets", braid_gw_cname(c), c->real,
		   (int)strcspn(offered_version(c), " "), offered_version(c), braid_gw_wire_pid(c));
	return 0;
}

void braid_gw_mp_stop(struct gw_client *c)
{
	if (c->mp) {
		mp_sync_tx(c);
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

struct braid_dp *braid_gw_mp_dp(const struct gw_client *c)
{
	if (!c->mp && braid_dp_is_mptcp(c->sp))
		return c->sp;	/* the MPTCP transport: its paths are the subflows */
	return c->mp ? c->mp->dp : NULL;
}

int braid_gw_mp_paths(const struct gw_client *c)
{
	struct braid_mpath_path_info p[BRAID_MP_MAX_PATHS];

	return c->mp ? braid_dp_paths(c->mp->dp, p, BRAID_MP_MAX_PATHS) : 1;
}

bool braid_gw_mp_check(struct gw_client *c, int64_t now_ms)
{
	struct braid_mpath_path_info p[BRAID_MP_MAX_PATHS];
	struct braid_mpath_stats ms;
	struct braid_tunnel_stats st;
	int n;

	if (!c->mp || c->mp->confirmed || now_ms - c->mp->start_ms < BRAID_GW_MP_CONFIRM_MS)
		return false;
	n = braid_dp_paths(c->mp->dp, p, BRAID_MP_MAX_PATHS);
	for (int i = 0; i < n; i++) {
		if (p[i].mp.validations) {
			c->mp->confirmed = true;
			return false;
		}
	}
	/* a client that sent multipath control messages (its PATH_CHALLENGEs, PROBEs, ...) took it
	 * up, even if no path validated yet (lossy links at the start): a client that did not take it
	 * up sends data only */
	if (!braid_dp_engine_stats(c->mp->dp, &ms) && ms.mp.ctl_rx) {
		c->mp->confirmed = true;
		return false;
	}
	braid_dp_stats(c->mp->dp, &st);
	if (st.link_rx_pkts < BRAID_GW_MP_CONFIRM_PKTS)
		return false;	/* nothing to judge by yet: the client is quiet */
	braid_warn("%s/%s: the client did not take up multipath (no path validated %d s after the "
		   "offer, %llu packets received): single path", braid_gw_cname(c), c->real,
		   BRAID_GW_MP_CONFIRM_MS / 1000, (unsigned long long)st.link_rx_pkts);
	braid_gw_mp_stop(c);
	return true;
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
				   "replays=%llu malformed=%llu", braid_gw_cname(c), c->real, braid_gw_wire_pid(c),
				   (unsigned long long)t->link_rx_pkts, (unsigned long long)t->link_tx_pkts,
				   (unsigned long long)t->rx_auth_failures, (unsigned long long)t->rx_replays,
				   (unsigned long long)t->rx_malformed);
			braid_status_log(c->mp->dp);
		}
	}
}
