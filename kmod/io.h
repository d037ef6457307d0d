/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The data path: the device's transmit (inner packet -> peer -> primary key -> path -> UDP) and the
 * UDP encapsulation receive hook (P_DATA_V2 -> peer -> key by id -> replay check -> the device).
 * Packets that are not P_DATA_V2 of a known peer go on to the socket, i.e. to userspace.
 * Control payloads userspace asks to send (PACKET_SEND) are sealed here with the data key.
 */
#ifndef _BRAID_DCO_IO_H_
#define _BRAID_DCO_IO_H_

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <net/sock.h>

netdev_tx_t braid_dev_xmit(struct sk_buff *skb, struct net_device *dev);
int braid_udp_encap_recv(struct sock *sk, struct sk_buff *skb);

/**
 * braid_is_ip() - whether a payload's first byte starts an IP packet: IPv6, or IPv4 with a
 * header of at least 5 words. Braid's multipath control messages start with 0x42 ("BRAID-MP":
 * version nibble 4, header length 2), which no IPv4 packet has: handed up, not delivered.
 * @b: the payload's first byte
 *
 * Return: true for an IP packet (the device's), false for a control payload (userspace's).
 */
static inline bool braid_is_ip(u8 b)
{
	return b >> 4 == 6 || (b >> 4 == 4 && (b & 0x0f) >= 5);
}

struct braid_peer;
int braid_send_ctl(struct braid_peer *peer, u8 path_id, const void *data, unsigned int len,
		   u32 *pktid);

#endif /* _BRAID_DCO_IO_H_ */
