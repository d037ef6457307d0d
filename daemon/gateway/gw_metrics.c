// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_metrics.c - the gateway's samples (gw_metrics.h), from the same
 * counters its management `status 3`, `load-stats` (gw_mgmt.c) and `braid
 * client-paths` (control/mgmt_braid.c) print.
 */
#include "gateway/gw_metrics.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "gateway/gw_client.h"	/* first: session.h before dc.h */
#include "control/metrics.h"
#include "gateway/gateway_mp.h"
#include "gateway/gw_shared.h"

static int by_cid(const void *a, const void *b)
{
	const struct gw_client *x = *(const struct gw_client *const *)a;
	const struct gw_client *y = *(const struct gw_client *const *)b;

	return x->cid < y->cid ? -1 : x->cid > y->cid;
}

static void client_rows(struct braid_met_snap *m, const struct gw_client *c)
{
	const struct braid_dp *dp = braid_gw_mp_dp(c);
	char id[24];
	int ls;

	snprintf(id, sizeof(id), "%lu", c->cid);
	ls = braid_met_lset(m, -1, "client", braid_gw_cname(c), "client_id", id, NULL);
	braid_met_u(m, BRAID_MET_SESSION_UP, ls, c->st == C_ACTIVE);
	braid_met_u(m, BRAID_MET_SESSION_MULTIPATH, ls, dp != NULL);
	braid_met_d(m, BRAID_MET_SESSION_SINCE, ls, (double)c->since);
	braid_met_u(m, BRAID_MET_CLIENT_RX_BYTES, ls, c->rx_bytes);
	braid_met_u(m, BRAID_MET_CLIENT_TX_BYTES, ls, c->tx_bytes);
	if (dp)
		braid_met_dp(m, ls, dp);
}

static void collect(void *user, struct braid_met_snap *m, unsigned max_clients)
{
	const struct braid_gateway *g = user;
	struct braid_gateway_stats sum;
	uint64_t rj[BRAID_REJ__COUNT];
	const struct braid_gateway_stats *s = &sum;
	struct gw_client **live = calloc(g->max_clients ? g->max_clients : 1, sizeof(*live));
	size_t n = 0;

	braid_gw_workers_sum(g, &sum, rj);

	braid_met_u(m, BRAID_MET_GW_CLIENTS, -1, (uint64_t)s->clients);
	braid_met_u(m, BRAID_MET_GW_MAX_CLIENTS, -1, g->client_limit);
	braid_met_u(m, BRAID_MET_GW_SESSIONS_CREATED, -1, s->sessions_created);
	braid_met_u(m, BRAID_MET_GW_CLIENTS_REMOVED, -1, s->clients_removed);
	braid_met_u(m, BRAID_MET_GW_AUTH_FAILED, -1, s->auth_failed);
	braid_met_u(m, BRAID_MET_GW_MAX_CLIENTS_REFUSED, -1, s->max_clients_refused);
	braid_met_u(m, BRAID_MET_GW_CONNECT_FREQ_REFUSED, -1, s->connect_freq_refused);
	braid_met_u(m, BRAID_MET_GW_FLOATS, -1, s->floats);
	braid_met_u(m, BRAID_MET_GW_DATA_AUTH_FAILED, -1, s->data_auth_failed);
	braid_met_u(m, BRAID_MET_GW_TUN_READ_PKTS, -1, s->tun_read_pkts);
	braid_met_u(m, BRAID_MET_GW_TUN_WRITE_PKTS, -1, s->tun_write_pkts);
	braid_met_u(m, BRAID_MET_GW_LINK_RX_PKTS, -1, s->link_rx_pkts);
	braid_met_u(m, BRAID_MET_GW_LINK_TX_PKTS, -1, s->link_tx_pkts);
	if (!live) {
		m->err = -ENOMEM;
		return;
	}
	braid_gw_lock_all(g);
	for (uint32_t i = 0; i < g->max_clients; i++)
		if (g->by_pid[i] && !g->by_pid[i]->dead)
			live[n++] = g->by_pid[i];
	qsort(live, n, sizeof(*live), by_cid);
	for (size_t i = 0; i < n && i < max_clients; i++)
		client_rows(m, live[i]);
	braid_gw_unlock_all(g);
	braid_met_u(m, BRAID_MET_GW_CLIENTS_UNLABELLED, -1, n > max_clients ? n - max_clients : 0);
	free(live);
}

int gw_metrics_open(struct braid_gateway *g, struct braid_metrics **out)
{
	return braid_metrics_new(out, g->loop, g->o, "gateway", collect, g);
}
