/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tun.h - the TUN device: open (IFF_TUN | IFF_NO_PI, non-blocking), then
 * configure MTU, link state, addresses and routes over rtnetlink, and undo
 * the addresses and routes before closing. The device itself is not
 * persistent: it disappears when the descriptor is closed.
 */
#ifndef BRAID_TUN_H
#define BRAID_TUN_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "os/netlink.h"
#include "config/options.h"

struct braid_tun {
	int fd;
	int ifindex;
	char name[IFNAMSIZ];
	struct braid_nl *nl;
	/* what we added, so that close removes exactly that */
	bool addr4_added, addr6_added;
	uint8_t prefix4;
	bool route_added[BRAID_OPT_MAX_ROUTES];
	bool vnet;		/* IFF_VNET_HDR: every read and write starts with a struct virtio_net_hdr */
};

/* Open the device named by o->dev ("tun" = the kernel picks tunN). 0 or -errno. */
int braid_tun_open(struct braid_tun *t, const struct braid_options *o);
/*
 * Offloads (the multipath data plane, the static-key single path): asked for at open.
 * braid_tun_open_vnet() is braid_tun_open() with IFF_VNET_HDR and
 * TUNSETOFFLOAD(CSUM | TSO4 | TSO6): reads may return TCP super-packets of up
 * to 64 KiB with unfinished checksums, writes may hand the kernel coalesced
 * TCP segments (braid_tun_gro). Falls back to a plain device (t->vnet false)
 * if the kernel refuses the offloads.
 */
int braid_tun_open_vnet(struct braid_tun *t, const struct braid_options *o);

/* Bytes of the virtio_net_hdr before each packet on a vnet device. */
#define BRAID_TUN_VNET_LEN 10
/* A read or write buffer on a vnet device: header + a 64 KiB IP packet. */
#define BRAID_TUN_SUPER_MAX (BRAID_TUN_VNET_LEN + 65536)

/*
 * Split one read of a vnet device (header + packet) into the packets a
 * device without offloads would have given: a TCP super-packet into MSS
 * segments (IP lengths, ids, sequence numbers, flags and both checksums
 * set), a packet with a pending checksum finished, any other copied.
 * begin: 0 or -EINVAL (a header or packet the kernel would not send: the
 * message names nothing secret, just the field). next: the length of the
 * next packet written to out, 0 when done, -ENOBUFS if cap is too small.
 */
struct braid_tun_split {
	const uint8_t *pkt;
	size_t len;
	uint8_t flags, gso_type;
	uint16_t gso_size, csum_start, csum_offset;
	size_t hl;		/* IP + TCP header bytes of a super-packet */
	size_t off;		/* payload bytes already emitted */
	unsigned int idx;
	bool done;
};
int braid_tun_split_begin(struct braid_tun_split *s, const uint8_t *buf, size_t len);
long braid_tun_split_next(struct braid_tun_split *s, uint8_t *out, size_t cap);

/*
 * Receive-side coalescing for a vnet device (GRO in user space): consecutive
 * in-order TCP segments of one flow with identical headers (but the
 * sequence number and PSH) and equal sizes (the last may be shorter) become
 * one super-packet, written with a GSO header; anything else is written as
 * it came, one packet per write.
 * add: 1 taken, 0 not compatible with what is held (finish, then add again).
 * finish: the bytes to write (vnet header + packet) and the number of
 * packets in it; 0 if empty. reset after the write.
 */
struct braid_tun_gro {
	uint8_t buf[BRAID_TUN_SUPER_MAX];
	size_t len;		/* bytes held after the vnet header */
	unsigned int nseg;
	bool tcp;		/* a TCP segment that later ones may join */
	bool v6;
	size_t hl;		/* IP + TCP header bytes */
	size_t mss;		/* payload of the first segment */
	size_t last;		/* payload of the last segment */
	uint32_t next_seq;
	bool psh;
};
int braid_tun_gro_add(struct braid_tun_gro *g, const uint8_t *ip, size_t len);
size_t braid_tun_gro_finish(struct braid_tun_gro *g, const uint8_t **out, unsigned int *npkts);
void braid_tun_gro_reset(struct braid_tun_gro *g);
/*
 * write: what g holds written to the vnet device fd (one write, EINTR
 * retried) and g emptied; 0 (also when empty) or -errno (what was held is
 * lost). *npkts: the packets that write carried (or lost), *bytes: their IP
 * bytes as separate packets (0 on error), for counters.
 * put: one IP packet into g; when it cannot join what g holds, that is
 * written first (its outcome in *npkts, *bytes, *werr as write gives them).
 * 0, or -errno of an IP packet the coalescer refuses (not taken).
 */
int braid_tun_gro_write(struct braid_tun_gro *g, int fd, unsigned int *npkts, uint64_t *bytes);
int braid_tun_gro_put(struct braid_tun_gro *g, int fd, const uint8_t *ip, size_t len,
		      unsigned int *npkts, uint64_t *bytes, int *werr);

/* MTU, link up, ifconfig / ifconfig-ipv6 addresses, routes. 0 or -errno (logged). */
int braid_tun_configure(struct braid_tun *t, const struct braid_options *o);
/* Remove routes and addresses we added, close the device. Safe to call twice. */
void braid_tun_close(struct braid_tun *t, const struct braid_options *o);

#endif /* BRAID_TUN_H */
