// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_metrics.c - the TLS client's samples (client_metrics.h), from the
 * same counters its management `status 3` (client_status.c) and `braid paths`
 * (control/mgmt_braid.c) print.
 */
#include "client/client_metrics.h"

#include "client/client_int.h"
#include "client/client_mp.h"
#include "control/metrics.h"

static void collect(void *user, struct braid_met_snap *m, unsigned max_clients)
{
	const struct braid_client *c = user;
	const struct braid_dp *dp = client_mp_dp(c);
	struct client_stats s;

	(void)max_clients;
	client_mp_counters(c, &s);	/* with the multipath data path's */
	braid_met_u(m, BRAID_MET_SESSION_UP, -1, c->st == CS_UP);
	braid_met_u(m, BRAID_MET_SESSION_MULTIPATH, -1, dp != NULL);
	braid_met_u(m, BRAID_MET_TUN_READ_PKTS, -1, s.tun_read_pkts);
	braid_met_u(m, BRAID_MET_TUN_READ_BYTES, -1, s.tun_read_bytes);
	braid_met_u(m, BRAID_MET_TUN_WRITE_PKTS, -1, s.tun_write_pkts);
	braid_met_u(m, BRAID_MET_TUN_WRITE_BYTES, -1, s.tun_write_bytes);
	braid_met_u(m, BRAID_MET_LINK_TX_PKTS, -1, s.link_tx_pkts);
	braid_met_u(m, BRAID_MET_LINK_TX_BYTES, -1, s.link_tx_bytes);
	braid_met_u(m, BRAID_MET_LINK_RX_PKTS, -1, s.link_rx_pkts);
	braid_met_u(m, BRAID_MET_LINK_RX_BYTES, -1, s.link_rx_bytes);
	braid_met_u(m, BRAID_MET_AUTH_FAILURES, -1, s.rx_auth_failures);
	braid_met_u(m, BRAID_MET_REPLAYS, -1, s.rx_replays);
	braid_met_u(m, BRAID_MET_MALFORMED, -1, s.rx_malformed);
	braid_met_u(m, BRAID_MET_PINGS_TX, -1, s.pings_tx);
	braid_met_u(m, BRAID_MET_PINGS_RX, -1, s.pings_rx);
	braid_met_u(m, BRAID_MET_RESTARTS, -1, s.restarts);
	braid_met_u(m, BRAID_MET_RENEGOTIATIONS, -1, s.renegotiations);
	if (dp)
		braid_met_dp(m, -1, dp);
}

int client_metrics_open(struct braid_client *c, struct braid_metrics **out)
{
	return braid_metrics_new(out, c->loop, c->o, "client", collect, c);
}
