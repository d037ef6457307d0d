/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tun_super_pkt.h - a vnet TUN read of a TCP super-packet as the kernel hands
 * it (virtio_net_hdr with NEEDS_CSUM and TCP GSO, IP + TCP headers with 12
 * bytes of options, the pseudo-header sum in the TCP checksum): built for
 * test_tun_super.c and the seeds of tests/fuzz/fuzz_tcpsuper.c.
 */
#ifndef BRAID_TESTS_TUN_SUPER_PKT_H
#define BRAID_TESTS_TUN_SUPER_PKT_H

#include <linux/virtio_net.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "os/tun.h"
#include "os/tun_pkt.h"

/* Into buf (BRAID_TUN_SUPER_MAX): a read of payload bytes cut at gso; returns its length. */
static inline size_t tsp_build(uint8_t *buf, bool v6, size_t payload, uint16_t gso, uint8_t tcp_flags)
{
	struct virtio_net_hdr h = { 0 };
	uint8_t *ip = buf + BRAID_TUN_VNET_LEN, *th;
	size_t iphl = v6 ? 40 : 20, hl = iphl + 32, len = hl + payload;
	uint16_t c;

	memset(ip, 0, hl);
	if (v6) {
		ip[0] = 0x60;
		braid_pkt_put16(ip + 4, (uint16_t)(len - 40));
		ip[6] = 6;
		ip[7] = 64;
		ip[8] = 0xfd, ip[23] = 1, ip[24] = 0xfd, ip[39] = 2;
	} else {
		ip[0] = 0x45;
		braid_pkt_put16(ip + 2, (uint16_t)len);
		braid_pkt_put16(ip + 4, 0x1234);
		ip[6] = 0x40;	/* DF */
		ip[8] = 64;
		ip[9] = 6;
		ip[12] = 10, ip[15] = 1, ip[16] = 10, ip[19] = 2;
		braid_pkt_ip4_csum(ip, 20);
	}
	th = ip + iphl;
	braid_pkt_put16(th, 8080);
	braid_pkt_put16(th + 2, 40000);
	braid_pkt_put32(th + 4, 0xfffff000u);	/* wraps inside the packet */
	braid_pkt_put32(th + 8, 77);
	th[12] = 8 << 4;
	th[13] = tcp_flags;
	braid_pkt_put16(th + 14, 500);
	th[20] = 1, th[21] = 1, th[22] = 8, th[23] = 10;	/* NOP NOP timestamps */
	for (size_t i = 0; i < payload; i++)
		ip[hl + i] = (uint8_t)(i * 7 + i / 251);
	c = braid_pkt_csum_fold(braid_pkt_pseudo_sum(ip, v6, len - iphl));
	memcpy(th + 16, &c, 2);
	h.flags = VIRTIO_NET_HDR_F_NEEDS_CSUM;
	h.gso_type = v6 ? VIRTIO_NET_HDR_GSO_TCPV6 : VIRTIO_NET_HDR_GSO_TCPV4;
	h.hdr_len = (uint16_t)hl;
	h.gso_size = gso;
	h.csum_start = (uint16_t)iphl;
	h.csum_offset = 16;
	memcpy(buf, &h, sizeof(h));
	return BRAID_TUN_VNET_LEN + len;
}

#endif /* BRAID_TESTS_TUN_SUPER_PKT_H */
