// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_tcpsuper.c - the gateway's TCP super-packet frames (gw_tcpsuper.h):
 * offered in the push reply to a Braid client that announced them on the
 * TCP transport, and a TUN super-packet sealed to such a client as frames
 * instead of MSS segments. A received frame is gw_data.c's.
 */
#include "gateway/gw_tcpsuper.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctl/km2.h"
#include "ctl/session.h"
#include "dataplane/backend.h"
#include "gateway/gw_io.h"
#include "gateway/gw_shared.h"
#include "os/tun_super.h"
#include "util/log.h"

/*
 * Test-only, never for production: BRAID_TEST_TCPSUPER_BAD=N (1..1000000) gives every Nth frame sent to a client a
 * gso size of 0, which its receiver must refuse, count and log (daemon.mptcp_super). 0 when unset.
 */
static unsigned int spoil_every(const struct gw_client *c)
{
	const char *e = getenv(BRAID_TCPSUPER_BAD_ENV);
	char *end;
	long v;

	if (!e || !*e)
		return 0;
	v = strtol(e, &end, 10);
	if (*end || v < 1 || v > 1000000)
		return 0;
	braid_warn("%s/%s: %s=%ld: every %ldth TCP super-packet frame to this client spoiled (test only)",
		   braid_gw_cname(c), c->real, BRAID_TCPSUPER_BAD_ENV, v, v);
	return (unsigned int)v;
}

bool braid_gw_tcpsuper_offer(struct gw_client *c)
{
	struct braid_gateway *g = c->g;
	const char *pi = braid_ctls_peer_info(c->ctl);
	char v[16], *opt;

	c->tcp_super = false;
	if (!c->tcp || !g->io || !g->io->super_tx || !pi ||
	    braid_peer_info_get(pi, BRAID_PEER_INFO_TCP_SUPER, v, sizeof(v)))
		return false;
	if (strcmp(v, "1")) {
		braid_info("%s/%s: IV_BRAID_TCPSUPER='%s' is not version 1: TCP super-packet frames "
			   "not offered", braid_gw_cname(c), c->real, v);
		return false;
	}
	if (c->push.n_opts >= BRAID_GW_PUSH_MAX_OPTS || braid_tcpframe_grow(&c->rx, 65535))
		return false;
	opt = strdup("braid-tcp-super 1");
	if (!opt)
		return false;
	c->push.opts[c->push.n_opts++] = opt;
	c->tcp_super = true;
	c->tcp_super_spoil = spoil_every(c);
	braid_info("%s/%s: TCP super-packet frames negotiated (IV_BRAID_TCPSUPER=1, braid-tcp-super 1 "
		   "pushed)", braid_gw_cname(c), c->real);
	return true;
}

int braid_gw_tcpsuper_out(struct braid_gateway *g, const struct braid_tun_split *sp)
{
	struct braid_tcpsuper_tx t;
	struct gw_client *c;
	uint32_t owner;
	long n;
	int r;

	if (!g->io || !g->io->super_tx || braid_tcpsuper_tx_begin(&t, sp))
		return -EOPNOTSUPP;
	braid_gw_rt_rd(g);
	r = braid_vroute_lookup_packet(braid_gw_routes(g), sp->pkt, sp->len, &owner);
	braid_gw_rt_unlock(g);
	if (r || !braid_gw_mine(g, owner))
		return -EOPNOTSUPP;
	c = g->by_pid[owner];
	/* pushed: the PUSH_REPLY is in the stream ahead of any frame (braid_gw_ctl_run drains it) */
	if (!c || c->st != C_ACTIVE || !c->tcp_super || !c->pushed || !c->sp || c->mp || !c->dc)
		return -EOPNOTSUPP;
	g->st.tun_read_pkts += (sp->len - sp->hl + sp->gso_size - 1) / sp->gso_size;
	while ((n = braid_tcpsuper_tx_next(&t, g->io->super_tx, BRAID_TCPSUPER_MAX)) > 0) {
		if (c->tcp_super_spoil && ++c->tcp_super_n % c->tcp_super_spoil == 0)
			memset(g->io->super_tx + 2, 0, 2);	/* gso size 0: refused by the receiver */
		r = braid_dp_send(c->sp, g->io->super_tx, (size_t)n);
		if (r) {
			braid_dbg("%s/%s: encrypt failed: %s", braid_gw_cname(c), c->real, strerror(-r));
			continue;
		}
		g->st.tcp_super_tx++;
	}
	c->last_tx_ms = braid_gw_now_ms();
	return 0;
}
