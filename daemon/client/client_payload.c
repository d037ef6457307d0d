// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_payload.c - a decrypted, authenticated payload of the TLS client
 * (client_payload.h): IP packets through mssfix to the TUN, pings counted,
 * the server's OCC EXIT as a restart. Both data planes deliver here: the
 * single-path one (client_io.c) and the multipath one (client_mp.c).
 */
#include "client/client_payload.h"

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
		if (write(c->tun.fd, ip, pl.len) >= 0) {
			c->stt.tun_write_pkts++;
			c->stt.tun_write_bytes += pl.len;
		}
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
