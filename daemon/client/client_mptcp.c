// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_mptcp.c - the TLS client's MPTCP transport (client_mptcp.h).
 */
#include "client/client_mptcp.h"

#include <string.h>

#include "dataplane/mptcp_endp.h"
#include "os/mptcp.h"
#include "util/log.h"

bool client_mptcp_wanted(const struct braid_client *c)
{
	return c->tcp && c->o->mptcp != BRAID_OPT_MPTCP_OFF;
}

void client_mptcp_opts(const struct braid_client *c, struct braid_tcplink_opts *op)
{
	memset(op, 0, sizeof(*op));
	op->mptcp = client_mptcp_wanted(c) ? c->o->mptcp : BRAID_MPTCP_OFF;
	op->sndbuf = c->o->sndbuf;
	op->rcvbuf = c->o->rcvbuf;
}

void client_mptcp_connected(struct braid_client *c)
{
	char a[80];
	int r, said;

	if (!client_mptcp_wanted(c))
		return;
	braid_sockaddr_str(&c->remote, a, sizeof(a));
	r = c->tl.mptcp_socket ? braid_mptcp_active(c->tl.fd) : 0;
	if (r == 1)	/* the userspace path manager opens this connection's subflows */
		braid_mptcp_endps_own(c->mptcp_endps, c->tl.fd);
	said = r == 1 ? 1 : 2;
	if (said == c->mptcp_said) {
		braid_dbg("MPTCP: connection to %s is %s", a, r == 1 ? "MPTCP" : "plain TCP");
		return;
	}
	c->mptcp_said = said;
	if (r == 1)
		braid_info("MPTCP: the connection to %s is multipath TCP", a);
	else if (!c->tl.mptcp_socket && c->o->mptcp == BRAID_OPT_MPTCP_AUTO)
		braid_info("MPTCP: not enabled in this kernel (net.mptcp.enabled): plain TCP to %s", a);
	else if (!c->tl.mptcp_socket)
		braid_warn("MPTCP: the kernel refuses MPTCP sockets (%s): fallback to plain TCP "
			   "to %s", strerror(c->tl.mptcp_refused), a);
	else
		braid_warn("MPTCP: %s (or a middlebox) does not speak MPTCP: fallback to plain "
			   "TCP", a);
}

void client_mptcp_start(struct braid_client *c)
{
	if (c->tcp || c->o->proto == BRAID_PROTO_TCP_CLIENT)
		braid_mptcp_endps_start(&c->mptcp_endps, c->loop, c->o, false, 0);
}

void client_mptcp_stop(struct braid_client *c)
{
	braid_mptcp_endps_stop(c->mptcp_endps);
	c->mptcp_endps = NULL;
}
