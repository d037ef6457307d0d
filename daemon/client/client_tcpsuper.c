// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_tcpsuper.c - the TLS client's TCP super-packet frames
 * (client_tcpsuper.h): the announcement in the session's peer-info, the
 * pushed answer, and a TUN super-packet sealed as frames instead of MSS
 * segments. A received frame is client_payload.c's.
 */
#include "client/client_tcpsuper.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/client_state.h"
#include "ctl/km2.h"
#include "dataplane/backend.h"
#include "os/tcplink.h"
#include "os/tun_super.h"
#include "util/log.h"

const char *client_tcpsuper_peer_info(struct braid_client *c)
{
	int r;

	c->tcp_super = false;
	c->tcp_super_offered = false;
	if (!c->tcp || !c->tunrd || c->dco)
		return c->peer_info;
	snprintf(c->peer_info_tcp, sizeof(c->peer_info_tcp), "%s", c->peer_info);
	r = braid_peer_info_add(c->peer_info_tcp, sizeof(c->peer_info_tcp),
				BRAID_PEER_INFO_TCP_SUPER, "1");
	if (r) {
		braid_warn("TCP super-packet frames not announced: %s", strerror(-r));
		return c->peer_info;
	}
	c->tcp_super_offered = true;
	return c->peer_info_tcp;
}

void client_tcpsuper_keys_ready(struct braid_client *c)
{
	int r;

	if (!c->tcp_super_offered)
		return;
	/* the gateway sends frames up to 64 KiB right behind its PUSH_REPLY: taken from an
	 * authenticated server only (before, the stream keeps the stock bound) */
	r = braid_tcpframe_grow(&c->tl.rx, 65535);
	if (r) {
		braid_warn("TCP super-packet frames: cannot take 64 KiB frames (%s): session restarts",
			   strerror(-r));
		client_request_restart(c, "out-of-memory", false);
	}
}

void client_tcpsuper_accept(struct braid_client *c)
{
	bool pushed = c->have_push && c->pushed.braid_tcp_super;

	c->tcp_super = false;
	if (!pushed)
		return;
	if (!c->tcp_super_offered) {
		braid_warn("pushed 'braid-tcp-super' ignored: not announced on this session");
		return;
	}
	c->tcp_super = true;	/* frames received from here on are taken */
	if (!c->superbuf)
		c->superbuf = malloc(BRAID_TCPSUPER_MAX);
	if (!c->superbuf) {
		braid_warn("TCP super-packet frames not sent: out of memory (received ones are taken)");
		return;
	}
	braid_info("TCP super-packet frames on (IV_BRAID_TCPSUPER, braid-tcp-super 1 pushed): "
		   "TUN super-packets cross the stream whole");
}

int client_tcpsuper_send(struct braid_client *c, const struct braid_tun_split *sp)
{
	struct braid_tcpsuper_tx t;
	long n;
	int r;

	if (!c->tcp_super || !c->superbuf || !c->sp || !c->dc || c->st != CS_UP || c->mp ||
	    braid_tcpsuper_tx_begin(&t, sp))
		return -EOPNOTSUPP;
	c->stt.tun_read_pkts += (sp->len - sp->hl + sp->gso_size - 1) / sp->gso_size;
	/* as the split path counts them: each segment with its own headers */
	c->stt.tun_read_bytes += sp->len + (uint64_t)((sp->len - sp->hl - 1) / sp->gso_size) * sp->hl;
	while ((n = braid_tcpsuper_tx_next(&t, c->superbuf, BRAID_TCPSUPER_MAX)) > 0) {
		r = braid_dp_send(c->sp, c->superbuf, (size_t)n);
		if (r == -EOVERFLOW) {
			client_request_restart(c, "packet-id-exhausted", false);
			return 0;
		}
		if (!r)
			c->stt.tcp_super_tx++;
	}
	return 0;
}
