/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The OpenVPN 2.6 AEAD data channel packet (the userspace data plane's format, daemon/dc/dc.h):
 *   P_DATA_V2: [0x48 | key id] [peer id, 3B BE] [packet id, 4B BE] [tag, 16B] [ciphertext]
 *   AAD = the first 8 bytes; nonce = packet id (4 bytes BE) || the direction's 8-byte nonce tail.
 * Sealing and opening in place in a linear skb through the kernel crypto API.
 */
#ifndef _BRAID_DCO_CRYPTO_H_
#define _BRAID_DCO_CRYPTO_H_

#include <linux/skbuff.h>

#define BRAID_OP_DATA_V2 9
#define BRAID_DATA_V2_AAD 8
#define BRAID_TAG_SIZE 16
#define BRAID_DATA_V2_OVERHEAD (BRAID_DATA_V2_AAD + BRAID_TAG_SIZE)

struct braid_key;

int braid_seal(struct braid_key *key, u32 peer_id, struct sk_buff *skb);
int braid_open(struct braid_key *key, struct sk_buff *skb, u32 *pktid);

#endif /* _BRAID_DCO_CRYPTO_H_ */
