// SPDX-License-Identifier: GPL-2.0-only
/*
 * gw_io.c - the gateway's batched I/O (gw_io.h): UDP GSO/GRO on its socket,
 * data datagrams queued and sent by sendmmsg while a batch is open, TUN
 * writes coalesced on a vnet device.
 */
#include "gateway/gw_io.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dataplane/backend.h"
#include "os/tun_super.h"
#include "util/log.h"

#define GW_RXBUF_BYTES ((size_t)RX_BATCH * BUF_SIZE > (size_t)GW_RX_BATCH_GRO * GW_RX_BUF_GRO ? \
			(size_t)RX_BATCH * BUF_SIZE : (size_t)GW_RX_BATCH_GRO * GW_RX_BUF_GRO)

int braid_gw_io_init(struct braid_gateway *g)
{
	struct gw_io *io = calloc(1, sizeof(*io));

	if (!io)
		return -ENOMEM;
	g->io = io;
	if (!g->tcp && g->fd >= 0) {
		io->gso = braid_sock_gso_ok(g->fd);
		io->gro = braid_sock_set_gro(g->fd) == 0;
		io->txbuf = malloc((size_t)BRAID_TXB_MAX * BUF_SIZE);
		io->rxbuf = malloc(GW_RXBUF_BYTES);
		if (!io->txbuf || !io->rxbuf)
			return -ENOMEM;
	}
	if (g->tun.vnet) {
		io->tunrd = malloc(BRAID_TUN_SUPER_MAX);
		io->tungro = calloc(1, sizeof(*io->tungro));
		if (!io->tunrd || !io->tungro)
			return -ENOMEM;
	}
	if (g->tun.vnet && g->tcp) {
		io->super_tx = malloc(BRAID_TCPSUPER_MAX);
		io->super_rx = malloc(BRAID_TCPSUPER_RX_BUF);
		if (!io->super_tx || !io->super_rx)
			return -ENOMEM;
	}
	if (g->widx == 0)
		braid_info("gateway I/O: UDP %s%s, TUN %s", g->tcp ? "(none: tcp-server)" :
			   io->gso ? "GSO" : "no GSO", g->tcp ? "" : io->gro ? " + GRO" : ", no GRO",
			   g->tun.vnet ? "with offloads (vnet)" : "without offloads");
	return 0;
}

void braid_gw_io_free(struct braid_gateway *g)
{
	struct gw_io *io = g->io;

	if (!io)
		return;
	/* plaintext passed through these: wiped */
	if (io->tunrd)
		sodium_memzero(io->tunrd, BRAID_TUN_SUPER_MAX);
	if (io->tungro)
		sodium_memzero(io->tungro, sizeof(*io->tungro));
	if (io->super_tx)
		sodium_memzero(io->super_tx, BRAID_TCPSUPER_MAX);
	if (io->super_rx)
		sodium_memzero(io->super_rx, BRAID_TCPSUPER_RX_BUF);
	free(io->super_tx);
	free(io->super_rx);
	free(io->tunrd);
	free(io->tungro);
	free(io->txbuf);
	free(io->rxbuf);
	free(io);
	g->io = NULL;
}

/* Send what is queued: a datagram the socket refuses is dropped and counted (as sendto was). */
static void tx_flush(struct braid_gateway *g)
{
	struct gw_io *io = g->io;
	uint64_t sc = io->txb.syscalls, gm = io->txb.gso_msgs;
	unsigned int n = io->txb.n ? braid_txb_flush(&io->txb) : 0;

	for (unsigned int i = 0; i < n; i++) {
		if (io->txb.res[i]) {
			g->st.link_tx_dropped++;
			braid_dbg("sendmmsg: %s (datagram dropped)", strerror(-io->txb.res[i]));
			continue;
		}
		g->st.link_tx_pkts++;
	}
	g->st.link_tx_calls += io->txb.syscalls - sc;
	g->st.link_tx_gso += io->txb.gso_msgs - gm;
	io->txb.n = 0;
}

/* Counts what the TUN coalescer wrote (or lost). */
static void tun_count(struct braid_gateway *g, int err, unsigned int n)
{
	if (!n)
		return;
	if (err) {
		braid_dbg("%s: write error: %s (%u packet(s) lost)", g->tun.name, strerror(-err), n);
		return;
	}
	g->st.tun_write_pkts += n;
	if (n > 1)
		g->st.tun_coalesced++;
}

/* Write what the TUN coalescer holds (one write: a GSO super-packet or one packet). */
static void tun_flush(struct braid_gateway *g)
{
	unsigned int n;
	uint64_t bytes;
	int r = braid_tun_gro_write(g->io->tungro, g->tun.fd, &n, &bytes);

	tun_count(g, r, n);
}

void braid_gw_io_begin(struct braid_gateway *g)
{
	if (g->io)
		g->io->open++;
}

void braid_gw_io_end(struct braid_gateway *g)
{
	struct gw_io *io = g->io;

	if (!io || --io->open > 0)
		return;
	io->open = 0;
	if (io->txb.n)
		tx_flush(g);
	if (io->tungro)
		tun_flush(g);
}

int braid_gw_io_tx_queue(struct gw_client *c, const uint8_t *pl, size_t len)
{
	struct braid_gateway *g = c->g;
	struct gw_io *io = g->io;
	unsigned int i;
	uint8_t *slot;
	size_t olen;
	int r;

	/* multihome same-interface: sent one by one (the batch keeps the source address only) */
	if (!io || io->open <= 0 || !io->txbuf || c->tcp || !c->sp || g->o->multihome_same_if)
		return -EOPNOTSUPP;
	if (io->txb.n >= BRAID_TXB_MAX)
		tx_flush(g);
	i = io->txb.n;
	slot = io->txbuf + (size_t)i * BUF_SIZE;
	r = braid_dp_seal(c->sp, pl, len, slot, BUF_SIZE, &olen);
	if (r == -EOPNOTSUPP)
		return r;
	if (r) {
		braid_dbg("%s/%s: encrypt failed: %s", braid_gw_cname(c), c->real, strerror(-r));
		return 0;
	}
	/* copies: the client may float (or go) before the flush */
	io->txaddr[i] = c->addr;
	io->txsrc[i] = c->local;
	braid_txb_add(&io->txb, g->fd, &io->gso, &io->txaddr[i], slot, olen);
	braid_txb_set_src(&io->txb, &io->txsrc[i]);
	c->tx_bytes += olen;
	return 0;
}

void braid_gw_io_tun_write(struct braid_gateway *g, const uint8_t *ip, size_t len)
{
	struct gw_io *io = g->io;
	unsigned int n;
	uint64_t bytes;
	int r, werr;

	if (!io || !io->tungro) {
		if (write(g->tun.fd, ip, len) == (ssize_t)len)
			g->st.tun_write_pkts++;
		return;
	}
	r = braid_tun_gro_put(io->tungro, g->tun.fd, ip, len, &n, &bytes, &werr);
	tun_count(g, werr, n);
	if (r < 0)
		braid_dbg("%s: packet not written (%s)", g->tun.name, strerror(-r));
	if (io->open <= 0)	/* no batch: written at once */
		tun_flush(g);
}

void braid_gw_io_tun_write_vnet(struct braid_gateway *g, const uint8_t *buf, size_t len,
				unsigned int nseg)
{
	if (g->io && g->io->tungro)
		tun_flush(g);	/* what it holds came first */
	if (braid_tcpsuper_write(g->tun.fd, g->tun.name, buf, len, nseg))
		return;
	g->st.tun_write_pkts += nseg;
	g->st.tun_coalesced++;
}
