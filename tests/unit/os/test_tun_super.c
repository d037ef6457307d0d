// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_tun_super.c - TCP super-packet frames (daemon/os/tun_super.c): a vnet
 * read cut into frames and each frame opened into a vnet write must stand for
 * exactly the segments the original read stands for (both cut by
 * braid_tun_split, the kernel's segmentation in user space), IPv4 and IPv6,
 * one frame and a 64 KiB super-packet split into two; what the sender leaves
 * to the ordinary path; every rejection of the receiver's check, by its reason.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "os/tun_super.h"
#include "tun_super_pkt.h"

static uint8_t rd[BRAID_TUN_SUPER_MAX];
static uint8_t segs_a[1 << 20], segs_b[1 << 20];
static uint8_t frame[BRAID_TCPSUPER_MAX];

/* The segments of one vnet buffer appended to out at *off; their count, or -1. */
static long split_all(const uint8_t *buf, size_t len, uint8_t *out, size_t *off)
{
	struct braid_tun_split sp;
	long n, k = 0;

	if (braid_tun_split_begin(&sp, buf, len))
		return -1;
	while ((n = braid_tun_split_next(&sp, out + *off, 65536)) > 0) {
		*off += (size_t)n;
		k++;
	}
	return n < 0 ? -1 : k;
}

/* Cut the read into frames, open each, segment it: the same bytes as segmenting the read. */
static void round_trip(bool v6, size_t payload, uint16_t gso, uint8_t flags, long want_frames)
{
	struct braid_tun_split sp;
	struct braid_tcpsuper_tx t;
	size_t len = tsp_build(rd, v6, payload, gso, flags), oa = 0, ob = 0, hl;
	long nseg_a, nseg_b = 0, n, frames = 0;
	unsigned int nseg;
	const char *why = NULL;

	nseg_a = split_all(rd, len, segs_a, &oa);
	CHECK(nseg_a > 1);
	CHECK_EQ(braid_tun_split_begin(&sp, rd, len), 0);
	CHECK_EQ(braid_tcpsuper_tx_begin(&t, &sp), 0);
	while ((n = braid_tcpsuper_tx_next(&t, frame, sizeof(frame))) > 0) {
		frames++;
		CHECK(n <= BRAID_TCPSUPER_MAX);
		CHECK_EQ(frame[0], BRAID_TCPSUPER_MAGIC);
		CHECKM(!braid_tcpsuper_open(frame, (size_t)n, &nseg, &hl, &why), "open: %s", why);
		CHECK_EQ(hl, (v6 ? 40u : 20u) + 32u);
		CHECK_EQ(split_all(frame, (size_t)n, segs_b, &ob), (long)nseg);
		nseg_b += nseg;
	}
	CHECK_EQ(n, 0);
	CHECK_EQ(frames, want_frames);
	CHECK_EQ(nseg_b, nseg_a);
	CHECK_EQ(ob, oa);
	CHECKM(oa == ob && !memcmp(segs_a, segs_b, oa), "v6 %d payload %zu: segments differ", v6, payload);
}

/* A valid one-frame frame of the read tsp_build gives for these, in frame; its length. */
static size_t good_frame(bool v6)
{
	struct braid_tun_split sp;
	struct braid_tcpsuper_tx t;
	size_t len = tsp_build(rd, v6, 10 * 1000, 1000, 0x18);
	long n;

	CHECK_EQ(braid_tun_split_begin(&sp, rd, len), 0);
	CHECK_EQ(braid_tcpsuper_tx_begin(&t, &sp), 0);
	n = braid_tcpsuper_tx_next(&t, frame, sizeof(frame));
	CHECK(n > 0);
	return n > 0 ? (size_t)n : 0;
}

static void reject(size_t len, const char *want)
{
	unsigned int nseg;
	const char *why = "";
	size_t hl;

	CHECK_EQ(braid_tcpsuper_open(frame, len, &nseg, &hl, &why), -EINVAL);
	CHECK_STR(why, want);
}

static void test_rejections(void)
{
	size_t n = good_frame(false);
	uint8_t *ip = frame + BRAID_TCPSUPER_HDR;

	reject(BRAID_TCPSUPER_HDR + 39, "shorter than a header and a TCP/IP packet");
	reject(BRAID_TCPSUPER_MAX + 1, "longer than a frame may be");
	n = good_frame(false), frame[0] = 0x45, reject(n, "magic");
	n = good_frame(false), frame[1] = 3, reject(n, "type");
	n = good_frame(false), frame[1] = BRAID_TCPSUPER_T_V6, reject(n, "type does not match the IP version");
	n = good_frame(false), ip[9] = 17, reject(n, "not a TCP/IP packet (or its headers pass its end)");
	n = good_frame(false), ip[0] = 0x5f, reject(n, "not a TCP/IP packet (or its headers pass its end)");
	n = good_frame(false), ip[20 + 12] = 0xf0, reject(n, "header length does not match the packet's headers");
	/* a TCP header of 60 bytes in a 40-byte packet */
	n = good_frame(false), ip[20 + 12] = 0xf0, braid_pkt_put16(ip + 2, 40);
	reject(BRAID_TCPSUPER_HDR + 40, "not a TCP/IP packet (or its headers pass its end)");
	n = good_frame(false), reject(n - 1, "IP length does not match the frame");
	n = good_frame(false), ip[6] |= 0x20, reject(n, "IPv4 fragment");
	n = good_frame(false), braid_pkt_put16(frame + 4, 20), reject(n, "header length does not match the packet's headers");
	n = good_frame(false), braid_pkt_put16(frame + 6, 0), reject(n, "checksum start/offset do not point at the TCP checksum");
	n = good_frame(false), braid_pkt_put16(frame + 8, 6), reject(n, "checksum start/offset do not point at the TCP checksum");
	n = good_frame(false), braid_pkt_put16(frame + 2, 0), reject(n, "gso size 0 or above the payload");
	n = good_frame(false), braid_pkt_put16(frame + 2, 10001), reject(n, "gso size 0 or above the payload");
	/* headers only: IP length = header length */
	n = good_frame(false), braid_pkt_put16(ip + 2, 52), reject(BRAID_TCPSUPER_HDR + 52, "no TCP payload");
	n = good_frame(true), frame[1] = BRAID_TCPSUPER_T_V4, reject(n, "type does not match the IP version");
	n = good_frame(true), braid_pkt_put16(ip + 4, 0), reject(n, "IP length does not match the frame");
	n = good_frame(true), ip[6] = 0, reject(n, "not a TCP/IP packet (or its headers pass its end)");
	(void)n;
}

/* gso == payload: one segment, written as a packet with the checksum left to the kernel. */
static void test_one_segment(void)
{
	size_t n = good_frame(false), hl;
	struct virtio_net_hdr h;
	unsigned int nseg;
	const char *why;

	braid_pkt_put16(frame + 2, 10000);
	CHECK_EQ(braid_tcpsuper_open(frame, n, &nseg, &hl, &why), 0);
	memcpy(&h, frame, sizeof(h));
	CHECK_EQ(nseg, 1);
	CHECK_EQ(h.gso_type, VIRTIO_NET_HDR_GSO_NONE);
	CHECK_EQ(h.flags, VIRTIO_NET_HDR_F_NEEDS_CSUM);
	n = good_frame(false);
	CHECK_EQ(braid_tcpsuper_open(frame, n, &nseg, &hl, &why), 0);
	memcpy(&h, frame, sizeof(h));
	CHECK_EQ(nseg, 10);
	CHECK_EQ(h.gso_type, VIRTIO_NET_HDR_GSO_TCPV4);
	CHECK_EQ(h.gso_size, 1000);
	CHECK_EQ(h.hdr_len, 52);
	CHECK_EQ(h.csum_start, 20);
	CHECK_EQ(h.csum_offset, 16);
}

/* What the frames leave to the ordinary path (-EOPNOTSUPP). */
static void test_not_carried(void)
{
	struct braid_tun_split sp;
	struct braid_tcpsuper_tx t;
	struct virtio_net_hdr h;
	size_t len;

	len = tsp_build(rd, false, 1000, 1000, 0x10);	/* one segment */
	CHECK_EQ(braid_tun_split_begin(&sp, rd, len), 0);
	CHECK_EQ(braid_tcpsuper_tx_begin(&t, &sp), -EOPNOTSUPP);
	len = tsp_build(rd, false, 20000, 1000, 0x10);
	memcpy(&h, rd, sizeof(h));
	h.flags = 0;	/* no checksum left to the device */
	memcpy(rd, &h, sizeof(h));
	CHECK_EQ(braid_tun_split_begin(&sp, rd, len), 0);
	CHECK_EQ(braid_tcpsuper_tx_begin(&t, &sp), -EOPNOTSUPP);
	len = tsp_build(rd, false, 40000, 20000, 0x10);	/* under 4 segments a frame */
	CHECK_EQ(braid_tun_split_begin(&sp, rd, len), 0);
	CHECK_EQ(braid_tcpsuper_tx_begin(&t, &sp), -EOPNOTSUPP);
	len = tsp_build(rd, false, 20000, 1000, 0x10);
	memcpy(&h, rd, sizeof(h));
	h.gso_type = VIRTIO_NET_HDR_GSO_NONE;
	memcpy(rd, &h, sizeof(h));
	CHECK_EQ(braid_tun_split_begin(&sp, rd, len), 0);
	CHECK_EQ(braid_tcpsuper_tx_begin(&t, &sp), -EOPNOTSUPP);
}

int main(void)
{
	round_trip(false, 10 * 1448, 1448, 0x18, 1);
	round_trip(true, 7 * 1428 + 100, 1428, 0x18, 1);
	/* the largest IPv4 packet: 46 segments, over one frame: two frames of 23 */
	round_trip(false, 65535 - 52, 1448, 0x19 | 0x80, 2);
	round_trip(true, 65535 - 72, 1428, 0x18 | 0x80, 2);
	/* small segments: many frames, each with 4 or more */
	round_trip(false, 65535 - 52, 536, 0x18, 2);
	test_rejections();
	test_one_segment();
	test_not_carried();
	CHECK_DONE();
}
