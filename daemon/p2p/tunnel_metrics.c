// SPDX-License-Identifier: GPL-2.0-only
/*
 * tunnel_metrics.c - the static-key tunnel's samples (tunnel_metrics.h),
 * from the same counters control/status.c writes into the status file.
 */
#include "p2p/tunnel_metrics.h"

#include "control/metrics.h"
#include "p2p/tunnel_int.h"

static void collect(void *user, struct braid_met_snap *m, unsigned max_clients)
{
	const struct braid_tunnel *t = user;
	const struct braid_tunnel_stats *s = &t->st;

	(void)max_clients;
	braid_met_u(m, BRAID_MET_SESSION_UP, -1, t->connected);
	braid_met_u(m, BRAID_MET_SESSION_MULTIPATH, -1, t->mpd != NULL);
	braid_met_u(m, BRAID_MET_TUN_READ_PKTS, -1, s->tun_read_pkts);
	braid_met_u(m, BRAID_MET_TUN_READ_BYTES, -1, s->tun_read_bytes);
	braid_met_u(m, BRAID_MET_TUN_WRITE_PKTS, -1, s->tun_write_pkts);
	braid_met_u(m, BRAID_MET_TUN_WRITE_BYTES, -1, s->tun_write_bytes);
	braid_met_u(m, BRAID_MET_LINK_TX_PKTS, -1, s->link_tx_pkts);
	braid_met_u(m, BRAID_MET_LINK_TX_BYTES, -1, s->link_tx_bytes);
	braid_met_u(m, BRAID_MET_LINK_RX_PKTS, -1, s->link_rx_pkts);
	braid_met_u(m, BRAID_MET_LINK_RX_BYTES, -1, s->link_rx_bytes);
	braid_met_u(m, BRAID_MET_AUTH_FAILURES, -1, s->rx_auth_failures);
	braid_met_u(m, BRAID_MET_REPLAYS, -1, s->rx_replays);
	braid_met_u(m, BRAID_MET_MALFORMED, -1, s->rx_malformed);
	braid_met_u(m, BRAID_MET_PINGS_TX, -1, s->pings_tx);
	braid_met_u(m, BRAID_MET_PINGS_RX, -1, s->pings_rx);
	braid_met_u(m, BRAID_MET_RESTARTS, -1, s->restarts);
	if (t->mpd)
		braid_met_dp(m, -1, t->mpd);
}

int braid_tunnel_metrics_open(struct braid_tunnel *t, struct braid_metrics **out)
{
	return braid_metrics_new(out, t->loop, t->o, "p2p", collect, t);
}
