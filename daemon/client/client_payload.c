// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_payload.c - a decrypted, authenticated payload of the TLS client
 * (client_payload.h): IP packets through mssfix to the TUN, pings counted,
 * the server's OCC EXIT as a restart. Both data planes deliver here: the
 * single-path one (client_io.c) and the multipath one (client_mp.c).
 */
#include "client/client_payload.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "client/client_state.h"
#include "dc/payload.h"
#include "util/log.h"
#include "dataplane/mssfix.h"

void client_rx_payload(struct braid_client *c, uint8_t *plain, size_t plen)
{
	struct braid_payload pl;

	braid_payload_classify(c->framing, plain, plen, &pl);
	switch (pl.kind) {
	case BRAID_PAYLOAD_IPV4:
	case BRAID_PAYLOAD_IPV6: {
		uint8_t *ip = plain + (pl.data - plain);

		braid_mssfix_apply(&c->mss, ip, pl.len);
		client_tun_write(c, ip, pl.len);
		break;
	}
	case BRAID_PAYLOAD_PING:
		c->stt.pings_rx++;
		break;
	case BRAID_PAYLOAD_OCC:
		if (pl.occ_type == BRAID_OCC_EXIT) {
			braid_info("server sent an exit notification (OCC EXIT): restarting");
			client_request_restart(c, "remote-exit", true);
		}
		break;
	default:
		c->stt.rx_malformed++;
		braid_dbg("authenticated payload dropped: %s", braid_payload_kind_str(pl.kind));
		break;
	}
}

void client_tun_flush(struct braid_client *c)
{
	const uint8_t *p;
	unsigned int n;
	size_t len;

	if (!c->tungro)
		return;
	len = braid_tun_gro_finish(c->tungro, &p, &n);
	if (!len)
		return;
	while (write(c->tun.fd, p, len) < 0) {
		if (errno == EINTR)
			continue;
		braid_dbg("%s: write error: %s", c->tun.name, strerror(errno));
		braid_tun_gro_reset(c->tungro);
		return;
	}
	c->stt.tun_write_pkts += n;
	c->stt.tun_write_bytes += len - BRAID_TUN_VNET_LEN + (uint64_t)(n - 1) * c->tungro->hl;
	braid_tun_gro_reset(c->tungro);
}

void client_tun_write(struct braid_client *c, const uint8_t *ip, size_t len)
{
	int r;

	if (!c->tungro) {
		if (write(c->tun.fd, ip, len) >= 0) {
			c->stt.tun_write_pkts++;
			c->stt.tun_write_bytes += len;
		}
		return;
	}
	r = braid_tun_gro_add(c->tungro, ip, len);
	if (r == 0) {
		client_tun_flush(c);
		r = braid_tun_gro_add(c->tungro, ip, len);
	}
	if (r < 0)
		braid_dbg("%s: packet not written (%s)", c->tun.name, strerror(-r));
	if (!c->rx_open)
		client_tun_flush(c);
}
