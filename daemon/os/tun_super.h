/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tun_super.h - TCP super-packet frames: Braid's framing of a TCP
 * super-packet (a GSO read of a vnet TUN) as ONE data-channel plaintext,
 * between two Braid peers over the TCP/MPTCP transport that negotiated it
 * (IV_BRAID_TCPSUPER / pushed `braid-tcp-super`, docs/braidd.md "TCP
 * super-packet frames"). Stock OpenVPN peers never see one.
 *
 * Plaintext layout (all fields big-endian), BRAID_TCPSUPER_HDR = 10 bytes
 * then the IP packet:
 *   0    magic 0xB5 (no ordinary plaintext starts with it under any framing:
 *        IP 0x4_/0x6_, ping 0x2A, OCC 0x28, compression 0xFA/0xFB/0x66/0x69/0x50)
 *   1    type: 1 = TCP over IPv4, 2 = TCP over IPv6
 *   2-3  gso size: the TCP payload of each segment the receiver's kernel cuts
 *   4-5  header length: IP + TCP header bytes at the start of the packet
 *   6-7  checksum start: the IP header length (where TCP begins)
 *   8-9  checksum offset: 16 (the TCP checksum field within TCP)
 *   10-  one TCP/IP packet: the header of its first segment, its IP length
 *        the packet's, the TCP checksum field holding the pseudo-header sum
 * A frame's plaintext is at most BRAID_TCPSUPER_MAX bytes (the stream length
 * is 16 bits, 256 are left to any cipher's overhead): a larger super-packet
 * goes as several frames, split at segment boundaries.
 */
#ifndef BRAID_TUN_SUPER_H
#define BRAID_TUN_SUPER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "os/tun.h"

#define BRAID_TCPSUPER_MAGIC 0xB5
#define BRAID_TCPSUPER_HDR 10
#define BRAID_TCPSUPER_MAX (65535 - 256)
#define BRAID_TCPSUPER_T_V4 1
#define BRAID_TCPSUPER_T_V6 2

/*
 * Sender: the frames of one vnet read. begin: 0, or -EOPNOTSUPP when the read
 * is not a super-packet these frames carry (not TCP GSO with the checksum
 * left to the device, one segment only, options this layout does not say):
 * send it split as before. next: the length of the next frame written to
 * out (header + packet), 0 when done, -ENOBUFS if cap is too small.
 */
struct braid_tcpsuper_tx {
	const uint8_t *pkt;
	size_t len, hl, iphl, total;	/* packet, headers, IP header, TCP payload */
	uint16_t gso;
	bool v6;
	size_t nchunk, base, extra;	/* frames, segments in each (+1 in the first extra) */
	size_t chunk, off;		/* frames written, payload bytes written */
};
int braid_tcpsuper_tx_begin(struct braid_tcpsuper_tx *t, const struct braid_tun_split *s);
long braid_tcpsuper_tx_next(struct braid_tcpsuper_tx *t, uint8_t *out, size_t cap);

/*
 * Receiver: validate frame (len bytes, the magic first) against the packet
 * it carries and turn it in place into a vnet TUN write: the 10-byte header
 * becomes the struct virtio_net_hdr (the kernel cuts the segments), the IPv4
 * header checksum and the TCP pseudo-header sum are recomputed. 0 with
 * *nseg (the segments it stands for) and *hl, or -EINVAL with *why naming
 * the field that failed (a static string, nothing from the packet).
 */
int braid_tcpsuper_open(uint8_t *frame, size_t len, unsigned int *nseg, size_t *hl,
			const char **why);

/* One vnet write of an opened frame (len bytes, nseg segments) to the TUN fd named dev (EINTR retried; a
 * failure logged at debug level, as other TUN write errors). 0 or -errno. */
int braid_tcpsuper_write(int fd, const char *dev, const uint8_t *buf, size_t len, unsigned int nseg);

#endif /* BRAID_TUN_SUPER_H */
