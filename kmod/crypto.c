// SPDX-License-Identifier: GPL-2.0-only
/*
 * Sealing and opening P_DATA_V2 packets (format in crypto.h). OpenVPN puts the tag before the
 * ciphertext while the kernel's AEAD API expects AAD || text || tag, so the scatterlist lists the
 * AAD, the text and then the tag's place in the header. The skb is linear and writable (the callers
 * see to it).
 */
#include <crypto/aead.h>
#include <linux/scatterlist.h>
#include <linux/string.h>

#include "compat.h"
#include "crypto.h"
#include "key.h"

#define BRAID_NONCE_SIZE 12

static int braid_aead(struct crypto_aead *tfm, u8 *hdr, unsigned int text_len, const u8 *tail,
		      bool enc)
{
	struct scatterlist sg[3];
	u8 iv[BRAID_NONCE_SIZE];
	struct aead_request *req;
	int err;

	memcpy(iv, hdr + 4, 4);
	memcpy(iv + 4, tail, BRAID_DCO_NONCE_TAIL_SIZE);
	sg_init_table(sg, 3);
	sg_set_buf(&sg[0], hdr, BRAID_DATA_V2_AAD);
	sg_set_buf(&sg[1], hdr + BRAID_DATA_V2_OVERHEAD, text_len);
	sg_set_buf(&sg[2], hdr + BRAID_DATA_V2_AAD, BRAID_TAG_SIZE);
	req = aead_request_alloc(tfm, GFP_ATOMIC);
	if (!req)
		return -ENOMEM;
	aead_request_set_callback(req, 0, NULL, NULL);
	aead_request_set_ad(req, BRAID_DATA_V2_AAD);
	if (enc) {
		aead_request_set_crypt(req, sg, sg, text_len, iv);
		err = crypto_aead_encrypt(req);
	} else {
		aead_request_set_crypt(req, sg, sg, text_len + BRAID_TAG_SIZE, iv);
		err = crypto_aead_decrypt(req);
	}
	aead_request_free(req);
	return err;
}

/**
 * braid_seal() - encrypt the inner packet in @skb into a P_DATA_V2 packet
 * @key: the primary key of the peer
 * @peer_id: the peer id to put in the header
 * @skb: linear, writable, at least BRAID_DATA_V2_OVERHEAD bytes of headroom
 *
 * Return: 0, -EOVERFLOW (the key's packet ids are used up) or the crypto API's -errno
 */
int braid_seal(struct braid_key *key, u32 peer_id, struct sk_buff *skb)
{
	unsigned int text_len = skb->len;
	u32 pktid;
	u8 *hdr;
	int err;

	err = braid_pktid_next(&key->tx_pid, &pktid);
	if (err)
		return err;
	hdr = skb_push(skb, BRAID_DATA_V2_OVERHEAD);
	put_unaligned_be32((BRAID_OP_DATA_V2 << 27) | ((u32)key->key_id << 24) | peer_id, hdr);
	put_unaligned_be32(pktid, hdr + 4);
	return braid_aead(key->encrypt, hdr, text_len, key->nonce_encrypt, true);
}

/**
 * braid_open() - authenticate and decrypt a P_DATA_V2 packet in place
 * @key: the key whose id the opcode byte names
 * @skb: linear and writable, data at the opcode byte, at least BRAID_DATA_V2_OVERHEAD bytes long
 * @pktid: the packet id (for the replay check, which the caller does after this succeeds)
 *
 * Return: 0 (the plaintext follows the BRAID_DATA_V2_OVERHEAD header bytes) or -EBADMSG (forged or
 * corrupt) or another -errno of the crypto API
 */
int braid_open(struct braid_key *key, struct sk_buff *skb, u32 *pktid)
{
	*pktid = get_unaligned_be32(skb->data + 4);
	return braid_aead(key->decrypt, skb->data, skb->len - BRAID_DATA_V2_OVERHEAD,
			  key->nonce_decrypt, false);
}
