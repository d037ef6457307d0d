/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A key slot's content: the OpenVPN data-channel key id and one AEAD transform per direction
 * (gcm(aes) or rfc7539(chacha20,poly1305) from the kernel crypto API) with its 8-byte nonce tail.
 * A peer has a primary and a secondary slot; key swap exchanges them without a gap.
 */
#ifndef _BRAID_DCO_KEY_H_
#define _BRAID_DCO_KEY_H_

#include <linux/netlink.h>
#include <linux/rcupdate.h>
#include <linux/workqueue.h>
#include <linux/types.h>

#include "pktid.h"
#include "uapi/linux/braid_dco.h"

struct crypto_aead;

/**
 * struct braid_key - the keys of one slot
 * @key_id: the 3-bit key id carried in the opcode byte
 * @alg: enum braid_dco_cipher_alg
 * @encrypt: the transform for packets we send
 * @decrypt: the transform for packets we receive
 * @nonce_encrypt: implicit IV tail for @encrypt
 * @nonce_decrypt: implicit IV tail for @decrypt
 * @tx_pid: the last packet id sent under this key
 * @replay: the receive replay window of this key
 * @rwork: frees the slot in process context after a grace period
 */
struct braid_key {
	u8 key_id;
	u8 alg;
	struct crypto_aead *encrypt;
	struct crypto_aead *decrypt;
	u8 nonce_encrypt[BRAID_DCO_NONCE_TAIL_SIZE];
	u8 nonce_decrypt[BRAID_DCO_NONCE_TAIL_SIZE];
	atomic64_t tx_pid;
	struct braid_replay replay;
	struct rcu_work rwork;
};

/**
 * struct braid_key_dir - one direction's key material from userspace
 * @key: the cipher key
 * @key_len: its length in bytes
 * @nonce_tail: the implicit IV tail (BRAID_DCO_NONCE_TAIL_SIZE bytes)
 */
struct braid_key_dir {
	const u8 *key;
	unsigned int key_len;
	const u8 *nonce_tail;
};

struct braid_key *braid_key_new(u8 alg, u8 key_id, const struct braid_key_dir *enc,
				const struct braid_key_dir *dec, struct netlink_ext_ack *extack);
void braid_key_release(struct braid_key *key);

#endif /* _BRAID_DCO_KEY_H_ */
