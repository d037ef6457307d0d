// SPDX-License-Identifier: GPL-2.0-only
/*
 * Key slots: AEAD transforms allocated and keyed from userspace's material (checked for the
 * cipher's key length), freed after an RCU grace period with the nonce tails wiped.
 */
#include <crypto/aead.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "counters.h"
#include "main.h"
#include "key.h"

#define BRAID_AEAD_TAG_SIZE 16

static struct crypto_aead *braid_aead_new(const char *name, const struct braid_key_dir *dir,
					  struct netlink_ext_ack *extack)
{
	struct crypto_aead *tfm;
	int err;

	/* synchronous implementations only: the data path runs in softirq and waits for none */
	tfm = crypto_alloc_aead(name, 0, CRYPTO_ALG_ASYNC);
	if (IS_ERR(tfm)) {
		NL_SET_ERR_MSG(extack, "the kernel has no such AEAD transform");
		return tfm;
	}
	err = crypto_aead_setkey(tfm, dir->key, dir->key_len);
	if (!err)
		err = crypto_aead_setauthsize(tfm, BRAID_AEAD_TAG_SIZE);
	if (err) {
		NL_SET_ERR_MSG(extack, "the AEAD transform refused the key");
		crypto_free_aead(tfm);
		return ERR_PTR(err);
	}
	return tfm;
}

static bool braid_key_len_ok(u8 alg, unsigned int len)
{
	if (alg == BRAID_DCO_CIPHER_ALG_AES_GCM)
		return len == 16 || len == 24 || len == 32;
	return len == 32;
}

/**
 * braid_key_new() - build a key slot from userspace's key material
 * @alg: BRAID_DCO_CIPHER_ALG_AES_GCM or BRAID_DCO_CIPHER_ALG_CHACHA20_POLY1305
 * @key_id: the key id (0..7)
 * @enc: material for the encrypt direction
 * @dec: material for the decrypt direction
 * @extack: where a refusal is explained
 *
 * Return: the slot, or ERR_PTR: -EOPNOTSUPP (alg none), -EINVAL (key length), -ENOENT (no
 * transform), -ENOMEM
 */
struct braid_key *braid_key_new(u8 alg, u8 key_id, const struct braid_key_dir *enc,
				const struct braid_key_dir *dec, struct netlink_ext_ack *extack)
{
	const char *name;
	struct braid_key *key;
	int err;

	switch (alg) {
	case BRAID_DCO_CIPHER_ALG_AES_GCM:
		name = "gcm(aes)";
		break;
	case BRAID_DCO_CIPHER_ALG_CHACHA20_POLY1305:
		name = "rfc7539(chacha20,poly1305)";
		break;
	default:
		NL_SET_ERR_MSG(extack, "cipher-alg none is not offloaded");
		return ERR_PTR(-EOPNOTSUPP);
	}
	if (!braid_key_len_ok(alg, enc->key_len) || !braid_key_len_ok(alg, dec->key_len)) {
		NL_SET_ERR_MSG(extack, "cipher-key: wrong length for the cipher");
		return ERR_PTR(-EINVAL);
	}
	key = kzalloc(sizeof(*key), GFP_KERNEL);
	if (!key)
		return ERR_PTR(-ENOMEM);
	key->key_id = key_id;
	braid_replay_init(&key->replay);
	key->alg = alg;
	key->encrypt = braid_aead_new(name, enc, extack);
	if (IS_ERR(key->encrypt)) {
		err = PTR_ERR(key->encrypt);
		goto err_free;
	}
	key->decrypt = braid_aead_new(name, dec, extack);
	if (IS_ERR(key->decrypt)) {
		err = PTR_ERR(key->decrypt);
		goto err_enc;
	}
	memcpy(key->nonce_encrypt, enc->nonce_tail, BRAID_DCO_NONCE_TAIL_SIZE);
	memcpy(key->nonce_decrypt, dec->nonce_tail, BRAID_DCO_NONCE_TAIL_SIZE);
	braid_obj_created(BRAID_OBJ_KEY);
	pr_debug("key id %u created\n", key_id);
	return key;

err_enc:
	crypto_free_aead(key->encrypt);
err_free:
	kfree(key);
	return ERR_PTR(err);
}

static void braid_key_free_work(struct work_struct *work)
{
	struct braid_key *key = container_of(to_rcu_work(work), struct braid_key, rwork);

	crypto_free_aead(key->encrypt);
	crypto_free_aead(key->decrypt);
	braid_obj_destroyed(BRAID_OBJ_KEY);
	kfree_sensitive(key);
}

/**
 * braid_key_release() - free a key slot once no RCU reader can see it
 * @key: the slot, already unpublished (may be NULL)
 */
void braid_key_release(struct braid_key *key)
{
	if (!key)
		return;
	pr_debug("key id %u destroyed\n", key->key_id);
	INIT_RCU_WORK(&key->rwork, braid_key_free_work);
	queue_rcu_work(braid_wq, &key->rwork);
}
