// SPDX-License-Identifier: GPL-2.0-only
/*
 * client_payload.c - a decrypted, authenticated payload of the TLS client
 * (client_payload.h): IP packets through mssfix to the TUN, pings counted,
 * the server's OCC EXIT as a restart, TCP super-packet frames (client_tcpsuper.c) checked and
 * written whole. Both data planes deliver here: the
 * single-path one (client_io.c) and the multipath one (client_mp.c).
 */
#include "client/client_payload.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "client/client_state.h"
#include "dc/payload.h"
#include "os/tun_super.h"
#include "util/log.h"
#include "dataplane/mssfix.h"

/* A TCP super-packet frame (os/tun_super.h): checked, written to the vnet TUN whole after what the
 * coalescer holds. */
static void rx_super(struct braid_client *c, uint8_t *pl, size_t len)
{
	unsigned int nseg;
	const char *why;
	size_t hl;

	if (braid_tcpsuper_open(pl, len, &nseg, &hl, &why)) {
		c->stt.tcp_super_bad++;
		braid_reject(&c->rej, BRAID_REJ_MALFORMED, client_now_ms(), 0,
			     "TCP super-packet frame of %zu bytes dropped: %s (%llu so far)", len, why,
			     (unsigned long long)c->stt.tcp_super_bad);
		return;
	}
	c->stt.tcp_super_rx++;
	client_tun_flush(c);	/* what the coalescer holds came first */
	if (braid_tcpsuper_write(c->tun.fd, c->tun.name, pl, len, nseg))
		return;
	c->stt.tun_write_pkts += nseg;
	c->stt.tun_write_bytes += len - BRAID_TCPSUPER_HDR + (uint64_t)(nseg - 1) * hl;
}

void client_rx_payload(struct braid_client *c, uint8_t *plain, size_t plen)
{
	struct braid_payload pl;

	/* a Braid gateway's TCP super-packet frame (os/tun_super.h): before the framing, never in it */
	if (c->tcp_super && plen && plain[0] == BRAID_TCPSUPER_MAGIC) {
		rx_super(c, plain, plen);
		return;
	}
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

/* Counts what the TUN coalescer wrote (or lost). */
static void tun_count(struct braid_client *c, int err, unsigned int n, uint64_t bytes)
{
	if (err && n) {
		braid_dbg("%s: write error: %s (%u packet(s) lost)", c->tun.name, strerror(-err), n);
		return;
	}
	c->stt.tun_write_pkts += n;
	c->stt.tun_write_bytes += bytes;
}

void client_tun_flush(struct braid_client *c)
{
	unsigned int n;
	uint64_t bytes;
	int r;

	if (!c->tungro)
		return;
	r = braid_tun_gro_write(c->tungro, c->tun.fd, &n, &bytes);
	tun_count(c, r, n, bytes);
}

void client_tun_write(struct braid_client *c, const uint8_t *ip, size_t len)
{
	unsigned int n;
	uint64_t bytes;
	int r, werr;

	if (!c->tungro) {
		if (write(c->tun.fd, ip, len) >= 0)
			tun_count(c, 0, 1, len);
		return;
	}
	r = braid_tun_gro_put(c->tungro, c->tun.fd, ip, len, &n, &bytes, &werr);
	tun_count(c, werr, n, bytes);
	if (r < 0)
		braid_dbg("%s: packet not written (%s)", c->tun.name, strerror(-r));
	if (!c->rx_open)
		client_tun_flush(c);
}
