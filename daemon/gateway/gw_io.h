/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gw_io.h - inside the gateway: batched I/O of one worker, as the static-key
 * mode and the multipath plane do it. The UDP socket is read by recvmmsg
 * with UDP GRO (messages split into their datagrams, os/sock.h); sealed
 * data datagrams are queued while a batch is open and sent by sendmmsg with
 * UDP GSO runs (consecutive equal-sized datagrams to one client: one
 * message); the TUN has vnet offloads (TCP super-packets read are split
 * into segments, in-order segments of one flow written coalesced). The wire
 * is unchanged: plain OpenVPN 2.6 datagrams.
 */
#ifndef BRAID_GW_IO_H
#define BRAID_GW_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gateway/gw_types.h"

#define GW_RX_BATCH_GRO 8	/* messages per recvmmsg with UDP GRO (each up to 64 KiB) */
#define GW_RX_BUF_GRO 65536
#define GW_TUN_READS_VNET 8	/* vnet TUN reads per wakeup (each up to 64 KiB) */

struct gw_io {
	/* TX: open while > 0 (braid_gw_tx_begin/end); entries point into txbuf slots */
	int open;
	bool gso;			/* UDP GSO on g->fd (cleared if the route refuses it) */
	uint8_t *txbuf;			/* BRAID_TXB_MAX slots of BUF_SIZE */
	struct braid_txbatch txb;
	union braid_sockaddr txaddr[BRAID_TXB_MAX];
	struct braid_pktinfo txsrc[BRAID_TXB_MAX];
	/* RX: plain datagrams of BUF_SIZE, or with UDP GRO coalesced runs of up to 64 KiB */
	bool gro;			/* UDP GRO on g->fd */
	uint8_t *rxbuf;
	struct mmsghdr rxmsg[RX_BATCH];
	struct iovec rxiov[RX_BATCH];
	union braid_sockaddr rxaddr[RX_BATCH];
	union {
		struct cmsghdr align;
		/* a dual-stack socket hands a v4-mapped datagram both IP_PKTINFO and IPV6_PKTINFO */
		uint8_t b[BRAID_SOCK_GRO_CMSG + CMSG_SPACE(sizeof(struct in6_pktinfo)) +
			  CMSG_SPACE(sizeof(struct in_pktinfo))];
	} rxctl[RX_BATCH];
	/* TUN offloads (g->tun.vnet) */
	uint8_t *tunrd;			/* one vnet read: header + up to 64 KiB */
	struct braid_tun_gro *tungro;	/* what the next TUN write holds */
	/* TCP super-packet frames (tcp-server on a vnet TUN): one frame built to seal, one received */
	uint8_t *super_tx, *super_rx;	/* BRAID_TCPSUPER_MAX, BRAID_TCPSUPER_RX_BUF bytes */
};
/* A sealed frame as the stream hands it (its 16-bit length bounds it). */
#define BRAID_TCPSUPER_RX_BUF 65535

/*
 * Worker g's batch buffers, after its socket (UDP: GSO probed, GRO asked
 * for) and TUN are open. 0 or -ENOMEM. free: safe on a gateway without.
 */
int braid_gw_io_init(struct braid_gateway *g);
void braid_gw_io_free(struct braid_gateway *g);

/* A batch: datagrams and TUN writes queued until the outermost end (nests). */
void braid_gw_io_begin(struct braid_gateway *g);
void braid_gw_io_end(struct braid_gateway *g);

/*
 * A framed payload for UDP client c, sealed into the next slot and queued:
 * 0 (queued, or dropped as braid_dp_send drops it), or -EOPNOTSUPP when it
 * cannot be batched (no batch open, TCP, no single-path data path): send it
 * at once.
 */
int braid_gw_io_tx_queue(struct gw_client *c, const uint8_t *pl, size_t len);

/* One IP packet to the TUN (coalesced while a batch is open on a vnet TUN). */
void braid_gw_io_tun_write(struct braid_gateway *g, const uint8_t *ip, size_t len);
/* One vnet write (header + packet: nseg segments) to the TUN, after what the coalescer holds. */
void braid_gw_io_tun_write_vnet(struct braid_gateway *g, const uint8_t *buf, size_t len,
				unsigned int nseg);

#endif /* BRAID_GW_IO_H */
